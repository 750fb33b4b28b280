import { describe, expect, it } from 'vitest'
import { formatAge } from '../../cli/output'
import { formatDateTime, timeAgo } from '~/utils/format-time'

// Fixed instants only: the result must not depend on the machine's clock or zone.
const now = Date.parse('2026-03-01T00:30:00.000Z')
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString()

describe('relative time (spec 01 section 9: at most two units, seconds only under 5 minutes)', () => {
  it.each([
    [0, 'just now'],
    [4, 'just now'],
    [30, '30s ago'],
    [60, '1m ago'],
    [90, '1m 30s ago'],
    [299, '4m 59s ago'],
    [300, '5m ago'],
    [330, '5m ago'],
    [3600 + 30, '1h ago'],
    [2 * 3600 + 5 * 60 + 40, '2h 5m ago'],
    [86400 + 3 * 3600 + 59 * 60, '1d 3h ago'],
    [86400 + 5 * 60, '1d ago'],
    [40 * 86400, '40d ago'],
  ])('%i s -> %s', (seconds, text) => {
    expect(timeAgo(ago(seconds), now)).toBe(text)
    // Seconds since the epoch (the number form the web uses) give the same text.
    expect(timeAgo((now - seconds * 1000) / 1000, now)).toBe(text)
  })

  it('never shows more than two units or seconds at 5 minutes and above', () => {
    for (let s = 0; s < 3 * 86400; s += 37) {
      const text = timeAgo(ago(s), now)
      expect(text.replace(/ ago$/, '').split(' ').length).toBeLessThanOrEqual(2)
      if (s >= 300) expect(text).not.toMatch(/\ds/)
    }
  })

  it('the CLI prints the web formatter', () => {
    expect(formatAge(ago(90), now)).toBe('1m 30s ago')
    expect(formatAge(ago(2 * 3600 + 5 * 60), now)).toBe('2h 5m ago')
    expect(formatAge(null, now)).toBe('Never')
  })
})

describe('absolute time', () => {
  it("uses a 00-23 clock: the first hour of the day is '00', never '24'", () => {
    expect(formatDateTime('2026-01-15T00:47:09.000Z', { timeZone: 'UTC' })).toBe('Jan 15, 2026, 00:47')
    expect(formatDateTime('2026-01-15T00:47:09.000Z', { timeZone: 'UTC', seconds: true })).toBe('Jan 15, 2026, 00:47:09')
    expect(formatDateTime('2026-01-15T11:33:00.000Z', { timeZone: 'Pacific/Auckland' })).toBe('Jan 16, 2026, 00:33')
    expect(formatDateTime('2026-01-15T23:59:00.000Z', { timeZone: 'UTC' })).toBe('Jan 15, 2026, 23:59')
  })
})
