/**
 * The browser side of the relay (docs/security.md). Every proxy session has its own origin,
 * `{hostLabel}.{RELAY_DOMAIN}`; the agent's UI is served at that origin's root. The session's first
 * address, `/session/{authCheck}/{product}/{agentId}/{projectId}{path}`, carries a one-time code:
 * the relay redeems it once, sets the httpOnly binding cookie on the session origin and redirects
 * to the clean `{path}`. Every other request needs that cookie. Hosts that name no live session
 * are refused, and so are service-worker scripts.
 */
import type http from 'node:http'
import http2 from 'node:http2'
import { hostLabelOf } from '../app/domain/relay/address.server'
import { addressMatches } from '../app/domain/relay/session-checks.server'
import { redeemProxyCode } from '../app/domain/relay/sessions.server'
import { agentCookies, agentResponseHeaders, HOP_BY_HOP, readRelayCookie, relayCookie, relayOwnHeaders } from './headers'
import { type SessionTracker } from './session-tracker'

export const NO_TUNNEL_MESSAGE = 'The agent is not connected to the relay (its tunnel is closed). Try again when the agent is back online.'
export const TUNNEL_LOST_MESSAGE = 'The connection to the agent was lost during the request.'
export const NO_SESSION_MESSAGE = 'Not found. Open the remote portal from the agents list.'
export const SERVICE_WORKER_MESSAGE = 'Service workers are not allowed through the relay.'
export const CODE_USED_MESSAGE = 'This remote portal link was already used or has expired. Open the portal again from the agents list.'

const SESSION_PATH = /^\/session\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)(\/.*)?$/

/** What the browser side needs of the tunnel registry. */
export type TunnelLink = {
  h2: http2.ClientHttp2Session
  active: number
}
export type BrowserSide = {
  sessions: SessionTracker
  tunnel: (agentId: string) => TunnelLink | undefined
  activity: (tunnel: TunnelLink) => void
  account: (req: http.IncomingMessage, res: http.ServerResponse, path: string) => Promise<unknown>
}

export async function handleBrowserRequest(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide) {
  const url = new URL(req.url ?? '/', 'http://relay')
  // A service worker outlives the session that installed it; none is served through the relay, on any host.
  if (req.headers['service-worker'] === 'script') return sendText(res, 403, SERVICE_WORKER_MESSAGE)
  const label = hostLabelOf(req.headers.host)
  if (!label) {
    // The relay's base host serves only the API and the agents' tunnels, never agent content.
    if (url.pathname === '/login' || url.pathname === '/logout') return side.account(req, res, url.pathname)
    return sendText(res, 404, NO_SESSION_MESSAGE)
  }
  const record = await side.sessions.load(label)
  if (!record) return sendText(res, 404, NO_SESSION_MESSAGE)
  const browserKey = readRelayCookie(req.headers.cookie)

  const first = SESSION_PATH.exec(url.pathname)
  if (first) {
    const [, authCheck, , agentId, projectSegment, rest] = first
    if (!addressMatches(record, agentId, projectSegment)) return sendText(res, 403, 'This remote portal session belongs to another agent.')
    const target = (rest || '/') + url.search
    const verdict = await side.sessions.judge(label, browserKey)
    // Reloading the first address in the browser that redeemed it just goes on to the page.
    if (verdict.ok) return redirect(res, target)
    const current = await side.sessions.load(label)
    if (current && !current.closedAt && !current.browserKeyHash && !verdict.end) {
      const key = await redeemProxyCode(label, authCheck)
      side.sessions.forget(label)
      if (key) return redirect(res, target, relayCookie(key))
    }
    return sendText(res, 401, !current || current.closedAt || verdict.end ? verdict.message : CODE_USED_MESSAGE)
  }

  const verdict = await side.sessions.judge(label, browserKey)
  if (!verdict.ok) return sendText(res, verdict.status, verdict.message)
  const tunnel = side.tunnel(record.agentId)
  if (!tunnel || tunnel.h2.destroyed || tunnel.h2.closed) return sendText(res, 502, NO_TUNNEL_MESSAGE)
  forward(req, res, side, { tunnel, label, sessionId: verdict.session.id, path: url.pathname + url.search })
}

function forward(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide, { tunnel, label, sessionId, path }: { tunnel: TunnelLink; label: string; sessionId: string; path: string }) {
  const headers: http2.OutgoingHttpHeaders = {
    ':method': req.method ?? 'GET',
    ':path': path,
    'x-forwarded-for': clientAddress(req),
    'x-forwarded-host': req.headers.host ?? '',
    'x-forwarded-proto': 'http',
  }
  for (const [name, value] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(name) || name.startsWith('x-forwarded-') || value === undefined) continue
    if (name === 'cookie') {
      const kept = agentCookies(String(value))
      if (kept) headers.cookie = kept
      continue
    }
    headers[name] = value
  }
  const bodyless = req.method === 'GET' || req.method === 'HEAD'
  let upstream: http2.ClientHttp2Stream
  try {
    upstream = tunnel.h2.request(headers, { endStream: bodyless })
  } catch {
    return sendText(res, 502, NO_TUNNEL_MESSAGE)
  }
  tunnel.active++
  side.activity(tunnel)
  side.sessions.change(label, sessionId, 1, path)
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    tunnel.active--
    side.activity(tunnel)
    side.sessions.change(label, sessionId, -1)
  }
  res.on('close', () => {
    finish()
    if (!upstream.closed) upstream.close(http2.constants.NGHTTP2_CANCEL)
  })
  if (!bodyless) req.pipe(upstream)
  upstream.on('response', (h2headers) => {
    res.writeHead(Number(h2headers[':status'] ?? 502), agentResponseHeaders(h2headers))
    upstream.pipe(res)
  })
  upstream.on('error', () => {
    if (!res.headersSent) sendText(res, 502, TUNNEL_LOST_MESSAGE)
    else res.destroy()
  })
  upstream.on('close', () => {
    // The stream ended without a response (tunnel gone, agent reset the stream).
    if (!res.headersSent) sendText(res, 502, TUNNEL_LOST_MESSAGE)
  })
}

function redirect(res: http.ServerResponse, location: string, cookie?: string) {
  res.writeHead(303, { ...relayOwnHeaders(), Location: location, ...(cookie ? { 'Set-Cookie': cookie } : {}) })
  res.end()
}

export function clientAddress(req: http.IncomingMessage) {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '')
}

export function sendText(res: http.ServerResponse, status: number, message: string) {
  res.writeHead(status, relayOwnHeaders('text/plain; charset=utf-8'))
  res.end(message)
}

export function sendJson(res: http.ServerResponse, status: number, body: object) {
  res.writeHead(status, { ...relayOwnHeaders('application/json; charset=utf-8') })
  res.end(JSON.stringify(body))
}
