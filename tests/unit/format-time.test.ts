import { describe, expect, it } from 'vitest'
import { formatCount, formatDateTime } from '~/utils/format-time'

// formatDateTime builds UTC and local texts without Intl; they must stay what Intl's 'en' format says
const intl = (date: Date, seconds: boolean, timeZone?: string) =>
  new Intl.DateTimeFormat('en', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hourCycle: 'h23', timeZone }).format(date)

describe('formatDateTime', () => {
  const dates = [
    new Date('2026-11-22T14:05:09Z'),
    new Date('2026-01-01T00:00:00Z'),
    new Date('2025-12-31T23:59:59Z'),
    new Date('2024-02-29T09:07:03.999Z'),
    ...Array.from({ length: 50 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 7_654_321_987)),
  ]

  it('writes UTC and the runtime zone as Intl does, in whatever zone the machine is', () => {
    // the runtime's zone is the machine's: try several (half-hour offsets, DST gaps), then restore it
    const machineZone = process.env.TZ
    try {
      for (const zone of [machineZone, 'UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Berlin', 'Pacific/Chatham']) {
        if (zone === undefined) delete process.env.TZ
        else process.env.TZ = zone
        for (const date of [...dates, new Date('2026-03-29T01:30:00Z'), new Date('2026-10-25T00:59:59Z')])
          for (const seconds of [false, true]) {
            expect(formatDateTime(date, { seconds, timeZone: 'UTC' })).toBe(intl(date, seconds, 'UTC'))
            expect(formatDateTime(date, { seconds }), `${zone ?? 'machine zone'} ${date.toISOString()}`).toBe(intl(date, seconds))
          }
      }
    } finally {
      if (machineZone === undefined) delete process.env.TZ
      else process.env.TZ = machineZone
    }
  })

  it('uses Intl for other zones, and takes seconds since the epoch and ISO strings', () => {
    const date = new Date('2026-11-22T14:05:09Z')
    expect(formatDateTime(date, { timeZone: 'Asia/Kolkata' })).toBe(intl(date, false, 'Asia/Kolkata'))
    expect(formatDateTime(date.getTime() / 1000, { timeZone: 'UTC' })).toBe('Nov 22, 2026, 14:05')
    expect(formatDateTime(date.toISOString(), { timeZone: 'UTC', seconds: true })).toBe('Nov 22, 2026, 14:05:09')
    expect(formatDateTime(null)).toBe('')
    expect(formatDateTime('not a date')).toBe('')
  })
})

describe('formatCount', () => {
  it('groups thousands as en-US does', () => {
    for (const n of [0, 7, 42, 999, 1000, 12_345, 999_999, 1_000_000, 20_000, -1234, -5, 123_456_789]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'))
    expect(formatCount(1234.5)).toBe('1,234.5')
  })
})
