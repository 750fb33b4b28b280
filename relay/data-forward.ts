/**
 * Browser requests and WebSockets over an agent's data connections (relay/data-connections.ts):
 * plain HTTP/1.1 to the agent's web UI, the same header filtering both ways as the HTTP/2 path.
 * A request for which no data connection is idle goes over the HTTP/2 tunnel. One that fails before
 * any answer on a bodyless method (a kept-alive connection the UI closed at that moment: on a busy
 * machine the relay may not have read that close yet) is sent again once, on another idle data
 * connection when there is one, else over the HTTP/2 tunnel: never a 502 (issue #27).
 */
import http from 'node:http'
import { type Duplex } from 'node:stream'
import { agentRequestHeaders, sendText, TUNNEL_LOST_MESSAGE, type BrowserSide, type TunnelLink, type Visit } from './browser-side'
import { http1Headers, type DataPool } from './data-connections'
import { sendAgentAnswer } from './answer'
import { pipeLoose } from './loose-pipe'
import { agentResponseHeaders } from './headers'
import { rawLength, sendRaw } from './raw-body'

export type DataTunnel = TunnelLink & { data: DataPool }

export function forwardData(req: http.IncomingMessage, res: http.ServerResponse, side: BrowserSide, tunnel: DataTunnel, visit: Visit, fallback: () => void) {
  const bodyless = req.method === 'GET' || req.method === 'HEAD'
  const { label, sessionId, path } = visit
  const headers = http1Headers(agentRequestHeaders(req, visit), tunnel.data.localHost)
  tunnel.active++
  side.activity(tunnel)
  if (label && sessionId) side.sessions.change(label, sessionId, 1, path)
  let finished = false
  let answered = false
  const finish = () => {
    if (finished) return
    finished = true
    tunnel.active--
    side.activity(tunnel)
    if (label && sessionId) side.sessions.change(label, sessionId, -1)
  }
  /** One attempt: over the pool's http.Agent (kept-alive or fresh), or over the given fresh connection. */
  const send = (fresh?: Duplex): http.ClientRequest => {
    // (no `agent` with createConnection: `agent: false` would make Node dial a connection of its own)
    const via = fresh ? { createConnection: () => fresh } : { agent: tunnel.data.agent }
    const request = http.request({ method: req.method, path, headers, ...via })
    request.on('response', (answer) => {
      answer.once('end', () => (answered = true))
      // a browser that left, or a 504 sent meanwhile (relay/browser.ts)
      if (res.destroyed || res.headersSent) return void request.destroy()
      const length = rawLength(req, request, answer)
      if (length === undefined) return void sendAgentAnswer(req, res, answer, answer.statusCode ?? 502, agentResponseHeaders(answer.headers), pipeLoose)
      // From here on the body's bytes go socket to socket (relay/raw-body.ts): `answered` tells
      // res's close listener that the upstream request is no longer the one to cut.
      answered = true
      sendRaw(res, request, answer, length, tunnel.data)
    })
    request.on('error', () => {
      if (res.writableEnded) return // answered in full already (or with a 504 meanwhile)
      if (res.headersSent) return void res.destroy()
      if (res.destroyed || finished) return
      if (bodyless) {
        // Not answered at all: a kept-alive connection (from the Agent, or handed back after a raw
        // body) the UI was closing. Once more on another idle data connection.
        const again = fresh ? undefined : tunnel.data.takeFresh()
        if (again) return void (upstream = send(again))
        // Else the HTTP/2 tunnel carries it (it counts the request itself).
        finish()
        return fallback()
      }
      sendText(res, 502, TUNNEL_LOST_MESSAGE)
    })
    if (bodyless) request.end()
    return request
  }
  let upstream = send()
  res.on('close', () => {
    if (finished) return
    finish()
    // A browser that left mid-answer: the connection cannot be reused, cut it (the agent closes its side).
    if (!answered) upstream.destroy()
  })
  if (!bodyless) req.pipe(upstream)
}

const HANDSHAKE_HEADERS = ['sec-websocket-accept', 'sec-websocket-protocol', 'sec-websocket-extensions']

/**
 * A browser WebSocket as a plain upgrade on an idle data connection, then bytes both ways. Without
 * one idle, and when the handshake fails before the agent answered anything (a kept-alive
 * connection the UI closed just then), it goes over the HTTP/2 tunnel (`fallback`) instead of
 * answering 502: under load the old way (waiting up to 3 s for a new connection, or losing the race
 * with the UI's keep-alive timeout) answered 502.
 */
export function upgradeOverData(
  req: http.IncomingMessage,
  socket: Duplex,
  head: Buffer,
  side: BrowserSide,
  tunnel: DataTunnel,
  visit: Visit,
  change: (delta: 1 | -1) => void,
  refuse: (status: number, message: string) => void,
  fallback: () => void,
) {
  // A fresh connection first (the UI cannot be closing it), else an idle kept-alive one; never a wait.
  const fresh = tunnel.data.takeFresh()
  if (!fresh && !tunnel.data.ready()) return fallback()
  const headers = { ...http1Headers(agentRequestHeaders(req, visit), tunnel.data.localHost), connection: 'Upgrade', upgrade: 'websocket' }
  // (no `agent` with createConnection: `agent: false` would make Node dial a connection of its own)
  const via = fresh ? { createConnection: () => fresh } : { agent: tunnel.data.agent }
  const upstream = http.request({ method: 'GET', path: visit.path, headers, ...via })
  let answered = false
  const early = () => upstream.destroy()
  socket.once('close', early)
  upstream.on('upgrade', (answer, agentSocket: Duplex, agentHead: Buffer) => {
    answered = true
    socket.off('close', early)
    if (socket.destroyed) return void agentSocket.destroy()
    const lines = ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade']
    for (const name of HANDSHAKE_HEADERS) if (answer.headers[name] !== undefined) lines.push(`${name}: ${String(answer.headers[name])}`)
    socket.write(`${lines.join('\r\n')}\r\n\r\n`)
    if (agentHead.length) socket.write(agentHead)
    if (head.length) agentSocket.write(head)
    tunnel.active++
    side.activity(tunnel)
    change(1)
    let open = true
    const close = () => {
      if (open) {
        open = false
        tunnel.active--
        side.activity(tunnel)
        change(-1)
      }
      socket.destroy()
      agentSocket.destroy()
    }
    agentSocket.on('error', close).on('close', close)
    socket.on('error', close).on('close', close)
    agentSocket.pipe(socket)
    socket.pipe(agentSocket)
  })
  upstream.on('response', (answer) => {
    answered = true
    answer.resume()
    refuse(answer.statusCode ?? 502, 'The agent refused the WebSocket')
  })
  upstream.on('error', () => {
    if (answered || socket.destroyed) return
    answered = true
    socket.off('close', early)
    fallback()
  })
  upstream.end()
}
