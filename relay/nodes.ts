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
import { type Socket } from 'node:net'
import { type Duplex } from 'node:stream'
import { closeDeadNodes, findTunnelNode, heartbeatRelayNode, NODE_EXPIRY_MS, NODE_HEARTBEAT_MS, removeRelayNode, type RelayPeer } from '../app/domain/relay/nodes.server'
import { HOP_BY_HOP } from './headers'

export const INTERNAL_SECRET_HEADER = 'x-pf-relay-secret'
export const INTERNAL_AGENT_HEADER = 'x-pf-relay-agent'
export const INTERNAL_CLIENT_HEADER = 'x-pf-relay-client'
export const INTERNAL_HOST_HEADER = 'x-pf-relay-host'
/** Where a peer's tunnel was looked up recently: a page load is dozens of requests. */
const PEER_CACHE_MS = 1000
/** How long a data connection that reached the wrong node waits for the holder's tunnel row. */
const DATA_PEER_WAIT_MS = 5000

/** Headers only relays speak among themselves (and the tunnel's own upgrade markers): never from a browser to an agent. */
export const isRelayOwnHeader = (name: string) => name.startsWith('x-pf-relay-') || name.startsWith('pf-')

export type RelayNodeSettings = { id: string; internalUrl: string; secret: string | null }

/** How often a node renews its heartbeat, and after how long without one a node counts as dead (tests shorten both). */
export type NodeTiming = { heartbeatMs: number; expiryMs: number }
const DEFAULT_TIMING: NodeTiming = { heartbeatMs: NODE_HEARTBEAT_MS, expiryMs: NODE_EXPIRY_MS }

/** The database side of the heartbeat (a seam: tests make its writes fail as in a database outage). */
export type NodeHeartbeat = (nodeId: string, internalUrl: string, now: Date) => Promise<'renewed' | 'registered'>

type Visit = { path: string; client: string; host: string }

export class PeerRouter {
  private readonly cache = new Map<string, { peer: RelayPeer | null; at: number }>()
  private readonly secret: Buffer | null
  private readonly agents = { http: new http.Agent({ keepAlive: true, noDelay: true }), https: new https.Agent({ keepAlive: true, noDelay: true }) }
  private timer?: NodeJS.Timeout
  private beating = false
  /** Since when this node's heartbeat writes have all succeeded in good time (null: the last one failed). */
  private healthySince: number | null = null
  /** A heartbeat failed since the tunnels were last asserted. */
  private recovering = false

  constructor(
    readonly node: RelayNodeSettings,
    private readonly log: (line: string) => void,
    private readonly timing: NodeTiming = DEFAULT_TIMING,
    private readonly writeHeartbeat: NodeHeartbeat = heartbeatRelayNode,
  ) {
    this.secret = node.secret ? Buffer.from(node.secret) : null
  }

  /** Cross-node routing is on when the nodes share a secret. */
  get enabled() {
    return this.secret !== null
  }

  /**
   * Registers the node and renews its heartbeat every heartbeatMs. `reassert` re-states the
   * tunnels this node holds (rows open, agents' tunnel state) and is called when the node finds it
   * was forgotten or its heartbeats failed (docs/decisions/031-relay-heartbeat-after-database-blip.md).
   */
  async start(reassert: () => Promise<number>) {
    if (!this.enabled) return
    await this.writeHeartbeat(this.node.id, this.node.internalUrl, new Date())
    this.healthySince = Date.now()
    this.timer = setInterval(() => void this.beat(reassert), this.timing.heartbeatMs)
    this.timer.unref()
  }

  /**
   * One heartbeat. Another node's tunnels are closed only when its heartbeat is older than the
   * expiry AND this node's own writes have all succeeded, each within a quarter of the expiry, for
   * longer than the expiry: after a database blip every node's heartbeat is stale, and the first
   * node back must not declare the others dead before they have had the same chance to write.
   */
  private async beat(reassert: () => Promise<number>) {
    // A write still running (a hung database) is neither success nor failure yet.
    if (this.beating) return
    this.beating = true
    const started = Date.now()
    try {
      const state = await this.writeHeartbeat(this.node.id, this.node.internalUrl, new Date(started))
      const ended = Date.now()
      // A write slower than a quarter of the expiry means a database in trouble: the streak restarts.
      if (this.healthySince === null || ended - started > this.timing.expiryMs / 4) this.healthySince = ended
      if (state === 'registered' || this.recovering) {
        this.recovering = false
        const restated = await reassert()
        this.log(`relay: node heartbeat written again${state === 'registered' ? ' (this node had been judged dead)' : ''}; ${restated} tunnel record${restated === 1 ? '' : 's'} re-asserted`)
      }
      if (ended - this.healthySince > this.timing.expiryMs) {
        const dead = await closeDeadNodes(ended, this.timing.expiryMs)
        if (dead.length) this.log(`relay: nodes ${dead.join(', ')} stopped sending heartbeats; their tunnels are closed`)
      }
    } catch (error) {
      if (this.healthySince !== null) this.log(`relay: node heartbeat failed (other nodes' tunnels are not judged until heartbeats succeed again for ${this.timing.expiryMs / 1000} s): ${(error as Error).message}`)
      this.healthySince = null
      this.recovering = true
    } finally {
      this.beating = false
    }
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
    const peer = await findTunnelNode(agentId, this.node.id, Date.now(), this.timing.expiryMs)
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

  /**
   * The live peer holding the agent's tunnel, for a data connection that reached this node: the
   * holder's tunnel row is written just after its 101, and the agent opens its data connections
   * right then, so a missing row is looked up again for a few seconds (uncached).
   */
  async findForData(agentId: string): Promise<RelayPeer | null> {
    if (!this.enabled) return null
    const deadline = Date.now() + DATA_PEER_WAIT_MS
    for (;;) {
      const peer = await findTunnelNode(agentId, this.node.id, Date.now(), this.timing.expiryMs)
      if (peer || Date.now() >= deadline) return peer
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }

  /**
   * An agent's data connection that a round-robin balancer sent here while a peer holds its
   * tunnel: the upgrade goes to the peer's internal address with the secret (the peer checks the
   * agent's credentials and tunnel id itself), then the two connections are spliced.
   */
  forwardData(req: http.IncomingMessage, socket: Duplex, head: Buffer, peer: RelayPeer, agentId: string, refuse: (status: number, text: string) => void) {
    const upstream = this.request(req, peer, agentId, { path: req.url ?? '/', client: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''), host: req.headers.host ?? '' }, true)
    const early = () => upstream.destroy()
    socket.once('close', early)
    upstream.on('upgrade', (answer, peerSocket: Duplex, peerHead: Buffer) => {
      socket.off('close', early)
      if (socket.destroyed) return void peerSocket.destroy()
      const lines = ['HTTP/1.1 101 Switching Protocols']
      for (let i = 0; i < answer.rawHeaders.length; i += 2) lines.push(`${answer.rawHeaders[i]}: ${answer.rawHeaders[i + 1]}`)
      socket.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (peerHead.length) socket.write(peerHead)
      if (head.length) peerSocket.write(head)
      const close = () => {
        socket.destroy()
        peerSocket.destroy()
      }
      ;(peerSocket as Socket).setNoDelay?.(true)
      ;(socket as Socket).setNoDelay?.(true)
      peerSocket.on('error', close).on('close', close)
      socket.on('error', close).on('close', close)
      peerSocket.pipe(socket)
      socket.pipe(peerSocket)
    })
    upstream.on('response', (answer) => {
      answer.resume()
      refuse(answer.statusCode ?? 502, answer.statusMessage ?? 'Bad Gateway')
    })
    upstream.on('error', (error) => {
      this.log(`relay: node ${peer.nodeId} unreachable for a data connection: ${error.message}`)
      refuse(502, 'Bad Gateway')
    })
    upstream.end()
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
