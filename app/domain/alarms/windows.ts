/**
 * Show and maintenance window occurrences, computed with Intl (no time-zone library): a weekly
 * window is a local wall-clock range ("Fri 18:00-23:00") in an IANA zone, so its instants move
 * with daylight saving time. An end time at or before the start time crosses midnight. Pure and
 * shared by the server (policy, banner) and the UI (next occurrence in the list).
 */

export const WINDOW_KINDS = ['maintenance', 'show'] as const
export type WindowKind = (typeof WINDOW_KINDS)[number]
export const WINDOW_MAX_MS = 7 * 24 * 3600_000
export const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const

export type WindowSpec =
  | { recurrence: 'once'; startsAt: Date; endsAt: Date }
  | { recurrence: 'weekly'; weekdays: number[]; startTime: string; endTime: string; timeZone: string }

export type Occurrence = { start: Date; end: Date }

const DAY_MS = 86_400_000
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter(timeZone: string) {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    formatters.set(timeZone, f)
  }
  return f
}

export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone)
    return true
  } catch {
    return false
  }
}

/** The wall clock of `instant` in `timeZone`, as if it were UTC (milliseconds). */
function wallClock(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]))
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour) % 24, Number(parts.minute), Number(parts.second))
}

const offsetAt = (instant: number, timeZone: string) => wallClock(instant, timeZone) - Math.floor(instant / 1000) * 1000

/**
 * The instant a local wall-clock time (given as UTC milliseconds of that wall clock) happens in
 * `timeZone`. Ambiguous times (autumn) take the earlier instant; times skipped in spring move
 * forward by the gap, like a wall clock would.
 */
export function zonedToInstant(wall: number, timeZone: string): number {
  // Zones change offset at most once within a day either side: try the offset before and after.
  const before = wall - offsetAt(wall - DAY_MS, timeZone)
  const after = wall - offsetAt(wall + DAY_MS, timeZone)
  const matching = [before, after].filter((t) => wallClock(t, timeZone) === wall)
  return matching.length ? Math.min(...matching) : before
}

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return (h ?? 0) * 60 + (m ?? 0)
}

/** Occurrences of a weekly window that start on local days from `fromDay` to `toDay` (UTC-midnight numbers of local dates). */
function weeklyOccurrences(spec: Extract<WindowSpec, { recurrence: 'weekly' }>, fromDay: number, toDay: number): Occurrence[] {
  const start = minutesOf(spec.startTime)
  const end = minutesOf(spec.endTime)
  const crosses = end <= start
  const list: Occurrence[] = []
  for (let day = fromDay; day <= toDay; day += DAY_MS) {
    if (!spec.weekdays.includes(new Date(day).getUTCDay())) continue
    const startAt = zonedToInstant(day + start * 60_000, spec.timeZone)
    const endAt = zonedToInstant(day + (crosses ? DAY_MS : 0) + end * 60_000, spec.timeZone)
    list.push({ start: new Date(startAt), end: new Date(endAt) })
  }
  return list
}

/** The occurrence in progress at `now`, if any. */
export function occurrenceAt(spec: WindowSpec, now: Date): Occurrence | null {
  const t = now.getTime()
  if (spec.recurrence === 'once') return spec.startsAt.getTime() <= t && t < spec.endsAt.getTime() ? { start: spec.startsAt, end: spec.endsAt } : null
  const today = Math.floor(wallClock(t, spec.timeZone) / DAY_MS) * DAY_MS
  return weeklyOccurrences(spec, today - DAY_MS, today).find((o) => o.start.getTime() <= t && t < o.end.getTime()) ?? null
}

/** The occurrence in progress at `now`, else the next one (within a week); null when none is left. */
export function nextOccurrence(spec: WindowSpec, now: Date): Occurrence | null {
  const t = now.getTime()
  if (spec.recurrence === 'once') return spec.endsAt.getTime() > t ? { start: spec.startsAt, end: spec.endsAt } : null
  const today = Math.floor(wallClock(t, spec.timeZone) / DAY_MS) * DAY_MS
  return weeklyOccurrences(spec, today - DAY_MS, today + 8 * DAY_MS).find((o) => o.end.getTime() > t) ?? null
}

/** "Fri, Sat 18:00-23:00" for a weekly window. */
export function describeWeekly(weekdays: number[], startTime: string, endTime: string): string {
  const days = [...weekdays].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => WEEKDAY_NAMES[d]).join(', ')
  return `${days} ${startTime}-${endTime}${minutesOf(endTime) <= minutesOf(startTime) ? ' (next day)' : ''}`
}
