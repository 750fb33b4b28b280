/**
 * An agent's tunnel arriving at the relay's base host: `GET /tunnel?port={localUiPort}` with HTTP
 * Basic `agentId:secret` and one of two upgrades (docs/agent-protocol.md, "Remote portal tunnel"):
 *
 * - `Upgrade: pixelfleet-tunnel` (current agents): the relay answers 101 and HTTP/2 runs directly
 *   on the TCP (or TLS) connection. Node's http2 then reads and writes the socket natively.
 * - `Upgrade: websocket` (agents before 2026-11): HTTP/2 runs over the WebSocket's messages
 *   (relay/tunnel-stream.ts). Still accepted, but every byte then passes through JavaScript framing
 *   and Node's JS stream adapter, several times slower (docs/benchmarks.md, "Relay").
 */
import type http from 'node:http'
import http2 from 'node:http2'
import net, { type Socket } from 'node:net'
import { type Duplex } from 'node:stream'
import { type WebSocketServer } from 'ws'
import { authenticateAgent } from '../ingest/agent-gateway.server'
import { hostLabelOf } from '../app/domain/relay/address.server'
import { clientAddress } from './browser-side'
import { DATA_PROTOCOL, DataPool, MAX_DATA_CONNECTIONS, newDataId, FEATURES_HEADER, TUNNEL_ID_HEADER } from './data-connections'
import { tunnelStream } from './tunnel-stream'
import { withOwnReads } from './data-reads'

/** The upgrade token of the raw tunnel (HTTP/2 straight on the connection after the 101). */
export const TUNNEL_PROTOCOL = 'pixelfleet-tunnel'
/** The agent's local web UI port when the tunnel URL names none (`/tunnel?port=8080`). */
const DEFAULT_FORWARD_PORT = 80
const STREAM_WINDOW_BYTES = 1024 * 1024
const CONNECTION_WINDOW_BYTES = 16 * 1024 * 1024
/** The agent may send DATA frames this large (default 16 KiB): a small page is one frame, a download 16x fewer. */
const MAX_FRAME_BYTES = 256 * 1024

export type TunnelTransport = 'raw' | 'websocket'

/** One agent's tunnel: the relay is the HTTP/2 client, the agent the server. */
export class Tunnel {
  rowId: string | null = null
  active = 0
  alive = true
  readonly h2: http2.ClientHttp2Session
  /** The agent's data connections (docs/decisions/013-relay-data-connections.md); none for agents that did not announce them. */
  readonly data?: DataPool

  constructor(
    readonly agentId: string,
    private readonly stream: Duplex,
    readonly forwardPort: number,
    readonly transport: TunnelTransport,
    dataId?: string,
  ) {
    stream.on('error', () => undefined)
    // The agent hung up (FIN): the tunnel is over even while HTTP/2 still counts open streams (the
    // upgraded socket is half-open capable, so nothing else would close our side).
    stream.once('end', () => this.close())
    // The authority is only a label. Generous receive windows: with the defaults (64 KiB per connection) a few parallel pages stall on WINDOW_UPDATE round trips.
    this.h2 = http2.connect('http://agent.tunnel', { createConnection: () => stream as Socket, settings: { initialWindowSize: STREAM_WINDOW_BYTES, maxFrameSize: MAX_FRAME_BYTES } })
    this.h2.on('connect', () => this.h2.setLocalWindowSize(CONNECTION_WINDOW_BYTES))
    this.h2.on('error', () => undefined)
    if (dataId) this.data = new DataPool(dataId, () => this.h2, `127.0.0.1:${forwardPort}`)
  }

  get forwards() {
    return { [String(this.forwardPort)]: { connectionsActive: this.active } }
  }

  /** HTTP/2 PING on either transport; no answer before the next heartbeat closes the tunnel. */
  ping() {
    this.alive = false
    if (this.h2.destroyed || !this.h2.ping((error) => error || (this.alive = true))) this.close()
  }

  /** Calls `listener` once the tunnel is gone (either layer). */
  onClose(listener: () => void) {
    this.stream.once('close', listener)
    this.h2.once('close', listener)
  }

  close() {
    this.data?.close()
    this.h2.destroy()
    this.stream.destroy()
  }
}

/**
 * Judges a tunnel upgrade and, when the agent's credentials hold, hands the open tunnel to `open`.
 * Refusals are plain HTTP answers (an agent shows them as its tunnel state).
 */
export async function acceptTunnel(req: http.IncomingMessage, socket: Duplex, head: Buffer, wss: WebSocketServer, open: (tunnel: Tunnel, remote: { address: string; port: number }) => void) {
  const url = new URL(req.url ?? '/', 'http://relay')
  // Session origins carry agent content only; tunnels come in on the relay's base host.
  if (url.pathname !== '/tunnel' || hostLabelOf(req.headers.host)) return refuseUpgrade(socket, 404, 'Not Found')
  const upgrade = String(req.headers.upgrade ?? '').toLowerCase()
  const transport: TunnelTransport | null = upgrade === TUNNEL_PROTOCOL ? 'raw' : upgrade === 'websocket' ? 'websocket' : null
  if (!transport) return refuseUpgrade(socket, 400, 'Bad Request')
  const credentials = parseBasicAuth(req.headers.authorization)
  if (!credentials) return refuseUpgrade(socket, 401, 'Unauthorized')
  const auth = await authenticateAgent(credentials.user, credentials.password)
  if (!auth.ok) return refuseUpgrade(socket, auth.reason === 'disabled' ? 403 : 401, auth.reason === 'disabled' ? 'Forbidden' : 'Unauthorized')
  const forwardPort = Number(url.searchParams.get('port') ?? DEFAULT_FORWARD_PORT)
  if (!Number.isInteger(forwardPort) || forwardPort < 1 || forwardPort > 65535) return refuseUpgrade(socket, 400, 'Bad Request')
  const remote = { address: clientAddress(req), port: req.socket.remotePort ?? 0 }
  if (transport === 'websocket') {
    return wss.handleUpgrade(req, socket, head, (ws) => open(new Tunnel(credentials.user, tunnelStream(ws), forwardPort, 'websocket'), remote))
  }
  if (!socket.writable) return socket.destroy()
  const withData = String(req.headers[FEATURES_HEADER] ?? '').split(',').some((f) => f.trim() === 'data')
  const dataId = withData ? newDataId() : undefined
  const idLine = dataId ? `${TUNNEL_ID_HEADER}: ${dataId}\r\n` : ''
  // The relay speaks first after the 101 (the HTTP/2 client preface), so nothing of the agent's is buffered in `head` but its own early bytes.
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${TUNNEL_PROTOCOL}\r\nConnection: Upgrade\r\n${idLine}\r\n`)
  const tcp = socket as Socket
  tcp.setNoDelay?.(true)
  tcp.setKeepAlive?.(true, 30_000)
  if (head.length) socket.unshift(head)
  open(new Tunnel(credentials.user, socket, forwardPort, 'raw', dataId), remote)
}

/**
 * A data connection `GET /tunnel/data?tunnel={id}` (`Upgrade: pixelfleet-data`): the agent's own
 * credentials, and the id its current control tunnel got, so a connection joins exactly that
 * agent's tunnel. Refused with a plain HTTP answer otherwise.
 */
export async function acceptDataConnection(
  req: http.IncomingMessage,
  socket: Duplex,
  head: Buffer,
  find: (agentId: string) => Tunnel | undefined,
  /** hands the connection to the node holding the agent's tunnel when this one holds none (true: handed) */
  elsewhere?: (agentId: string) => Promise<boolean>,
) {
  if (String(req.headers.upgrade ?? '').toLowerCase() !== DATA_PROTOCOL) return refuseUpgrade(socket, 400, 'Bad Request')
  const credentials = parseBasicAuth(req.headers.authorization)
  if (!credentials) return refuseUpgrade(socket, 401, 'Unauthorized')
  const auth = await authenticateAgent(credentials.user, credentials.password)
  if (!auth.ok) return refuseUpgrade(socket, auth.reason === 'disabled' ? 403 : 401, auth.reason === 'disabled' ? 'Forbidden' : 'Unauthorized')
  const tunnel = find(credentials.user)
  // A balancer may send data connections to any node: the one holding the tunnel gets them.
  if (!tunnel && elsewhere && (await elsewhere(credentials.user))) return
  const pool = tunnel?.data
  const id = new URL(req.url ?? '/', 'http://relay').searchParams.get('tunnel') ?? ''
  // No open tunnel of this agent with that id (closed, replaced, or another agent's): nothing to join.
  if (!pool || !pool.matches(id)) return refuseUpgrade(socket, 409, 'Conflict')
  if (pool.size >= MAX_DATA_CONNECTIONS) return refuseUpgrade(socket, 503, 'Service Unavailable')
  if (!socket.writable) return socket.destroy()
  // Moved to a socket reading into reused buffers (relay/data-reads.ts) before anything is written or read.
  const tcp = socket instanceof net.Socket ? withOwnReads(socket) : (socket as Socket)
  // An idle connection's failure ends in 'close', which the pool handles (as the upgraded socket's no-op listener did).
  tcp.on('error', () => undefined)
  // Not half-open (an upgraded socket is, and so is one that could not be moved): a connection the
  // agent closed while idle would otherwise stay in the pool writable, and a request written to it
  // would wait for an answer forever.
  tcp.allowHalfOpen = false
  tcp.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${DATA_PROTOCOL}\r\nConnection: Upgrade\r\n\r\n`)
  tcp.setNoDelay?.(true)
  tcp.setKeepAlive?.(true, 30_000)
  if (head.length) tcp.unshift(head)
  pool.add(tcp)
}

export function refuseUpgrade(socket: Duplex, status: number, text: string) {
  if (socket.writable) socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  else socket.destroy()
}

function parseBasicAuth(header: string | undefined) {
  const encoded = header?.match(/^Basic\s+(.+)$/i)?.[1]
  if (!encoded) return null
  const text = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  return colon > 0 ? { user: text.slice(0, colon), password: text.slice(colon + 1) } : null
}
