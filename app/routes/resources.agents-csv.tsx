import { type LoaderFunctionArgs } from '@remix-run/node'
import { agentsForExport, type AgentTableRow } from '~/domain/fleet/agents-table.server'
import { COLUMN_LABELS, parseAgentTableQuery, parseColumns, type SortableColumn, visibleColumns } from '~/domain/fleet/agents-table-state'
import { requireUser } from '~/utils/auth.server'
import { csvLine } from '~/utils/csv'
import { domainCall } from '~/utils/errors.server'

const cell: Record<SortableColumn, (row: AgentTableRow) => unknown> = {
  id: (r) => r.id,
  connected: (r) => (r.isConnected ? 'Connected' : 'Disconnected'),
  name: (r) => r.name,
  serial: (r) => r.serial,
  systemsCount: (r) => (r.systemsTotal ? `${r.systemsAssigned}/${r.systemsTotal}` : '(none)'),
  systemsTotal: (r) => r.systemsTotal,
  systemsAssigned: (r) => r.systemsAssigned,
  systemsAvailable: (r) => r.systemsAvailable,
  product: (r) => r.product,
  version: (r) => r.version,
  lastSeen: (r) => r.lastSeen ?? 'Never',
  remoteConnect: (r) => r.remoteConnectionState,
  health: (r) => r.weightedAlertsScore,
}

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
  const lines = [csvLine(columns.map((c) => COLUMN_LABELS[c])), ...rows.map((r) => csvLine(columns.map((c) => cell[c](r))))]
  const fileName = `${organizationName} Agents.csv`.replace(/[\\/:*?"<>|]/g, '_')
  return new Response(lines.join('\r\n') + '\r\n', {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${fileName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
  })
}
