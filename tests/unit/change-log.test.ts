/** change-log.server.ts: what a page's live stream replays after its render mark. */
import { describe, expect, it } from 'vitest'
import { emitChange } from '~/domain/events/bus.server'
import { changeMark, changesSince } from '~/domain/events/change-log.server'

describe('change log', () => {
  it('replays the changes after a mark, nothing when none came, and refuses marks it cannot answer', () => {
    const start = changeMark()
    expect(changesSince(start)).toEqual([])
    emitChange({ organizationId: 'org-a', kind: 'agent', ids: ['a1'] })
    emitChange({ organizationId: 'org-b', kind: 'project' })
    expect(changesSince(start)).toEqual([
      { organizationId: 'org-a', kind: 'agent', ids: ['a1'] },
      { organizationId: 'org-b', kind: 'project' },
    ])
    const later = changeMark()
    expect(changesSince(later)).toEqual([])
    // another process (or a restart), a mark from the future, garbage: the page must reload everything
    const [, seq] = later.split('.')
    expect(changesSince(`000000000000.${seq}`)).toBeNull()
    expect(changesSince(`${later.split('.')[0]}.${Number(seq) + 5}`)).toBeNull()
    expect(changesSince('nonsense')).toBeNull()
  })

  it('forgets the oldest changes beyond its size, and then asks for a full reload', () => {
    const start = changeMark()
    for (let i = 0; i < 2100; i++) emitChange({ organizationId: 'org-a', kind: 'agent' })
    expect(changesSince(start)).toBeNull()
    const recent = changeMark()
    emitChange({ organizationId: 'org-a', kind: 'issue' })
    expect(changesSince(recent)).toEqual([{ organizationId: 'org-a', kind: 'issue' }])
  })
})
