/** How long an alarm's last activation lasted, from its history, with the one-minute hold-down (no clock: instants are given). */
import { describe, expect, it } from 'vitest'
import { formatDuration, lastActivationSpan } from '~/domain/alarms/clears'

const t0 = Date.parse('2026-11-27T20:00:00Z')
const at = (seconds: number) => new Date(t0 + seconds * 1000)
const entry = (seconds: number, count: number) => ({ timestamp: at(seconds), count })

describe('last activation span', () => {
  it('runs from the first count to the healthy report', () => {
    const span = lastActivationSpan([entry(0, 35), entry(300, 35), entry(720, 0)], at(900))!
    expect(span).toEqual({ start: at(0), end: at(720), healthy: true })
  })

  it('keeps a fault that comes back within the hold-down in the same activation', () => {
    // healthy at 100 s, back at 130 s (30 s later): one activation from 0 to the final healthy report
    const flapping = lastActivationSpan([entry(0, 1), entry(100, 0), entry(130, 2), entry(400, 0)], at(500))!
    expect([flapping.start, flapping.end]).toEqual([at(0), at(400)])
    // back after 60 s or more: a new activation, the last one is measured
    const separate = lastActivationSpan([entry(0, 1), entry(100, 0), entry(160, 2), entry(400, 0)], at(500))!
    expect([separate.start, separate.end]).toEqual([at(160), at(400)])
  })

  it('ends at the clear when the issue left the report without a healthy entry, and is unknown without counts', () => {
    expect(lastActivationSpan([entry(0, 3)], at(90))).toEqual({ start: at(0), end: at(90), healthy: false })
    expect(lastActivationSpan([], at(90))).toBeNull()
    expect(lastActivationSpan([entry(0, 0)], at(90))).toBeNull()
    // entries arrive in any order
    expect(lastActivationSpan([entry(720, 0), entry(0, 1)], at(900))).toMatchObject({ start: at(0), end: at(720) })
  })

  it('formats durations briefly', () => {
    expect(formatDuration(42_000)).toBe('42 s')
    expect(formatDuration(12 * 60_000)).toBe('12 min')
    expect(formatDuration(3 * 3600_000 + 5 * 60_000)).toBe('3 h 5 min')
    expect(formatDuration(2 * 86_400_000 + 4 * 3600_000)).toBe('2 d 4 h')
    expect(formatDuration(-5)).toBe('0 s')
  })
})
