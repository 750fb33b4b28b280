/**
 * Draining the web server on SIGTERM (docs/operations.md, docs/decisions/027-sigterm-draining.md):
 *
 * 1. readiness goes false (/readyz answers 503) while the node still serves everything;
 * 2. after the grace (SHUTDOWN_GRACE_SECONDS, only when something polled /readyz lately: a
 *    balancer that never asks gains nothing from the wait), the listener closes, so new
 *    connections are refused and a balancer retries them on another node;
 * 3. requests in flight finish (their keep-alive connections close after the response); event
 *    streams, which never finish, are closed: browsers reconnect to another node;
 * 4. the caller closes the rest (broker, ingest, database) once this resolves or the deadline passes.
 */
import type http from 'node:http'

/** /readyz polled within this long before SIGTERM: someone (a balancer) watches it, so the grace applies. */
const READINESS_WATCHED_MS = 60_000
const POLL_MS = 50

export type RequestTracker = {
  readonly draining: boolean
  readonly inFlight: number
  /** /readyz was asked (the grace period is only waited for when someone asks) */
  noteReadinessPoll: () => void
  /** Drains; resolves true when every request finished before `deadline` (ms since epoch). */
  drain: (options: { graceMs: number; deadline: number; log?: (message: string) => void }) => Promise<boolean>
}

type Active = { req: http.IncomingMessage; res: http.ServerResponse }

const isEventStream = (res: http.ServerResponse) => String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')

export function trackRequests(server: http.Server): RequestTracker {
  let draining = false
  let polledAt = 0
  const active = new Set<Active>()
  // before the app's own listener, which may answer at once
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const entry = { req, res }
    active.add(entry)
    // a connection that served a request during the drain is not reused
    if (draining) res.setHeader('Connection', 'close')
    res.once('close', () => active.delete(entry))
  })

  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
  const work = () => [...active].filter((entry) => !isEventStream(entry.res))

  return {
    get draining() {
      return draining
    },
    get inFlight() {
      return work().length
    },
    noteReadinessPoll: () => {
      polledAt = Date.now()
    },
    drain: async ({ graceMs, deadline, log }) => {
      draining = true
      for (const { res } of active) if (!res.headersSent) res.setHeader('Connection', 'close')
      const watched = Date.now() - polledAt < READINESS_WATCHED_MS
      if (watched && graceMs > 0) {
        log?.(`draining: /readyz answers 503; new connections are refused in ${Math.round(graceMs / 1000)} s`)
        await sleep(Math.min(graceMs, Math.max(0, deadline - Date.now())))
      }
      server.close()
      for (const { res } of active) if (isEventStream(res)) res.socket?.destroy()
      server.closeIdleConnections()
      if (work().length) log?.(`draining: waiting for ${work().length} request(s) in flight`)
      while (work().length && Date.now() < deadline) {
        await sleep(POLL_MS)
        server.closeIdleConnections()
      }
      return work().length === 0
    },
  }
}
