import { csvLine } from '~/utils/csv'
import { COLUMN_LABELS, type SortableColumn } from './agents-table-state'
import type { AgentTableRow } from './agents-table.server'

/** The cell of each data column in a CSV export (the filtered export and the selection export). */
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

/** A CSV file of agents with the given columns (comma separated, CRLF lines). */
export function agentsCsv(rows: AgentTableRow[], columns: SortableColumn[]): string {
  const lines = [csvLine(columns.map((c) => COLUMN_LABELS[c])), ...rows.map((r) => csvLine(columns.map((c) => cell[c](r))))]
  return lines.join('\r\n') + '\r\n'
}

/** A CSV download response; the file name is made safe for every browser. */
export function csvResponse(body: string, fileName: string): Response {
  const safe = fileName.replace(/[\\/:*?"<>|]/g, '_')
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${safe.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(safe)}`,
    },
  })
}
