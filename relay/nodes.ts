/**
 * Relay across nodes (docs/architecture.md): several relays share one database; each registers
 * its internal address (RELAY_INTERNAL_URL) and heartbeat, and records on every tunnel row which
 * node holds it. A browser session is checked by whichever node the browser reached; when another
 * node holds the agent's tunnel, the request (or WebSocket) goes to that node's internal address
 * with the shared RELAY_INTERNAL_SECRET, and that node forwards it into the tunnel. The internal
 * headers are never accepted without the secret nor passed on to an agent.
 */
import { timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import https from 'node:https'
import { type Duplex } from 'node:stream'
import { closeDeadNodes, findTunnelNode, heartbeatRelayNode, NODE_HEARTBEAT_MS, removeRelayNode, type RelayPeer } from '../app/domain/relay/nodes.server'
import { HOP_BY_HOP } from './headers'

export const INTERNAL_SECRET_HEADER = 'x-pf-relay-secret'
export const INTERNAL_AGENT_HEADER = 'x-pf-relay-agent'
export const INTERNAL_CLIENT_HEADER = 'x-pf-relay-client'
export const INTERNAL_HOST_HEADER = 'x-pf-relay-host'
/** Where a peer's tunnel was looked up recently: a page load is dozens of requests. */
const PEER_CACHE_MS = 1000

/** Headers only relays speak among themselves (and the tunnel's own upgrade markers): never from a browser to an agent. */
export const isRelayOwnHeader = (name: string) => name.startsWith('x-pf-relay-') || name.startsWith('pf-')

export type RelayNodeSettings = { id: string; internalUrl: string; secret: string | null }

type Visit = { path: string; client: string; host: string }

export class PeerRouter {
  private readonly cache = new Map<string, { peer: RelayPeer | null; at: number }>()
  private readonly secret: Buffer | null
  private readonly agents = { http: new http.Agent({ keepAlive: true, noDelay: true }), https: new https.Agent({ keepAlive: true, noDelay: true }) }
  private timer?: NodeJS.Timeout

  constructor(
    readonly node: RelayNodeSettings,
    private readonly log: (line: string) => void,
  ) {
    this.secret = node.secret ? Buffer.from(node.secret) : null
  }

  /** Cross-node routing is on when the nodes share a secret. */
  get enabled() {
    return this.secret !== null
  }

  async start() {
    if (!this.enabled) return
    const beat = async () => {
      await heartbeatRelayNode(this.node.id, this.node.internalUrl)
      const dead = await closeDeadNodes()
      if (dead.length) this.log(`relay: nodes ${dead.join(', ')} stopped sending heartbeats; their tunnels are closed`)
    }
    await beat()
    this.timer = setInterval(() => void beat().catch((error: Error) => this.log(`relay: node heartbeat failed: ${error.message}`)), NODE_HEARTBEAT_MS)
    this.timer.unref()
  }

  async stop() {
    clearInterval(this.timer)
    for (const agent of Object.values(this.agents)) agent.destroy()
    if (this.enabled) await removeRelayNode(this.node.id).catch(() => undefined)
  }

  /** The live peer node holding the agent's tunnel (looked up at most every PEER_CACHE_MS per agent). */
  async find(agentId: string): Promise<RelayPeer | null> {
    if (!this.enabled) return null
    const cached = this.cache.get(agentId)
    if (cached && Date.now() - cached.at < PEER_CACHE_MS) return cached.peer
    const peer = await findTunnelNode(agentId, this.node.id)
    if (this.cache.size > 10_000) this.cache.clear()
    this.cache.set(agentId, { peer, at: Date.now() })
    return peer
  }

  /** Whether a request carries the nodes' shared secret (constant-time comparison). */
  trusted(req: http.IncomingMessage) {
    const given = req.headers[INTERNAL_SECRET_HEADER]
    if (!this.secret || typeof given !== 'string') return false
    const buffer = Buffer.from(given)
    return buffer.length === this.secret.length && timingSafeEqual(buffer, this.secret)
  }

  private request(req: http.IncomingMessage, peer: RelayPeer, agentId: string, visit: Visit, upgrade: boolean) {
    const target = new URL(visit.path, peer.internalUrl)
    const headers: http.OutgoingHttpHeaders = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || isRelayOwnHeader(name) || (HOP_BY_HOP.has(name) && !(upgrade && name === 'upgrade'))) continue
      headers[name] = value
    }
    Object.assign(headers, { host: target.host, [INTERNAL_SECRET_HEADER]: this.node.secret!, [INTERNAL_AGENT_HEADER]: agentId, [INTERNAL_CLIENT_HEADER]: visit.client, [INTERNAL_HOST_HEADER]: visit.host })
    if (upgrade) headers.connection = 'Upgrade'
    const secure = target.protocol === 'https:'
    return (secure ? https : http).request(target, { method: req.method, headers, agent: upgrade ? false : secure ? this.agents.https : this.agents.http })
  }

  /** Sends a checked browser request to the peer holding the tunnel; `change` keeps the session's books here. */
  forward(req: http.IncomingMessage, res: http.ServerResponse, peer: RelayPeer, agentId: string, visit: Visit, change: (delta: 1 | -1) => void) {
    const upstream = this.request(req, peer, agentId, visit, false)
    change(1)
    let finished = false
    res.on('close', () => {
      if (!finished) change(-1)
      finished = true
      upstream.destroy()
    })
    upstream.on('response', (answer) => {
      const headers: http.OutgoingHttpHeaders = {}
      for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value
      res.writeHead(answer.statusCode ?? 502, headers)
      answer.pipe(res)
    })
    upstream.on('error', (error) => {
      this.cache.delete(agentId)
      this.log(`relay: node ${peer.nodeId} unreachable: ${error.message}`)
      if (!res.headersSent) {
        res.writeHead(502, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
        res.end('The relay node holding the agent tunnel did not answer.')
      } else res.destroy()
    })
    req.pipe(upstream)
  }

  /** A browser WebSocket whose agent tunnel a peer holds: the handshake goes to the peer, then bytes both ways. */
  forwardUpgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer, peer: RelayPeer, agentId: string, visit: Visit, change: (delta: 1 | -1) => void) {
    const upstream = this.request(req, peer, agentId, visit, true)
    upstream.on('upgrade', (answer, peerSocket, peerHead) => {
      const lines = ['HTTP/1.1 101 Switching Protocols']
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`)
      socket.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (peerHead.length) socket.write(peerHead)
      if (head.length) peerSocket.write(head)
      change(1)
      let open = true
      const close = () => {
        if (open) change(-1)
        open = false
        socket.destroy()
        peerSocket.destroy()
      }
      peerSocket.on('error', close).on('close', close)
      socket.on('error', close).on('close', close)
      peerSocket.pipe(socket)
      socket.pipe(peerSocket)
    })
    upstream.on('response', (answer) => {
      socket.end(`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
      answer.resume()
    })
    upstream.on('error', () => {
      this.cache.delete(agentId)
      socket.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    })
    upstream.end()
  }
}
