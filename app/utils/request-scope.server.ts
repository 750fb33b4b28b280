/**
 * Memoisation for the span of one GET request. Remix runs every matched loader (root, layouts,
 * page) for one request, and each asked again for the session, the organization list and the
 * compiled access: the same queries three or four times per page. Results are kept on objects that
 * live exactly as long as the request (the Request itself, and the actor made for it), so nothing
 * is shared between requests or users and a revoked right counts from the next request on.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { singleton } from './singleton.server'

const memos = new WeakMap<object, Map<string, Promise<unknown>>>()
/**
 * One object per HTTP request handled by the server (server/request-guards.ts): Remix hands every
 * loader a copy of the request of its own, so the Request cannot key what the loaders of one page
 * share. A process-wide singleton: the server and the Remix build each bundle this module.
 */
const httpRequest = singleton('http-request-scope', () => new AsyncLocalStorage<object>())

/** Runs the handling of one HTTP request in a scope of its own (server/request-guards.ts). */
export function withHttpRequestScope<T>(fn: () => T): T {
  return httpRequest.run({}, fn)
}

/** What the lookups of this request share: the HTTP request's scope, or the Request itself outside the server (tests). */
export function requestOwner(request: Request): object {
  return httpRequest.getStore() ?? request
}
const scoped = new WeakSet<object>()

/** Marks an object (an actor made for one GET request) as safe to memoise on. */
export function markRequestScoped(owner: object) {
  scoped.add(owner)
}

export function isRequestScoped(owner: object) {
  return scoped.has(owner)
}

/** `load()` once per owner and key; a rejection is kept too (the same request would fail the same way). */
export function memoOn<T>(owner: object, key: string, load: () => Promise<T>): Promise<T> {
  let map = memos.get(owner)
  if (!map) memos.set(owner, (map = new Map()))
  let value = map.get(key) as Promise<T> | undefined
  if (!value) map.set(key, (value = load()))
  return value
}

/** Memoises on a request-scoped owner only; anything else (tests, jobs, actions) loads every time. */
export function memoIfScoped<T>(owner: object, key: string, load: () => Promise<T>): Promise<T> {
  return scoped.has(owner) ? memoOn(owner, key, load) : load()
}

/** Reads (GET, HEAD) may share lookups; an action changes data between its own lookups. */
export const isReadRequest = (request: Request) => request.method === 'GET' || request.method === 'HEAD'
