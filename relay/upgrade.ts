/**
 * WebSockets of the agent's UI through the relay (live page updates). The browser's upgrade on a
 * session origin is judged like any request (session, browser cookie, same-origin Origin); the
 * handshake then travels as one h2 stream marked `pf-upgrade: websocket`. The agent replays it
 * against its local UI and answers `pf-upgrade-status: 101` with the handshake headers, after which
 * the stream carries the WebSocket's bytes both ways, untouched (extensions and subprotocols are
 * negotiated end to end). When another node holds the tunnel, that node is asked (relay/nodes.ts).
 */
import type http from 'node:http'
import http2 from 'node:http2'
import { type Duplex } from 'node:stream'
import { hostLabelOf } from '../app/domain/relay/address.server'
import { agentRequestHeaders, clientAddress, liveTunnel, NO_SESSION_MESSAGE, NO_TUNNEL_MESSAGE, type BrowserSide, type TunnelLink, type Visit } from './browser-side'
import { upgradeOverData, type DataTunnel } from './data-forward'
import { readRelayCookie } from './headers'
import { INTERNAL_AGENT_HEADER, INTERNAL_CLIENT_HEADER, INTERNAL_HOST_HEADER } from './nodes'

export const UPGRADE_HEADER = 'pf-upgrade'
export const UPGRADE_STATUS_HEADER = 'pf-upgrade-status'
/** Handshake headers of the agent's 101 answer that reach the browser. */
const HANDSHAKE_HEADERS = ['sec-websocket-accept', 'sec-websocket-protocol', 'sec-websocket-extensions']

const STATUS_TEXT: Record<number, string> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 502: 'Bad Gateway' }

/** Answers an upgrade with a plain HTTP error and closes the socket. */
export function refuseSocket(socket: Duplex, status: number, message = '') {
  if (!socket.writable) return socket.destroy()
  const body = Buffer.from(message)
  socket.end(`HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nCache-Control: no-store\r\nContent-Length: ${body.length}\r\n\r\n${message}`)
}

/** A browser's WebSocket on a session origin. */
export async function handleBrowserUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, side: BrowserSide) {
  const label = hostLabelOf(req.headers.host)!
  if (String(req.headers.upgrade).toLowerCase() !== 'websocket') return refuseSocket(socket, 404, NO_SESSION_MESSAGE)
  // A page of another origin cannot borrow the session (browsers always send Origin with WebSockets).
  const origin = req.headers.origin
  if (origin !== undefined && hostOf(origin) !== String(req.headers.host).toLowerCase()) return refuseSocket(socket, 403, 'Cross-origin WebSocket refused')
  const record = await side.sessions.load(label)
  if (!record) return refuseSocket(socket, 404, NO_SESSION_MESSAGE)
  const verdict = await side.sessions.judge(label, readRelayCookie(req.headers.cookie))
  if (!verdict.ok) return refuseSocket(socket, verdict.status, verdict.message)
  const path = req.url ?? '/'
  const visit: Visit = { label, sessionId: verdict.session.id, path, client: clientAddress(req), host: req.headers.host ?? '' }
  const change = (delta: 1 | -1) => side.sessions.change(label, verdict.session.id, delta, delta > 0 ? path : undefined)
  const tunnel = liveTunnel(side, record.agentId)
  if (tunnel) return upgradeThroughTunnel(req, socket, head, side, tunnel, visit, change)
  const peer = await side.peers.find(record.agentId)
  if (peer) return side.peers.forwardUpgrade(req, socket, head, peer, record.agentId, visit, change)
  refuseSocket(socket, 502, NO_TUNNEL_MESSAGE)
}

/** A WebSocket a peer node checked, for the tunnel this node holds. */
export function handleInternalUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, side: BrowserSide) {
  if (!side.peers.trusted(req)) return refuseSocket(socket, 403)
  const tunnel = liveTunnel(side, String(req.headers[INTERNAL_AGENT_HEADER] ?? ''))
  if (!tunnel) return refuseSocket(socket, 502, NO_TUNNEL_MESSAGE)
  const visit: Visit = { label: null, sessionId: null, path: req.url ?? '/', client: String(req.headers[INTERNAL_CLIENT_HEADER] ?? ''), host: String(req.headers[INTERNAL_HOST_HEADER] ?? '') }
  upgradeThroughTunnel(req, socket, head, side, tunnel, visit, () => undefined)
}

/** Over a fresh data connection when the agent has them (relay/data-forward.ts), else as an h2 stream of the tunnel. */
function upgradeThroughTunnel(req: http.IncomingMessage, socket: Duplex, head: Buffer, side: BrowserSide, tunnel: TunnelLink, visit: Visit, change: (delta: 1 | -1) => void) {
  const overH2 = () => upgradeOverH2(req, socket, head, side, tunnel, visit, change)
  if (tunnel.data) return upgradeOverData(req, socket, head, side, tunnel as DataTunnel, visit, change, (status, message) => refuseSocket(socket, status, message), overH2)
  overH2()
}

function upgradeOverH2(req: http.IncomingMessage, socket: Duplex, head: Buffer, side: BrowserSide, tunnel: TunnelLink, visit: Visit, change: (delta: 1 | -1) => void) {
  if (tunnel.h2.destroyed || tunnel.h2.closed) return refuseSocket(socket, 502, NO_TUNNEL_MESSAGE)
  const headers = agentRequestHeaders(req, visit)
  headers[':method'] = 'GET'
  headers[UPGRADE_HEADER] = 'websocket'
  let upstream: http2.ClientHttp2Stream
  try {
    upstream = tunnel.h2.request(headers, { endStream: false })
  } catch {
    return refuseSocket(socket, 502, NO_TUNNEL_MESSAGE)
  }
  let open = false
  let refused = false
  const close = () => {
    if (refused) return
    if (open) {
      open = false
      tunnel.active--
      side.activity(tunnel)
      change(-1)
    }
    if (!upstream.closed) upstream.close(http2.constants.NGHTTP2_CANCEL)
    socket.destroy()
  }
  socket.on('error', close)
  socket.on('close', close)
  upstream.on('error', close)
  upstream.on('close', close)
  upstream.on('response', (answer) => {
    if (answer[UPGRADE_STATUS_HEADER] !== '101') {
      upstream.resume()
      refused = true
      return refuseSocket(socket, Number(answer[':status']) || 502, 'The agent refused the WebSocket')
    }
    const lines = ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade']
    for (const name of HANDSHAKE_HEADERS) if (answer[name] !== undefined) lines.push(`${name}: ${String(answer[name])}`)
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    open = true
    tunnel.active++
    side.activity(tunnel)
    change(1)
    if (head.length) upstream.write(head)
    upstream.pipe(socket)
    socket.pipe(upstream)
  })
}

function hostOf(origin: string) {
  try {
    return new URL(origin).host.toLowerCase()
  } catch {
    return ''
  }
}
