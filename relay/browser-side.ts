/**
 * What the relay's browser side shares with the paths that carry a request to an agent (HTTP/2
 * stream, data connection, peer node): the registry it reads, who asked, the headers a request
 * travels with, and the relay's own plain answers. Kept apart from relay/browser.ts so those paths
 * do not import the module that imports them.
 */
import type http from 'node:http'
import type http2 from 'node:http2'
import { type DataPool } from './data-connections'
import { agentCookies, HOP_BY_HOP, relayOwnHeaders } from './headers'
import { isRelayOwnHeader, type PeerRouter } from './nodes'
import { type SessionTracker } from './session-tracker'

export const NO_TUNNEL_MESSAGE = 'The agent is not connected to the relay (its tunnel is closed). Try again when the agent is back online.'
export const TUNNEL_LOST_MESSAGE = 'The connection to the agent was lost during the request.'
export const ANSWER_TIMEOUT_MESSAGE = 'The agent did not answer in time.'
export const NO_SESSION_MESSAGE = 'Not found. Open the remote portal from the agents list.'

/** What the browser side needs of the tunnel registry. */
export type TunnelLink = {
  h2: http2.ClientHttp2Session
  active: number
  /** the agent's data connections, when it opens them (relay/data-connections.ts) */
  data?: DataPool
}
export type BrowserSide = {
  sessions: SessionTracker
  tunnel: (agentId: string) => TunnelLink | undefined
  activity: (tunnel: TunnelLink) => void
  /** other relay nodes: where an agent's tunnel is when this node holds none */
  peers: PeerRouter
  account: (req: http.IncomingMessage, res: http.ServerResponse, path: string) => Promise<unknown>
  /** a request the agent has not begun to answer by then gets a 504 (RELAY_ANSWER_TIMEOUT_SECONDS) */
  answerTimeoutMs: number
}

export function liveTunnel(side: BrowserSide, agentId: string) {
  const tunnel = side.tunnel(agentId)
  return tunnel && !tunnel.h2.destroyed && !tunnel.h2.closed ? tunnel : undefined
}

/** One browser request: who asked (session, client address, session host) and what. A null label = forwarded by a peer node, which keeps the session's books. */
export type Visit = { label: string | null; sessionId: string | null; path: string; client: string; host: string }

/** The headers a browser request travels to the agent with: hop-by-hop, forwarding, relay-internal and the portal's and relay's cookies removed. */
export function agentRequestHeaders(req: http.IncomingMessage, visit: Visit): http2.OutgoingHttpHeaders {
  const headers: http2.OutgoingHttpHeaders = {
    ':method': req.method ?? 'GET',
    ':path': visit.path,
    'x-forwarded-for': visit.client,
    'x-forwarded-host': visit.host,
    'x-forwarded-proto': 'http',
  }
  for (const name in req.headers) {
    const value = req.headers[name]
    if (HOP_BY_HOP.has(name) || name.startsWith('x-forwarded-') || isRelayOwnHeader(name) || value === undefined) continue
    if (name === 'cookie') {
      const kept = agentCookies(String(value))
      if (kept) headers.cookie = kept
      continue
    }
    headers[name] = value
  }
  return headers
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
