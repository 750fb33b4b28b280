import { type LoaderFunctionArgs } from '@remix-run/node'
import { agentsCsv } from '~/domain/fleet/agents-csv'
import { agentsForExport } from '~/domain/fleet/agents-table.server'
import { parseAgentTableQuery, parseColumns, visibleColumns } from '~/domain/fleet/agents-table-state'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'


/**
 * CSV export of the agents list: every agent matching the URL's filters, in its sort order, with the
 * visible columns. File name: organization name plus 'Agents'; separator comma.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const params = new URL(request.url).searchParams
  const { filters, sorting } = parseAgentTableQuery(params)
  const { organizationName, rows } = await domainCall(() => agentsForExport(actor, params.get('organizationId') ?? '', { filters, sorting }))
  const columns = visibleColumns(parseColumns(params.get('columns')))
  const fileName = `${organizationName} Agents.csv`.replace(/[\\/:*?"<>|]/g, '_')
  return new Response(agentsCsv(rows, columns), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
  })
}
