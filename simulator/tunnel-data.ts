/**
 * The agent's data connections (docs/agent-protocol.md, "Data connections"): idle upgraded
 * connections to the relay. Once the relay sends its first request on one, it is handed to the
 * UI's own HTTP server when that runs in this process, or else spliced byte for byte to a fresh
 * TCP connection to the local web UI. Either way the relay speaks HTTP/1.1 (keep-alive, WebSocket
 * upgrades) straight to the UI.
 */
import http from 'node:http'
import https from 'node:https'
import net, { type Socket } from 'node:net'
import { LOOSE_BUFFER_BYTES, pipeLoose } from '../relay/loose-pipe'

export const DATA_PROTOCOL = 'pixelfleet-data'
export const FEATURES_HEADER = 'pf-tunnel-features'
export const TUNNEL_ID_HEADER = 'pf-tunnel-id'
export const DATA_REQUEST_HEADER = 'pf-data-connections'
/** Opened as soon as the control tunnel is up. */
export const INITIAL_DATA_CONNECTIONS = 8
/** Opened at most per request from the relay, and held at most at once. */
const MAX_PER_REQUEST = 64
const MAX_OPEN = 256

export type DataSettings = { relayUrl: string; authorization: string; localPort: number; localServer?: http.Server }

export class DataConnections {
  private readonly sockets = new Set<Socket>()
  private readonly pending = new Set<http.ClientRequest>()
  private closed = false

  constructor(
    private readonly settings: DataSettings,
    /** the id the relay gave this control tunnel (its 101's Pf-Tunnel-Id) */
    private readonly tunnelId: string,
  ) {}

  get size() {
    return this.sockets.size
  }

  /** Opens `count` more data connections (bounded). */
  open(count: number) {
    const n = Math.min(Math.max(0, Math.floor(count)), MAX_PER_REQUEST, MAX_OPEN - this.sockets.size - this.pending.size)
    for (let i = 0; i < n; i++) this.openOne()
  }

  private openOne() {
    if (this.closed) return
    const { relayUrl, authorization } = this.settings
    const url = new URL(`${relayUrl.replace(/\/+$/, '')}/tunnel/data?tunnel=${encodeURIComponent(this.tunnelId)}`)
    const request = (url.protocol === 'https:' ? https : http).request(url, { headers: { Connection: 'Upgrade', Upgrade: DATA_PROTOCOL, Authorization: authorization }, agent: false })
    this.pending.add(request)
    request.on('upgrade', (_res, socket: Socket, head: Buffer) => {
      this.pending.delete(request)
      if (this.closed) return socket.destroy()
      this.take(socket, head)
    })
    // Refused (the tunnel was replaced, credentials changed): the relay asks again over the control tunnel when it wants more.
    request.on('response', (res) => {
      this.pending.delete(request)
      res.resume()
    })
    request.on('error', () => this.pending.delete(request))
    request.end()
  }

  /** Waits for the relay's first bytes, then serves the connection (serve) or pipes it to a new local one, both ways. */
  private take(relay: Socket, head: Buffer) {
    relay.setNoDelay(true)
    relay.setKeepAlive(true, 30_000)
    this.sockets.add(relay)
    let local: Socket | undefined
    const close = () => {
      this.sockets.delete(relay)
      relay.destroy()
      local?.destroy()
    }
    relay.on('error', close).on('close', close)
    const start = (first: Buffer) => {
      const server = this.settings.localServer
      if (server?.listening) return serve(relay, first, server)
      // The UI's answers (the big direction) are read into large reused buffers (readInto), the relay's requests as usual.
      local = net.connect({ host: '127.0.0.1', port: this.settings.localPort, noDelay: true, onread: readInto(relay, () => local) })
      local.on('error', close).on('close', close)
      local.once('end', () => relay.end())
      local.write(first)
      pipeLoose(relay, local)
    }
    if (head.length) start(head)
    else relay.once('data', start)
  }

  close() {
    this.closed = true
    for (const request of this.pending) request.destroy()
    for (const socket of this.sockets) socket.destroy()
  }
}

/**
 * The connection as one more of the UI server's own: it parses the relay's requests and writes its
 * answers straight on it. Handed over only once a request arrives (an HTTP server answers a
 * connection silent for its headers timeout with a 408 the relay would read as the next answer);
 * the first bytes go back in front, and the server's data listener keeps the socket flowing, so
 * they are parsed before anything read after them.
 */
function serve(relay: Socket, first: Buffer, server: http.Server) {
  relay.unshift(first)
  server.emit('connection', relay)
}

/** One read from the local UI takes up to this much (Node's default read is 64 KiB, allocated anew per read). */
const READ_BYTES = 1024 * 1024

/**
 * `onread` for the local UI's socket: reads land in a reused 1 MiB buffer and are written to the
 * relay as they are. A buffer the relay's socket still holds (its write did not complete at once)
 * is not read into again until that write is done; the next read takes a spare one.
 */
function readInto(to: Socket, from: () => Socket | undefined): net.OnReadOpts {
  const spares: Buffer[] = []
  let current: Buffer = Buffer.allocUnsafe(READ_BYTES)
  let waiting = false
  return {
    buffer: () => current,
    callback: (bytes: number, buffer: Uint8Array) => {
      if (to.destroyed) return false
      const held = buffer as Buffer
      let queued = false
      to.write(held.subarray(0, bytes), () => {
        if (queued && spares.length < 2) spares.push(held)
      })
      if (to.writableLength > 0) {
        queued = true
        current = spares.pop() ?? Buffer.allocUnsafe(READ_BYTES)
      }
      if (!waiting && to.writableLength > LOOSE_BUFFER_BYTES) {
        waiting = true
        to.once('drain', () => {
          waiting = false
          from()?.resume()
        })
        return false
      }
      return true
    },
  }
}
