/**
 * app/utils/live-revalidate.ts: a layout's shouldRevalidate skips navigations that change only the
 * query (no layout loader reads it; issue #26) and live changes of kinds it does not show, and
 * leaves everything else to the router's default.
 */
import { describe, expect, it } from 'vitest'
import { layoutShouldRevalidate, startLiveRevalidation } from '~/utils/live-revalidate'

const url = (path: string) => new URL(path, 'http://localhost')
type Args = Parameters<ReturnType<typeof layoutShouldRevalidate>>[0]
const args = (from: string, to: string, extra: Partial<Args> = {}): Args =>
  ({ currentUrl: url(from), nextUrl: url(to), currentParams: {}, nextParams: {}, defaultShouldRevalidate: true, ...extra }) as Args

describe('layoutShouldRevalidate', () => {
  const shell = layoutShouldRevalidate('routes/_app')
  const agents = '/organization/o1/agents'

  it('skips a navigation that changes only the query (filter, sort, page)', () => {
    expect(shell(args(agents, `${agents}?sort=name`))).toBe(false)
    expect(shell(args(`${agents}?page=2`, `${agents}?page=3`))).toBe(false)
    expect(shell(args(`${agents}?q=a`, agents))).toBe(false)
    // a search form (GET) is such a navigation too
    expect(shell(args(agents, `${agents}?q=x`, { formMethod: 'GET' } as Partial<Args>))).toBe(false)
  })

  it('keeps the default for other paths, actions and reloads', () => {
    expect(shell(args(agents, '/organization/o2/agents?sort=name'))).toBe(true)
    expect(shell(args(agents, `${agents}?sort=name`, { formMethod: 'POST' } as Partial<Args>))).toBe(true)
    // revalidate() and a fetcher's action: the same address
    expect(shell(args(`${agents}?sort=name`, `${agents}?sort=name`))).toBe(true)
    expect(shell(args(agents, agents, { formMethod: 'POST' } as Partial<Args>))).toBe(true)
    // the router's own answer stands when it says no
    expect(shell(args(agents, '/about', { defaultShouldRevalidate: false }))).toBe(false)
  })

  it('reloads on live changes of the kinds the layout shows only', () => {
    let decided: boolean[] = []
    startLiveRevalidation(['agent'], () => {
      decided = [shell(args(agents, agents))]
    })
    startLiveRevalidation(['organization'], () => {
      decided.push(shell(args(agents, agents)))
    })
    startLiveRevalidation('resync', () => {
      decided.push(shell(args(agents, agents)))
    })
    expect(decided).toEqual([false, true, true])
  })
})
