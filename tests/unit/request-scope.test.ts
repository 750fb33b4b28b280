import { describe, expect, it } from 'vitest'
import { memoOn, requestOwner, withHttpRequestScope } from '~/utils/request-scope.server'

// Remix gives each loader of a page its own copy of the request; what they share is the HTTP request's scope (decision 080).
describe('request scope', () => {
  it('the loaders of one HTTP request share one lookup, whatever copy of the Request each holds', async () => {
    let loads = 0
    const lookup = (request: Request) => memoOn(requestOwner(request), 'current-user', async () => ++loads)
    const url = 'http://localhost/about'
    await withHttpRequestScope(async () => {
      expect(await lookup(new Request(url))).toBe(1)
      // a later loader, after an await, with a copy of its own
      await new Promise((resolve) => setImmediate(resolve))
      expect(await lookup(new Request(url, { headers: { cookie: 'a=b' } }))).toBe(1)
    })
    // the next HTTP request looks it up again
    await withHttpRequestScope(async () => expect(await lookup(new Request(url))).toBe(2))
    expect(loads).toBe(2)
  })

  it('outside a server request (tests, jobs) the Request itself is the owner', () => {
    const request = new Request('http://localhost/about')
    expect(requestOwner(request)).toBe(request)
  })
})
