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
import { forwardData, type DataTunnel } from './data-forward'
import { sendAgentAnswer } from './answer'
import {
  agentRequestHeaders,
  ANSWER_TIMEOUT_MESSAGE,
  clientAddress,
  liveTunnel,
  NO_SESSION_MESSAGE,
  NO_TUNNEL_MESSAGE,
  sendText,
  TUNNEL_LOST_MESSAGE,
  type BrowserSide,
  type TunnelLink,
  type Visit,
} from './browser-side'
import { agentResponseHeaders, readRelayCookie, relayCookie, relayOwnHeaders } from './headers'
import { INTERNAL_AGENT_HEADER, INTERNAL_CLIENT_HEADER, INTERNAL_HOST_HEADER, INTERNAL_SECRET_HEADER } from './nodes'

export const SERVICE_WORKER_MESSAGE = 'Service workers are not allowed through the relay.'
export const CODE_USED_MESSAGE = 'This remote portal link was already used or has expired. Open the portal again from the agents list.'

const SESSION_PATH = /^\/session\/([^/]+)\/([^/]+)\/([^/]+)\/([^/]+)(\/.*)?$/

export async function handleBrowserRequest(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide) {
  // Another relay node forwarding a request it checked to the tunnel this node holds.
  if (req.headers[INTERNAL_SECRET_HEADER] !== undefined) return handleInternalRequest(req, res, side)
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
  const path = url.pathname + url.search
  const tunnel = liveTunnel(side, record.agentId)
  const visit = { label, sessionId: verdict.session.id, path, client: clientAddress(req), host: req.headers.host ?? '' }
  if (tunnel) return forward(req, res, side, tunnel, visit)
  // Held by another node: it gets the request the session check passed here.
  const peer = await side.peers.find(record.agentId)
  if (peer) return side.peers.forward(req, res, peer, record.agentId, visit, (delta) => side.sessions.change(label, visit.sessionId, delta, delta > 0 ? path : undefined))
  return sendText(res, 502, NO_TUNNEL_MESSAGE)
}

/** A request a peer node already checked against its session: straight to the tunnel held here. */
function handleInternalRequest(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide) {
  if (!side.peers.trusted(req)) return sendText(res, 403, 'Forbidden')
  const tunnel = liveTunnel(side, String(req.headers[INTERNAL_AGENT_HEADER] ?? ''))
  if (!tunnel) return sendText(res, 502, NO_TUNNEL_MESSAGE)
  forward(req, res, side, tunnel, { label: null, sessionId: null, path: req.url ?? '/', client: String(req.headers[INTERNAL_CLIENT_HEADER] ?? ''), host: String(req.headers[INTERNAL_HOST_HEADER] ?? '') })
}

function forward(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide, tunnel: TunnelLink, visit: Visit) {
  // An agent that never answers (its UI hung, its connection gone unnoticed) does not hold the
  // browser forever; the 504 ends the response, and its close cancels the request on either path.
  const timer = setTimeout(() => {
    if (!res.headersSent && !res.destroyed) sendText(res, 504, ANSWER_TIMEOUT_MESSAGE)
  }, side.answerTimeoutMs)
  res.once('close', () => clearTimeout(timer))
  if (tunnel.data?.ready()) return forwardData(req, res, side, tunnel as DataTunnel, visit, () => forwardH2(req, res, side, tunnel, visit))
  forwardH2(req, res, side, tunnel, visit)
}

/** One browser request as one h2 stream of the tunnel (agents without data connections, and the fallback). */
function forwardH2(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide, tunnel: TunnelLink, visit: Visit) {
  const headers = agentRequestHeaders(req, visit)
  const { label, sessionId, path } = visit
  const bodyless = req.method === 'GET' || req.method === 'HEAD'
  let upstream: http2.ClientHttp2Stream
  try {
    upstream = tunnel.h2.request(headers, { endStream: bodyless })
  } catch {
    return sendText(res, 502, NO_TUNNEL_MESSAGE)
  }
  tunnel.active++
  side.activity(tunnel)
  if (label && sessionId) side.sessions.change(label, sessionId, 1, path)
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    tunnel.active--
    side.activity(tunnel)
    if (label && sessionId) side.sessions.change(label, sessionId, -1)
  }
  let answer: { cancel: () => void } | undefined
  res.on('close', () => {
    finish()
    // Cancel only a stream the agent is still answering: a reset of every finished stream trips
    // the agent's HTTP/2 rapid-reset guard (nghttp2 answers GOAWAY after ~1,000 resets) and ends the tunnel.
    if (!upstream.closed && !upstream.readableEnded) upstream.close(http2.constants.NGHTTP2_CANCEL)
  })
  if (!bodyless) req.pipe(upstream)
  upstream.on('response', (h2headers) => {
    if (res.headersSent) return void upstream.close(http2.constants.NGHTTP2_CANCEL) // answered 504 meanwhile
    const status = Number(h2headers[':status'] ?? 502)
    answer = sendAgentAnswer(req, res, upstream, status, agentResponseHeaders(h2headers), (from, to) => from.pipe(to))
  })
  upstream.on('error', () => {
    answer?.cancel()
    if (!res.headersSent) sendText(res, 502, TUNNEL_LOST_MESSAGE)
    else res.destroy()
  })
  upstream.on('close', () => {
    if (!res.headersSent) answer?.cancel()
    // The stream ended without a response (tunnel gone, agent reset the stream); a browser that left needs no answer.
    if (!res.headersSent && !res.destroyed) sendText(res, 502, TUNNEL_LOST_MESSAGE)
  })
}

function redirect(res: http.ServerResponse, location: string, cookie?: string) {
  res.writeHead(303, { ...relayOwnHeaders(), Location: location, ...(cookie ? { 'Set-Cookie': cookie } : {}) })
  res.end()
}

