/**
 * Data connections (docs/decisions/013-relay-data-connections.md): besides its HTTP/2 control
 * tunnel, an agent that announced `Pf-Tunnel-Features: data` keeps a few idle connections
 * `GET /tunnel/data?tunnel={tunnelId}` (`Upgrade: pixelfleet-data`, the same Basic credentials, the
 * id the relay gave in the control tunnel's 101). After the 101 the agent splices each one, byte
 * for byte, to a fresh TCP connection to its local web UI, so the relay speaks plain HTTP/1.1
 * keep-alive to the UI over it: no HTTP/2 framing, flow control or per-stream bookkeeping on either
 * side, and a download is a socket-to-socket pipe. When the idle pool runs low the relay asks for
 * more over the control tunnel (an h2 stream marked `pf-data-connections: N`).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type http2 from 'node:http2'
import { type Socket } from 'node:net'
import { type Duplex } from 'node:stream'

/** The data connection's upgrade token. */
export const DATA_PROTOCOL = 'pixelfleet-data'
/** An agent's control upgrade lists `data` in this header when it can open data connections. */
export const FEATURES_HEADER = 'pf-tunnel-features'
/** The relay's 101 of a control tunnel names the tunnel its data connections must present. */
export const TUNNEL_ID_HEADER = 'pf-tunnel-id'
/** Marks the control stream asking the agent for N more data connections. */
export const DATA_REQUEST_HEADER = 'pf-data-connections'

/** Idle data connections below this many: ask for more. */
const LOW_WATER = 4
/** Asked for at least this many at once. */
const BATCH = 8
/** Data connections one tunnel may hold (idle and in use): an agent cannot pile up sockets on the relay, and a burst of browsers does not set up hundreds of connections at once (requests beyond take HTTP/2). */
export const MAX_DATA_CONNECTIONS = 64
/** A request waits this long for a data connection before it falls back to the HTTP/2 tunnel. */
const WAIT_MS = 3000
/** Idle keep-alive connections are let go after this long (an agent UI's own keep-alive timeout usually ends them first; Node honours its Keep-Alive hint). */
const IDLE_MS = 30_000

type Waiter = { callback: (error: Error | null, socket?: Duplex) => void; timer: NodeJS.Timeout }

/**
 * The data connections of one tunnel: fresh (never used) sockets, and an http.Agent that keeps
 * used ones alive between requests and takes a fresh one when it needs another connection.
 */
export class DataPool {
  readonly agent: http.Agent
  private readonly fresh: Socket[] = []
  private readonly waiters: Waiter[] = []
  private readonly all = new Set<Socket>()
  /** Connections asked for and not arrived yet; an ask lapses after WAIT_MS (the agent refused or failed). */
  private readonly asks: { remaining: number; timer: NodeJS.Timeout }[] = []
  private closed = false

  constructor(
    /** What data connections must present; handed to the agent in the control tunnel's 101 only. */
    readonly tunnelId: string,
    private readonly h2: () => http2.ClientHttp2Session,
    readonly localHost: string,
  ) {
    const take = (callback: Waiter['callback']) => this.take(callback)
    this.agent = new (class extends http.Agent {
      createConnection(_options: unknown, callback: (error: Error | null, socket?: Duplex) => void): Duplex | undefined {
        return take(callback)
      }
    })({ keepAlive: true, maxSockets: MAX_DATA_CONNECTIONS, maxFreeSockets: MAX_DATA_CONNECTIONS, timeout: IDLE_MS, scheduling: 'lifo' })
  }

  get size() {
    return this.all.size
  }

  /** Whether `id` is this tunnel's data id (constant time). */
  matches(id: string) {
    const given = Buffer.from(id)
    const own = Buffer.from(this.tunnelId)
    return given.length === own.length && timingSafeEqual(given, own)
  }

  /** A data connection the agent just opened (already answered 101): to a waiting request or the idle pool. */
  add(socket: Socket) {
    if (this.closed || this.all.size >= MAX_DATA_CONNECTIONS) return void socket.destroy()
    const ask = this.asks[0]
    if (ask && --ask.remaining <= 0) {
      clearTimeout(ask.timer)
      this.asks.shift()
    }
    this.all.add(socket)
    socket.once('close', () => {
      this.all.delete(socket)
      const index = this.fresh.indexOf(socket)
      if (index >= 0) this.fresh.splice(index, 1)
    })
    const waiter = this.waiters.shift()
    if (waiter) {
      clearTimeout(waiter.timer)
      waiter.callback(null, socket)
    } else this.fresh.push(socket)
  }

  /**
   * A data connection handed back between two answers (relay/data-forward.ts took it from the
   * http.Agent to carry a large body raw): idle again, for the next request like a fresh one.
   */
  release(socket: Socket) {
    if (this.closed || socket.destroyed || !this.all.has(socket)) return void socket.destroy()
    socket.setTimeout(0)
    const waiter = this.waiters.shift()
    if (waiter) {
      clearTimeout(waiter.timer)
      waiter.callback(null, socket)
    } else this.fresh.push(socket)
  }

  /**
   * A never-used data connection for a WebSocket handshake, or none (more are asked for). Never a
   * kept-alive one: the UI may be closing that one just then (its keep-alive timeout), and a
   * handshake on it fails; a fresh one reaches the UI only once the handshake's bytes arrive.
   */
  takeFresh(): Socket | undefined {
    if (this.closed) return undefined
    let socket = this.fresh.pop()
    while (socket?.destroyed) socket = this.fresh.pop()
    this.refill(socket ? 0 : 1)
    return socket
  }

  private take(callback: Waiter['callback']): Duplex | undefined {
    if (this.closed) {
      callback(new Error('The tunnel is closed'))
      return undefined
    }
    const socket = this.fresh.pop()
    this.refill()
    if (socket) return socket
    const waiter: Waiter = {
      callback,
      timer: setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1)
        callback(new Error('No data connection from the agent in time'))
      }, WAIT_MS),
    }
    this.waiters.push(waiter)
    this.refill()
    return undefined
  }

  private get asked() {
    let sum = 0
    for (const ask of this.asks) sum += ask.remaining
    return sum
  }

  /**
   * Whether a request can have a data connection now (an idle one). If not, more are asked for and
   * the request goes over the HTTP/2 tunnel meanwhile: no request waits for a connection to be set up.
   */
  ready() {
    const idle = this.fresh.length + Object.values(this.agent.freeSockets).reduce((sum, list) => sum + (list?.length ?? 0), 0)
    this.refill(idle > 0 ? 0 : 1)
    return idle > 0
  }

  /** Asks the agent for more data connections when the idle ones (plus those already asked for) run low. */
  private refill(missed = 0) {
    const short = LOW_WATER + this.waiters.length + missed - this.fresh.length - this.asked
    if (short <= 0) return
    const count = Math.min(Math.max(short, BATCH), MAX_DATA_CONNECTIONS - this.all.size - this.asked)
    const h2 = this.h2()
    if (count <= 0 || h2.destroyed || h2.closed) return
    try {
      const stream = h2.request({ ':method': 'POST', ':path': '/', [DATA_REQUEST_HEADER]: String(count) }, { endStream: true })
      stream.on('error', () => undefined)
      stream.on('response', () => stream.resume())
    } catch {
      return
    }
    const ask = {
      remaining: count,
      timer: setTimeout(() => {
        this.asks.splice(this.asks.indexOf(ask), 1)
        if (this.waiters.length) this.refill()
      }, WAIT_MS),
    }
    ask.timer.unref()
    this.asks.push(ask)
  }

  close() {
    this.closed = true
    for (const ask of this.asks.splice(0)) clearTimeout(ask.timer)
    for (const waiter of this.waiters.splice(0)) {
      clearTimeout(waiter.timer)
      waiter.callback(new Error('The tunnel is closed'))
    }
    this.agent.destroy()
    for (const socket of this.all) socket.destroy()
  }
}

/** A control tunnel's data id: 144 random bits. */
export const newDataId = () => randomBytes(18).toString('base64url')

/** The HTTP/1.1 request headers for the agent's UI from the h2-style ones the browser side builds (pseudo-headers out, Host the UI's). */
export function http1Headers(headers: http2.OutgoingHttpHeaders, localHost: string): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = { host: localHost }
  for (const name in headers) if (name[0] !== ':' && headers[name] !== undefined) out[name] = headers[name]
  return out
}
