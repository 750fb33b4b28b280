import { describe, expect, it } from 'vitest'
import { shareRows } from '~/components/fleet/use-shared-rows'

describe('shareRows', () => {
  const a = { id: 'a', name: 'Alpha', lastSeen: '2026-11-27T10:00:00Z' }
  const b = { id: 'b', name: 'Beta', lastSeen: null }

  it('keeps unchanged rows and the unchanged list across a reload that answered new objects', () => {
    const first = shareRows(null, [a, b])
    const again = shareRows(first, [{ ...a }, { ...b }])
    expect(again.shared).toBe(first.shared)
    expect(again.shared[0]).toBe(a)
  })

  it('replaces only the rows whose content changed', () => {
    const first = shareRows(null, [a, b])
    const changedA = { ...a, lastSeen: '2026-11-27T10:00:05Z' }
    const next = shareRows(first, [changedA, { ...b }])
    expect(next.shared).not.toBe(first.shared)
    expect(next.shared[0]).toBe(changedA)
    expect(next.shared[1]).toBe(b)
  })

  it('follows order changes, additions and removals', () => {
    const first = shareRows(null, [a, b])
    const c = { id: 'c', name: 'Gamma', lastSeen: null }
    const next = shareRows(first, [{ ...b }, c])
    expect(next.shared).toEqual([b, c])
    expect(next.shared[0]).toBe(b)
    const same = shareRows(next, next.rows)
    expect(same).toBe(next)
  })
})
