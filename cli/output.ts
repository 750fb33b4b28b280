import { timeAgo } from '../app/utils/format-time'
import { type CliContext } from './context'

/** Prints a command's result: its JSON form with --json, else the human text. */
export function emit(ctx: Pick<CliContext, 'json'>, json: unknown, human: () => string) {
  process.stdout.write(ctx.json ? JSON.stringify(json, null, 2) + '\n' : human() + '\n')
}

/** A plain left-aligned text table (pure). */
export function formatTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd()
  return [line(headers), ...rows.map(line)].join('\n')
}

/** Age of an ISO time in the web's own words ('1m 30s ago'), or 'Never' (pure; `now` injectable for tests). */
export function formatAge(iso: string | null, now = Date.now()): string {
  if (!iso) return 'Never'
  return timeAgo(iso, now)
}
