/**
 * Show and maintenance windows: kinds, limits and how a weekly schedule reads, shared by the server
 * and the screens. The time arithmetic (occurrences in the window's zone) is in
 * window-time.server.ts, on the server only.
 */

export const WINDOW_KINDS = ['maintenance', 'show'] as const
export type WindowKind = (typeof WINDOW_KINDS)[number]
export const WINDOW_MAX_MS = 7 * 24 * 3600_000
export const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const

export type WindowSpec =
  | { recurrence: 'once'; startsAt: Date; endsAt: Date }
  | { recurrence: 'weekly'; weekdays: number[]; startTime: string; endTime: string; timeZone: string }

export type Occurrence = { start: Date; end: Date }

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  return (h ?? 0) * 60 + (m ?? 0)
}

/** "Fri, Sat 18:00-23:00" for a weekly window. */
export function describeWeekly(weekdays: number[], startTime: string, endTime: string): string {
  const days = [...weekdays].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)).map((d) => WEEKDAY_NAMES[d]).join(', ')
  return `${days} ${startTime}-${endTime}${minutesOf(endTime) <= minutesOf(startTime) ? ' (next day)' : ''}`
}
