import { type ActionFunctionArgs } from '@remix-run/node'
import { DomainError } from '~/domain/errors'
import { agentsCsv, csvResponse } from '~/domain/fleet/agents-csv'
import { parseColumns, visibleColumns } from '~/domain/fleet/agents-table-state'
import { loadAgentRows, type AgentTableRow } from '~/domain/fleet/agents-table.server'
import { BULK_CHUNK_SIZE, bulkExportIds, prepareBulkAgents } from '~/domain/fleet/bulk.server'
import { requireUser } from '~/utils/auth.server'

const failure = (error: unknown) => {
  if (!(error instanceof DomainError)) throw error
  return Response.json({ code: error.code, message: error.message, issues: error.issues }, { status: error.status })
}

/**
 * Bulk operations of the agents list. POST a JSON body (or a form field `payload` holding it):
 * - `{ intent: 'export', organizationId, selection, columns? }`: a CSV of the selected agents;
 * - `{ intent: 'run', organizationId, operation, projectId?, selection }`: assign or remove, answered
 *   as a stream of JSON lines, `{ progress: { processed, total } }` per chunk, then `{ summary }` (or
 *   `{ error }`), so the screen shows a progress bar on long operations.
 * The same domain functions serve /client/v1 `agent/bulk` and `agent/bulkExport`.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  let body: Record<string, unknown>
  try {
    const type = request.headers.get('Content-Type') ?? ''
    body = type.includes('application/json') ? await request.json() : JSON.parse(String((await request.formData()).get('payload') ?? ''))
  } catch {
    return Response.json({ code: 'invalid-argument', message: 'The request body is not JSON' }, { status: 400 })
  }
  const { intent, columns, ...input } = body ?? {}
  if (intent === 'export') {
    try {
      const { scope, ids } = await bulkExportIds(actor, input)
      const rows: AgentTableRow[] = []
      for (let i = 0; i < ids.length; i += BULK_CHUNK_SIZE) rows.push(...(await loadAgentRows(scope, ids.slice(i, i + BULK_CHUNK_SIZE))))
      const csv = agentsCsv(rows, visibleColumns(parseColumns(typeof columns === 'string' ? columns : null)))
      return csvResponse(csv, `${scope.access.organization.name} Agents selection.csv`)
    } catch (error) {
      return failure(error)
    }
  }
  if (intent !== 'run') return Response.json({ code: 'invalid-argument', message: `Unknown intent '${String(intent)}'` }, { status: 400 })
  let job: Awaited<ReturnType<typeof prepareBulkAgents>>
  try {
    job = await prepareBulkAgents(actor, input)
  } catch (error) {
    return failure(error)
  }
  const encoder = new TextEncoder()
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (value: object) => controller.enqueue(encoder.encode(JSON.stringify(value) + '\n'))
      try {
        send({ summary: await job.run((progress) => send({ progress })) })
      } catch (error) {
        send({ error: error instanceof DomainError ? error.message : 'An unrecognized error has occurred' })
        if (!(error instanceof DomainError)) console.error(error)
      }
      controller.close()
    },
  })
  return new Response(stream, { headers: { 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' } })
}
