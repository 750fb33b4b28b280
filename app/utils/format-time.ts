/** toLocaleString builds a new Intl formatter per call (~0.1 ms each, per table cell); these are reused. */
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number) => (n < 10 ? `0${n}` : String(n))

/**
 * Date and time as people read it in tables, e.g. "Nov 22, 2026, 14:05" (with `seconds`: "14:05:09"),
 * in `timeZone` or else the runtime's zone. Server-rendered pages use `<DateTime>` (components/ui),
 * whose first client render repeats the server's output.
 * In UTC and in the runtime's own zone the text is built from the Date's fields, the same text
 * Intl's 'en' format gives (tests/unit/format-time.test.ts): a page's first Intl call loads the
 * locale data, a 50-200 ms task on a phone that landed inside hydration (docs/benchmarks.md).
 */
export function formatDateTime(value: string | number | Date | null | undefined, options: { seconds?: boolean; timeZone?: string } = {}): string {
  if (value === null || value === undefined) return ''
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value)
  if (Number.isNaN(date.getTime())) return ''
  const { seconds, timeZone } = options
  if (timeZone === undefined || timeZone === 'UTC') {
    const utc = timeZone === 'UTC'
    const [year, month, day, hour, minute, second] = utc
      ? [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()]
      : [date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds()]
    return `${MONTHS[month]} ${day}, ${year}, ${pad(hour)}:${pad(minute)}${seconds ? `:${pad(second)}` : ''}`
  }
  const key = `${seconds ? 's' : ''}|${timeZone}`
  let format = dateTimeFormats.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hourCycle: 'h23', timeZone })
    dateTimeFormats.set(key, format)
  }
  return format.format(date)
}

/** An integer with thousands separators as 'en-US' writes it ("20,000"), without Intl (see formatDateTime). */
export function formatCount(n: number): string {
  if (!Number.isInteger(n)) return n.toLocaleString('en-US')
  const digits = String(Math.abs(n))
  let out = ''
  for (let i = 0; i < digits.length; i++) out += (i > 0 && (digits.length - i) % 3 === 0 ? ',' : '') + digits[i]
  return n < 0 ? `-${out}` : out
}

/**
 * "N ago" with at most two units; seconds only under 5 minutes (spec 01 section 9):
 * 90 s is '1m 30s ago', 2 h 5 min is '2h 5m ago'. Pure, so the CLI prints the same text (`now` for tests).
 */
export function timeAgo(value: string | number | Date, now = Date.now()): string {
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value)
  const total = Math.max(0, Math.round((now - date.getTime()) / 1000))
  if (total < 5) return 'just now'
  const units: [string, number][] = [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]]
  const parts: string[] = []
  let rest = total
  for (const [label, size] of units) {
    if (label === 's' && total >= 300) break
    const n = Math.floor(rest / size)
    rest -= n * size
    // Two adjacent units at most: once a unit is shown, the next is the last one considered.
    if (n > 0) parts.push(`${n}${label}`)
    if (parts.length === 2 || (parts.length === 1 && n === 0)) break
  }
  return `${parts.join(' ')} ago`
}
