/**
 * Date and time as people read it in tables, e.g. "Nov 22, 2026, 14:05" (with `seconds`: "14:05:09"),
 * in `timeZone` or else the runtime's zone. Server-rendered pages use `<DateTime>` (components/ui),
 * whose first client render repeats the server's output.
 */
export function formatDateTime(value: string | number | Date | null | undefined, options: { seconds?: boolean; timeZone?: string } = {}): string {
  if (value === null || value === undefined) return ''
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  const { seconds, timeZone } = options
  return date.toLocaleString('en', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hour12: false, timeZone })
}

/** "N ago" with at most two units; seconds only under 5 minutes (spec 01 section 9). */
export function timeAgo(value: string | number | Date, now = Date.now()): string {
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value)
  let seconds = Math.max(0, Math.round((now - date.getTime()) / 1000))
  if (seconds < 5) return 'just now'
  const units: [string, number][] = [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]]
  const parts: string[] = []
  for (const [label, size] of units) {
    if (label === 's' && (parts.length > 0 || seconds >= 300)) break
    const n = Math.floor(seconds / size)
    if (n > 0 || (label === 's' && parts.length === 0)) {
      parts.push(`${n}${label}`)
      seconds -= n * size
    }
    if (parts.length === 2) break
  }
  return `${parts.join(' ')} ago`
}
