import { Temporal } from '@js-temporal/polyfill'
import { type Occurrence, type WindowSpec } from './windows'

/**
 * Window time arithmetic with Temporal (@js-temporal/polyfill; docs/decisions/038-window-time-zones.md):
 * a weekly window is a local wall-clock range ("Fri 18:00-23:00") in an IANA zone, so its instants
 * move with daylight saving time; a one-off window may be entered as local times of its zone. A
 * local time the clocks skip (spring) moves forward by the gap and an ambiguous one (autumn) takes
 * the earlier instant: Temporal's 'compatible' disambiguation, what a wall clock does. An end time
 * at or before the start time crosses midnight. Server-only: the polyfill stays out of the browser
 * bundle (screens get texts formatted here).
 */

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/

export function isTimeZone(timeZone: string): boolean {
  try {
    Temporal.Now.instant().toZonedDateTimeISO(timeZone)
    return true
  } catch {
    return false
  }
}

/** A local "YYYY-MM-DDTHH:MM" wall-clock time as it happens in `timeZone`; null when it is not one. */
export function localToInstant(local: string, timeZone: string): Date | null {
  if (!LOCAL.test(local)) return null
  try {
    const zoned = Temporal.PlainDateTime.from(local).toZonedDateTime(timeZone, { disambiguation: 'compatible' })
    return new Date(zoned.epochMilliseconds)
  } catch {
    return null
  }
}

/** An instant as local "YYYY-MM-DDTHH:MM" in `timeZone` (the value of a datetime-local input). */
export function instantToLocal(instant: Date, timeZone: string): string {
  return Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone).toPlainDateTime().toString({ smallestUnit: 'minute' })
}

const localDate = (instant: number, timeZone: string) => Temporal.Instant.fromEpochMilliseconds(instant).toZonedDateTimeISO(timeZone).toPlainDate()

/** Occurrences of a weekly window starting on the local days from `from` (inclusive) for `days` days. */
function weeklyOccurrences(spec: Extract<WindowSpec, { recurrence: 'weekly' }>, from: Temporal.PlainDate, days: number): Occurrence[] {
  const start = Temporal.PlainTime.from(spec.startTime)
  const end = Temporal.PlainTime.from(spec.endTime)
  const crosses = Temporal.PlainTime.compare(end, start) <= 0
  const at = (day: Temporal.PlainDate, time: Temporal.PlainTime) => new Date(day.toPlainDateTime(time).toZonedDateTime(spec.timeZone, { disambiguation: 'compatible' }).epochMilliseconds)
  const list: Occurrence[] = []
  for (let i = 0; i < days; i++) {
    const day = from.add({ days: i })
    // Temporal numbers Monday 1 .. Sunday 7; windows store Sunday 0 .. Saturday 6
    if (!spec.weekdays.includes(day.dayOfWeek % 7)) continue
    list.push({ start: at(day, start), end: at(crosses ? day.add({ days: 1 }) : day, end) })
  }
  return list
}

/** The occurrence in progress at `now`, if any. */
export function occurrenceAt(spec: WindowSpec, now: Date): Occurrence | null {
  const t = now.getTime()
  if (spec.recurrence === 'once') return spec.startsAt.getTime() <= t && t < spec.endsAt.getTime() ? { start: spec.startsAt, end: spec.endsAt } : null
  const today = localDate(t, spec.timeZone)
  return weeklyOccurrences(spec, today.subtract({ days: 1 }), 2).find((o) => o.start.getTime() <= t && t < o.end.getTime()) ?? null
}

/** The occurrence in progress at `now`, else the next one (within a week); null when none is left. */
export function nextOccurrence(spec: WindowSpec, now: Date): Occurrence | null {
  const t = now.getTime()
  if (spec.recurrence === 'once') return spec.endsAt.getTime() > t ? { start: spec.startsAt, end: spec.endsAt } : null
  const today = localDate(t, spec.timeZone)
  return weeklyOccurrences(spec, today.subtract({ days: 1 }), 10).find((o) => o.end.getTime() > t) ?? null
}

/** "Fri 27 Nov 18:00" on the window's own clock: the same text on the server and in every browser. */
export function formatInZone(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant)
}
