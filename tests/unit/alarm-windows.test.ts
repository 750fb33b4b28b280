/** Window occurrences in non-UTC zones: across midnight and across both daylight saving changes. */
import { describe, expect, it } from 'vitest'
import { formatInZone, instantToLocal, isTimeZone, localToInstant, nextOccurrence, occurrenceAt } from '~/domain/alarms/window-time.server'
import { describeWeekly, type WindowSpec } from '~/domain/alarms/windows'

const iso = (d: Date | undefined) => d?.toISOString()

describe('weekly windows', () => {
  // Every Saturday 22:00 to Sunday 03:00, Berlin time. Summer time ends Sunday 25 October 2026 at 03:00 CEST.
  const saturdayNight: WindowSpec = { recurrence: 'weekly', weekdays: [6], startTime: '22:00', endTime: '03:00', timeZone: 'Europe/Berlin' }

  it('crosses midnight and lasts an hour longer on the night summer time ends', () => {
    const normal = occurrenceAt(saturdayNight, new Date('2026-10-18T00:30:00Z'))!
    expect([iso(normal.start), iso(normal.end)]).toEqual(['2026-10-17T20:00:00.000Z', '2026-10-18T01:00:00.000Z'])
    const dst = occurrenceAt(saturdayNight, new Date('2026-10-25T01:30:00Z'))!
    expect([iso(dst.start), iso(dst.end)]).toEqual(['2026-10-24T20:00:00.000Z', '2026-10-25T02:00:00.000Z'])
    expect(dst.end.getTime() - dst.start.getTime()).toBe(6 * 3600_000)
    // 03:30 CET on Sunday: over.
    expect(occurrenceAt(saturdayNight, new Date('2026-10-25T02:30:00Z'))).toBeNull()
    // Friday noon: nothing in progress; the next one is Saturday night.
    expect(occurrenceAt(saturdayNight, new Date('2026-10-23T10:00:00Z'))).toBeNull()
    expect(iso(nextOccurrence(saturdayNight, new Date('2026-10-23T10:00:00Z'))?.start)).toBe('2026-10-24T20:00:00.000Z')
  })

  it('follows the spring change in New York, including a start inside the skipped hour', () => {
    // Sundays 02:30-04:00; on 8 March 2026 02:00 EST jumps to 03:00 EDT.
    const spec: WindowSpec = { recurrence: 'weekly', weekdays: [0], startTime: '02:30', endTime: '04:00', timeZone: 'America/New_York' }
    const o = nextOccurrence(spec, new Date('2026-03-07T12:00:00Z'))!
    // 02:30 does not exist that night: it starts when the clock shows 03:30 EDT (07:30Z) and ends 04:00 EDT (08:00Z).
    expect([iso(o.start), iso(o.end)]).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-08T08:00:00.000Z'])
    expect(occurrenceAt(spec, new Date('2026-03-08T07:45:00Z'))).not.toBeNull()
    expect(occurrenceAt(spec, new Date('2026-03-15T06:45:00Z'))).not.toBeNull()
  })

  it('takes the earlier instant for an ambiguous local time and describes the schedule', () => {
    expect(localToInstant('2026-10-25T02:30', 'Europe/Berlin')?.toISOString()).toBe('2026-10-25T00:30:00.000Z')
    expect(localToInstant('2026-07-01T18:00', 'Asia/Kolkata')?.toISOString()).toBe('2026-07-01T12:30:00.000Z')
    // skipped in spring: moves forward by the gap, as a wall clock does
    expect(localToInstant('2026-03-08T02:30', 'America/New_York')?.toISOString()).toBe('2026-03-08T07:30:00.000Z')
    expect(describeWeekly([6, 5], '22:00', '03:00')).toBe('Fri, Sat 22:00-03:00 (next day)')
  })

  it('one-off windows are in progress between their instants only', () => {
    const spec: WindowSpec = { recurrence: 'once', startsAt: new Date('2026-05-01T10:00:00Z'), endsAt: new Date('2026-05-01T12:00:00Z') }
    expect(occurrenceAt(spec, new Date('2026-05-01T11:00:00Z'))).not.toBeNull()
    expect(occurrenceAt(spec, new Date('2026-05-01T12:00:00Z'))).toBeNull()
    expect(nextOccurrence(spec, new Date('2026-05-02T00:00:00Z'))).toBeNull()
  })
})

describe('windows on their own clock', () => {
  it('reads a one-off window entered in Los Angeles time and shows it there, whoever looks', () => {
    const start = localToInstant('2026-11-27T18:00', 'America/Los_Angeles')!
    expect(start.toISOString()).toBe('2026-11-28T02:00:00.000Z')
    expect(instantToLocal(start, 'America/Los_Angeles')).toBe('2026-11-27T18:00')
    expect(formatInZone(start, 'America/Los_Angeles')).toBe('Fri 27 Nov, 18:00')
    expect(formatInZone(start, 'Europe/Berlin')).toBe('Sat 28 Nov, 03:00')
  })

  it('gives the next start of a weekly Los Angeles window on its own clock', () => {
    const friday: WindowSpec = { recurrence: 'weekly', weekdays: [5], startTime: '18:00', endTime: '23:00', timeZone: 'America/Los_Angeles' }
    // Friday 27 November, 10:00 in Berlin (01:00 in Los Angeles): the next start is that evening in Los Angeles
    const next = nextOccurrence(friday, new Date('2026-11-27T09:00:00Z'))!
    expect(next.start.toISOString()).toBe('2026-11-28T02:00:00.000Z')
    expect(formatInZone(next.start, friday.timeZone)).toBe('Fri 27 Nov, 18:00')
  })

  it('refuses what is not a zone or a local time', () => {
    expect(isTimeZone('America/Los_Angeles')).toBe(true)
    expect(isTimeZone('Mars/Olympus')).toBe(false)
    expect(localToInstant('2026-11-27 18:00', 'UTC')).toBeNull()
    expect(localToInstant('2026-02-30T18:00', 'UTC')).toBeNull()
    expect(localToInstant('2026-11-27T18:00', 'Mars/Olympus')).toBeNull()
  })
})
