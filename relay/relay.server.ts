/**
 * The relay: its own port, and its own origin per proxy session, so an agent's web page can never
 * read or plant the portal's cookies nor reach another session (docs/security.md).
 *
 *   agent  ──GET /tunnel, Upgrade: pixelfleet-tunnel (Basic agentId:secret)──> relay
 *                                       after the 101, HTTP/2 runs on that connection (relay/tunnel-accept.ts)
 *   browser ──HTTP {hostLabel}.{RELAY_DOMAIN}/{path}──> relay ──h2 stream──> agent UI
 *
 * The relay is the HTTP/2 client of each tunnel and the agent the HTTP/2 server (it proxies each
 * stream to its local web UI), so every browser request is one standard h2 stream: multiplexing,
 * flow control and cancellation come from Node's http2 (docs/decisions/006-relay-http2-over-websocket.md).
 * The portal opens proxy sessions; the browser side (relay/browser.ts) binds each to the browser
 * that redeemed its one-time address and re-checks it while it is used (relay/session-tracker.ts).
 */
import http from 'node:http'
import os from 'node:os'
import { type AddressInfo } from 'node:net'
import { type Duplex } from 'node:stream'
import { WebSocketServer } from 'ws'
import { z } from 'zod'
import { resolveToken, userActor } from '../app/domain/auth/session.server'
import { DomainError } from '../app/domain/errors'
import { hostLabelOf, isPortalOrigin } from '../app/domain/relay/address.server'
import { closeProxySession, openProxySession } from '../app/domain/relay/sessions.server'
import { closeStaleTunnels, reassertTunnel, recordTunnelActivity, recordTunnelClosed, recordTunnelOpened } from '../app/domain/relay/tunnels.server'
import { getConfig } from '../app/utils/env.server'
import { listen } from '../server/listen'
import { handleBrowserRequest } from './browser'
import { clientAddress, sendJson, sendText, type BrowserSide, type TunnelLink } from './browser-side'
import { INTERNAL_SECRET_HEADER, PeerRouter, type NodeHeartbeat, type NodeTiming, type RelayNodeSettings } from './nodes'
import { SessionTracker, SWEEP_MS } from './session-tracker'
import { handleBrowserUpgrade, handleInternalUpgrade, refuseSocket } from './upgrade'
import { acceptDataConnection, acceptTunnel, refuseUpgrade, type Tunnel, type TunnelTransport } from './tunnel-accept'
import { choosePump, type PumpMode } from './native-pump'

export { NO_TUNNEL_MESSAGE, TUNNEL_LOST_MESSAGE } from './browser-side'

export type Relay = {
  server: http.Server
  port: number
  /** whether the agent has an open tunnel on this relay */
  hasTunnel: (agentId: string) => boolean
  /** how the agent's open tunnel is carried: HTTP/2 on the upgraded connection, or over WebSocket messages (older agents) */
  tunnelTransport: (agentId: string) => TunnelTransport | undefined
  /** the agent's open data connections (idle and in use); undefined = its tunnel has none (relay/data-connections.ts) */
  dataConnections: (agentId: string) => number | undefined
  /** open tunnels on this relay (metrics) */
  tunnelCount: () => number
  close: () => Promise<void>
}

export type RelayOptions = {
  port: number
  host: string
  log?: (line: string) => void
  /** this node among several (default: RELAY_NODE_ID, RELAY_INTERNAL_URL, RELAY_INTERNAL_SECRET; id host:port) */
  node?: Partial<RelayNodeSettings>
  /** heartbeat interval and expiry among nodes (default 5 s and 20 s; tests shorten them) */
  nodeTiming?: NodeTiming
  /** writes this node's heartbeat (default: the database; tests make it fail like a database outage) */
  nodeHeartbeat?: NodeHeartbeat
  /** default: RELAY_ANSWER_TIMEOUT_SECONDS */
  answerTimeoutMs?: number
  /** how raw download bodies are moved (default: RELAY_PUMP); the process's relays share one choice */
  pump?: PumpMode
}

/** Tunnels are pinged this often; one missing pong closes the tunnel. */
const HEARTBEAT_MS = 30_000
const MAX_LOGIN_BODY_BYTES = 16 * 1024
/** Activity bookkeeping (last seen, active connections, last path) is written at most this often per tunnel or session. */
const FLUSH_MS = 250

export async function startRelay(options: RelayOptions): Promise<Relay> {
  const log = options.log ?? (() => undefined)
  const books = new Bookkeeping(log)
  const tunnels = new TunnelRegistry(books)
  const sessions = new SessionTracker(books)
  const config = getConfig()
  const pump = choosePump(options.pump ?? config.RELAY_PUMP)
  if (pump.why) log(`relay: large downloads move in JavaScript: ${pump.why}`)
  // The node's id and address are known once the port is bound (port 0 in tests).
  let peers = new PeerRouter({ id: '', internalUrl: '', secret: null }, log)
  const side: BrowserSide = {
    sessions,
    tunnel: (agentId: string) => tunnels.get(agentId),
    activity: (tunnel: TunnelLink) => tunnels.activity(tunnel as Tunnel),
    get peers() {
      return peers
    },
    account: (rq: http.IncomingMessage, rs: http.ServerResponse, path: string) => handleAccount(rq, rs, path),
    answerTimeoutMs: options.answerTimeoutMs ?? config.RELAY_ANSWER_TIMEOUT_SECONDS * 1000,
  }
  const server = http.createServer({ noDelay: true }, (req, res) => {
    handleBrowserRequest(req, res, side).catch((error: Error) => {
      log(`relay: ${req.method} ${req.url} failed: ${error.message}`)
      if (!res.headersSent) sendText(res, 500, 'The relay could not handle this request.')
      else res.destroy()
    })
  })
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false })
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined)
    if (req.headers[INTERNAL_SECRET_HEADER] !== undefined) {
      // An agent's data connection another node forwarded here (it reached that node, this one holds the tunnel).
      if (req.url?.startsWith('/tunnel/data') && peers.trusted(req)) return void acceptLocalData(req, socket, head)
      return handleInternalUpgrade(req, socket, head, side)
    }
    if (hostLabelOf(req.headers.host)) {
      return void handleBrowserUpgrade(req, socket, head, side).catch((error: Error) => {
        log(`relay: WebSocket ${req.url} failed: ${error.message}`)
        refuseSocket(socket, 502)
      })
    }
    if (req.url?.startsWith('/tunnel/data')) {
      const elsewhere = async (agentId: string) => {
        const peer = await peers.findForData(agentId)
        if (peer) peers.forwardData(req, socket, head, peer, agentId, (status, text) => refuseUpgrade(socket, status, text))
        return peer !== null
      }
      return void acceptDataConnection(req, socket, head, (agentId) => tunnels.get(agentId), elsewhere).catch((error: Error) => {
        log(`relay: data connection failed: ${error.message}`)
        refuseUpgrade(socket, 500, 'Internal Server Error')
      })
    }
    acceptTunnel(req, socket, head, wss, (tunnel, remote) => tunnels.open(tunnel, remote)).catch((error: Error) => {
      log(`relay: tunnel upgrade failed: ${error.message}`)
      refuseUpgrade(socket, 500, 'Internal Server Error')
    })
  })
  const acceptLocalData = (req: http.IncomingMessage, socket: Duplex, head: Buffer) =>
    acceptDataConnection(req, socket, head, (agentId) => tunnels.get(agentId)).catch((error: Error) => {
      log(`relay: forwarded data connection failed: ${error.message}`)
      refuseUpgrade(socket, 500, 'Internal Server Error')
    })
  await listen(server, options.port, options.host, 'RELAY_PORT')
  const port = (server.address() as AddressInfo).port
  const nodeId = options.node?.id ?? config.RELAY_NODE_ID ?? `${os.hostname()}:${port}`
  const settings = { id: nodeId, internalUrl: options.node?.internalUrl ?? config.RELAY_INTERNAL_URL ?? `http://127.0.0.1:${port}`, secret: options.node?.secret ?? config.RELAY_INTERNAL_SECRET ?? null }
  peers = new PeerRouter(settings, log, options.nodeTiming, options.nodeHeartbeat)
  tunnels.relayNode = nodeId
  await closeStaleTunnels(tunnels.relayNode)
  await peers.start(() => tunnels.reassert())
  const heartbeat = setInterval(() => tunnels.heartbeat(), HEARTBEAT_MS)
  heartbeat.unref()
  let sweeping = false
  const sweep = setInterval(() => {
    if (sweeping) return
    sweeping = true
    sessions
      .sweep(log)
      .catch((error: Error) => log(`relay: session sweep failed: ${error.message}`))
      .finally(() => (sweeping = false))
  }, SWEEP_MS)
  sweep.unref()
  return {
    server,
    port,
    hasTunnel: (agentId) => tunnels.get(agentId) !== undefined,
    tunnelTransport: (agentId) => tunnels.get(agentId)?.transport,
    dataConnections: (agentId) => tunnels.get(agentId)?.data?.size,
    tunnelCount: () => tunnels.size,
    close: async () => {
      clearInterval(heartbeat)
      clearInterval(sweep)
      await sessions.flushAll()
      await peers.stop()
      await tunnels.closeAll()
      wss.close()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

// ------------------------------------------------------------------------------ tunnels

/**
 * The relay's database bookkeeping, off the request path: writes per key run in order, and the
 * frequent ones (activity) are coalesced to one write per key every FLUSH_MS with the latest values.
 */
class Bookkeeping {
  private readonly chains = new Map<string, Promise<unknown>>()
  private readonly scheduled = new Map<string, { timer: NodeJS.Timeout; write: () => Promise<unknown> }>()

  constructor(private readonly log: (line: string) => void) {}

  /** Runs `write` after the key's earlier writes (an open before its close). */
  now(key: string, write: () => Promise<unknown>) {
    const entry = this.scheduled.get(key)
    if (entry) {
      clearTimeout(entry.timer)
      this.scheduled.delete(key)
      this.chain(key, entry.write)
    }
    return this.chain(key, write)
  }

  /** Runs the latest `write` given for the key within the next FLUSH_MS. */
  soon(key: string, write: () => Promise<unknown>) {
    const entry = this.scheduled.get(key)
    if (entry) {
      entry.write = write
      return
    }
    const created = {
      write,
      timer: setTimeout(() => {
        this.scheduled.delete(key)
        this.chain(key, created.write)
      }, FLUSH_MS),
    }
    this.scheduled.set(key, created)
  }

  private chain(key: string, write: () => Promise<unknown>) {
    const next = (this.chains.get(key) ?? Promise.resolve()).then(write).catch((error: Error) => this.log(`relay: bookkeeping of ${key} failed: ${error.message}`))
    this.chains.set(key, next)
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key)
    })
    return next
  }

  /** Runs every scheduled write now and waits for all of them. */
  async drain() {
    for (const [key, entry] of [...this.scheduled]) {
      clearTimeout(entry.timer)
      this.scheduled.delete(key)
      this.chain(key, entry.write)
    }
    await Promise.all([...this.chains.values()])
  }
}

class TunnelRegistry {
  relayNode = ''
  private readonly byAgent = new Map<string, Tunnel>()
  private readonly remotes = new WeakMap<Tunnel, { address: string; port: number }>()

  constructor(private readonly books: Bookkeeping) {}

  get(agentId: string) {
    return this.byAgent.get(agentId)
  }

  get size() {
    return this.byAgent.size
  }

  open(tunnel: Tunnel, remote: { address: string; port: number }) {
    this.remotes.set(tunnel, remote)
    const previous = this.byAgent.get(tunnel.agentId)
    this.byAgent.set(tunnel.agentId, tunnel)
    previous?.close()
    // Keyed by agent, so a quick reconnect's open is never overtaken by the old tunnel's close.
    const key = `tunnel:${tunnel.agentId}`
    this.books.now(key, async () => {
      tunnel.rowId = await recordTunnelOpened(tunnel.agentId, { ...remote, relayNode: this.relayNode, forwards: tunnel.forwards })
    })
    let closed = false
    const onClose = () => {
      if (closed) return
      closed = true
      tunnel.close()
      const current = this.byAgent.get(tunnel.agentId) === tunnel
      if (current) this.byAgent.delete(tunnel.agentId)
      this.books.now(key, async () => {
        if (tunnel.rowId) await recordTunnelClosed(tunnel.rowId, tunnel.agentId, { replaced: !current })
      })
    }
    tunnel.onClose(onClose)
  }

  /** A proxied request started or ended on the tunnel: forwards and last seen follow. */
  activity(tunnel: Tunnel) {
    this.books.soon(`tunnel:${tunnel.agentId}`, async () => {
      if (tunnel.rowId && this.byAgent.get(tunnel.agentId) === tunnel) await recordTunnelActivity(tunnel.rowId, tunnel.forwards)
    })
  }

  /**
   * Says again, for every open tunnel, that this node holds it: a row another node closed while this
   * node's heartbeats failed is reopened, a row whose first write failed is written, and the agent's
   * tunnel state is 'true' again. In each tunnel's write order, so a close queued meanwhile comes after.
   */
  async reassert() {
    let restated = 0
    await Promise.all(
      [...this.byAgent.values()].map((tunnel) =>
        this.books.now(`tunnel:${tunnel.agentId}`, async () => {
          if (this.byAgent.get(tunnel.agentId) !== tunnel || tunnel.h2.destroyed) return
          if (tunnel.rowId) {
            if (await reassertTunnel(tunnel.rowId, tunnel.agentId)) restated++
            return
          }
          tunnel.rowId = await recordTunnelOpened(tunnel.agentId, { ...this.remotes.get(tunnel)!, relayNode: this.relayNode, forwards: tunnel.forwards })
          restated++
        }),
      ),
    )
    return restated
  }

  heartbeat() {
    for (const tunnel of this.byAgent.values()) {
      if (!tunnel.alive) {
        tunnel.close()
        continue
      }
      tunnel.ping()
      this.activity(tunnel)
    }
  }

  async closeAll() {
    for (const tunnel of this.byAgent.values()) tunnel.close()
    // Let the close handlers queue their writes, then wait for every write.
    await new Promise((resolve) => setImmediate(resolve))
    await this.books.drain()
  }
}

// --------------------------------------------------------------------------- /login, /logout

const loginSchema = z.object({ agentId: z.string().min(1).max(64), projectId: z.string().min(1).max(64).nullish(), organizationId: z.string().min(1).max(64).optional() })
const logoutSchema = z.object({ authCheck: z.string().min(1).max(200) })

/**
 * POST /login and /logout on the relay's base host, for scripts and API clients with a bearer
 * token (the portal page opens its sessions itself). /login answers the session's one-time
 * address; following it once binds the session to that client's cookie jar. Browsers may call
 * only from the portal's origin (CORS with credentials).
 */
async function handleAccount(req: http.IncomingMessage, res: http.ServerResponse, path: string) {
  const origin = req.headers.origin
  if (origin) {
    if (!isPortalOrigin(origin, req.headers.host)) return sendJson(res, 403, { code: 'cors', message: 'Cross-site request refused' })
    res.setHeader('Access-Control-Allow-Origin', origin)
    res.setHeader('Access-Control-Allow-Credentials', 'true')
    res.setHeader('Vary', 'Origin')
  }
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'content-type, authorization', 'Access-Control-Max-Age': '600' })
    return res.end()
  }
  if (req.method !== 'POST') return sendJson(res, 405, { code: 'method-not-allowed', message: 'Use POST with a JSON body' })
  const body = await readJson(req)
  if (body === undefined) return sendJson(res, 400, { code: 'invalid-argument', message: 'The request body is not valid JSON' })

  // Bearer only: a portal cookie reaching this host (same host name in development) is ignored.
  const bearer = req.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1] ?? null
  const identity = await resolveToken(bearer)
  if (identity.status === 'disabled') return sendJson(res, 403, { code: 'mvr-auth/disabled', message: 'Account was administratively disabled' })
  if (identity.status !== 'ok' || !bearer) return sendJson(res, 401, { code: 'mvr-auth/notloggedin', message: 'Not logged in' })
  const client = { ip: clientAddress(req), userAgent: req.headers['user-agent'] ?? '' }
  const actor = userActor(identity.user, client, identity.grant)
  try {
    if (path === '/logout') {
      const input = logoutSchema.safeParse(body)
      if (!input.success) return sendJson(res, 400, { code: 'invalid-argument', message: 'authCheck is required' })
      await closeProxySession(actor, { authCheck: input.data.authCheck })
      return sendJson(res, 200, { data: { ok: true } })
    }
    const input = loginSchema.safeParse(body)
    if (!input.success) return sendJson(res, 400, { code: 'invalid-argument', message: 'agentId is required' })
    const session = await openProxySession(actor, input.data, client, bearer)
    return sendJson(res, 200, {
      data: { authCheck: session.authCheck, origin: session.origin, address: session.address, product: session.product, agentId: session.agentId, projectId: session.projectId, expiresAt: session.expiresAt.toISOString() },
    })
  } catch (error) {
    if (error instanceof DomainError) return sendJson(res, error.status, { code: error.code, message: error.message })
    throw error
  }
}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_LOGIN_BODY_BYTES) {
        resolve(undefined)
        req.destroy()
      } else chunks.push(chunk)
    })
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8').trim()
      try {
        resolve(text ? JSON.parse(text) : {})
      } catch {
        resolve(undefined)
      }
    })
    req.on('error', () => resolve(undefined))
  })
}
