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

/** "3 min ago" style age of an ISO time, or 'Never' (pure; `now` injectable for tests). */
export function formatAge(iso: string | null, now = Date.now()): string {
  if (!iso) return 'Never'
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000))
  if (seconds < 60) return `${seconds}s ago`
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`
  return `${Math.floor(seconds / 86_400)} d ago`
}
