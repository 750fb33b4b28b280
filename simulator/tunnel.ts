import http from 'node:http'
import http2 from 'node:http2'
import https from 'node:https'
import { type Socket } from 'node:net'
import { pipeLoose } from '../relay/loose-pipe'
import { type SimulatedSite } from './site'
import { DATA_REQUEST_HEADER, DataConnections, FEATURES_HEADER, INITIAL_DATA_CONNECTIONS, TUNNEL_ID_HEADER } from './tunnel-data'
import { type AgentWebUi, startAgentWebUi } from './web-ui'

export type TunnelClientOptions = {
  /** the relay's base address from getTunnelConfig (http(s)://...) */
  relayUrl: string
  agentId: string
  secret: string
  /** the agent's local web UI on 127.0.0.1 */
  localPort: number
  /**
   * That UI's HTTP server when it runs in this process: data connections are handed to it, so a
   * download leaves the UI straight on the connection to the relay (no local connection to splice).
   */
  localServer?: http.Server
  /** first reconnect delay; doubles up to 30 s */
  retryMs?: number
  /** false: an agent that only knows the HTTP/2 tunnel (no data connections) */
  dataConnections?: boolean
}

/** Tunnel state reported with ping (spec 01 section 4): true connected, a string = unavailable with that message. */
export type TunnelState = true | string

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'http2-settings'])
const MAX_RETRY_MS = 30_000
const STREAM_WINDOW_BYTES = 1024 * 1024
const CONNECTION_WINDOW_BYTES = 16 * 1024 * 1024
/** The tunnel's upgrade token: after the relay's 101, HTTP/2 runs straight on the connection (relay/tunnel-accept.ts). */
const TUNNEL_PROTOCOL = 'pixelfleet-tunnel'
/** Marks a stream that carries a WebSocket handshake, and the agent's answer to it (relay/upgrade.ts). */
const UPGRADE_HEADER = 'pf-upgrade'
const UPGRADE_STATUS_HEADER = 'pf-upgrade-status'

/**
 * The agent's side of the remote portal: `GET /tunnel` on the relay with `Upgrade: pixelfleet-tunnel`
 * (Basic agentId:secret); after the 101 the agent runs an HTTP/2 server on that connection; each stream the relay opens is one browser request,
 * proxied to the local web UI. Reconnects with backoff until `close()`.
 */
export class TunnelClient {
  state: TunnelState = 'Connecting to the relay'
  private request?: http.ClientRequest
  private socket?: Socket
  // Generous receive windows for uploads through the tunnel (the relay sets its own for downloads).
  private readonly h2 = http2.createServer({ settings: { initialWindowSize: STREAM_WINDOW_BYTES } })
  /** Local requests reuse their connections (and never wait on Nagle). */
  private readonly local = new http.Agent({ keepAlive: true, noDelay: true, maxSockets: 64 })
  private retryMs: number
  private retryTimer?: NodeJS.Timeout
  private closed = false
  private opened?: { promise: Promise<void>; resolve: () => void }
  /** browser requests that came as HTTP/2 streams (the tunnel without data connections, or its fallback) */
  h2Requests = 0
  /** the current control tunnel's data connections (simulator/tunnel-data.ts) */
  data?: DataConnections

  constructor(private readonly options: TunnelClientOptions) {
    this.retryMs = options.retryMs ?? 1000
    this.h2.on('stream', (stream, headers) => {
      if (headers[DATA_REQUEST_HEADER] !== undefined && this.data) return this.moreData(stream, Number(headers[DATA_REQUEST_HEADER]))
      if (headers[UPGRADE_HEADER] === 'websocket') return this.proxyUpgrade(stream, headers)
      this.proxy(stream, headers)
    })
    this.h2.on('session', (session) => session.setLocalWindowSize(CONNECTION_WINDOW_BYTES))
    this.h2.on('sessionError', () => undefined)
  }

  get connected() {
    return this.state === true
  }

  /** Starts connecting; resolves once the tunnel is open (reconnects keep going in the background). */
  start(): Promise<void> {
    if (!this.opened) {
      let resolve!: () => void
      const promise = new Promise<void>((r) => (resolve = r))
      this.opened = { promise, resolve }
      this.connect()
    }
    return this.opened.promise
  }

  private connect() {
    if (this.closed) return
    const { relayUrl, agentId, secret, localPort } = this.options
    const url = new URL(`${relayUrl.replace(/\/+$/, '')}/tunnel?port=${localPort}`)
    const authorization = `Basic ${Buffer.from(`${agentId}:${secret}`).toString('base64')}`
    const headers = { Connection: 'Upgrade', Upgrade: TUNNEL_PROTOCOL, Authorization: authorization, ...(this.options.dataConnections === false ? {} : { [FEATURES_HEADER]: 'data' }) }
    const request = (url.protocol === 'https:' ? https : http).request(url, { headers, agent: false })
    this.request = request
    request.on('upgrade', (res, socket: Socket, head: Buffer) => {
      if (this.closed) return socket.destroy()
      const tunnelId = res.headers[TUNNEL_ID_HEADER]
      this.data?.close()
      this.data = typeof tunnelId === 'string' && this.options.dataConnections !== false ? new DataConnections({ relayUrl, authorization, localPort, localServer: this.options.localServer }, tunnelId) : undefined
      this.data?.open(INITIAL_DATA_CONNECTIONS)
      socket.setNoDelay(true)
      socket.setKeepAlive(true, 30_000)
      socket.on('error', () => undefined)
      // The relay's HTTP/2 preface may arrive together with its 101.
      if (head.length) socket.unshift(head)
      this.socket = socket
      this.state = true
      this.retryMs = this.options.retryMs ?? 1000
      this.h2.emit('connection', socket)
      this.opened?.resolve()
      socket.once('close', () => {
        this.data?.close()
        if (this.state === true) this.state = 'Tunnel closed by the relay'
        this.scheduleReconnect()
      })
    })
    request.on('response', (res) => {
      this.state = res.statusCode === 401 || res.statusCode === 403 ? 'The relay refused the agent credentials' : `The relay answered ${res.statusCode}`
      res.resume()
      this.scheduleReconnect()
    })
    request.on('error', (error) => {
      if (this.state === true || this.state === 'Connecting to the relay') this.state = `Relay unreachable: ${error.message}`
      this.scheduleReconnect()
    })
    request.end()
  }

  private scheduleReconnect() {
    if (this.closed) return
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs)
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS)
  }

  private localHeaders(headers: http2.IncomingHttpHeaders) {
    const forwarded: http.OutgoingHttpHeaders = { host: `127.0.0.1:${this.options.localPort}` }
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith(':') && !name.startsWith('pf-') && !HOP_BY_HOP.has(name) && value !== undefined) forwarded[name] = value
    }
    return forwarded
  }

  /**
   * A browser WebSocket arriving as an h2 stream marked `pf-upgrade: websocket`: the handshake is
   * replayed against the local UI; on its 101 the stream answers `pf-upgrade-status: 101` with the
   * handshake headers and then carries the socket's bytes both ways.
   */
  private proxyUpgrade(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) {
    this.h2Requests++
    const forwarded = { ...this.localHeaders(headers), connection: 'Upgrade', upgrade: 'websocket' }
    const local = http.request({ host: '127.0.0.1', port: this.options.localPort, method: 'GET', path: headers[':path'], headers: forwarded, agent: false })
    // The relay resets a stream whose browser left (CANCEL, REFUSED_STREAM): an error event no one else handles.
    stream.on('error', () => local.destroy())
    local.on('upgrade', (res, socket, head) => {
      if (stream.destroyed) return socket.destroy()
      const response: http2.OutgoingHttpHeaders = { ':status': 200, [UPGRADE_STATUS_HEADER]: '101' }
      for (const [name, value] of Object.entries(res.headers)) if (name.startsWith('sec-websocket-') && value !== undefined) response[name] = value
      stream.respond(response)
      if (head.length) stream.write(head)
      socket.setNoDelay(true)
      socket.pipe(stream)
      stream.pipe(socket)
      const close = () => {
        socket.destroy()
        if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_CANCEL)
      }
      socket.on('error', close).on('close', close)
      stream.on('error', close).on('close', close)
    })
    local.on('response', (res) => {
      if (stream.destroyed) return res.resume()
      stream.respond({ ':status': res.statusCode ?? 502 })
      res.pipe(stream)
    })
    local.on('error', () => {
      if (stream.destroyed) return
      if (!stream.headersSent) stream.respond({ ':status': 502 })
      stream.end()
    })
    local.end()
  }

  /** The relay asks for more data connections over the control tunnel. */
  private moreData(stream: http2.ServerHttp2Stream, count: number) {
    stream.on('error', () => undefined)
    stream.respond({ ':status': 204 }, { endStream: true })
    this.data?.open(count)
  }

  /** One browser request arriving as an h2 stream: replay it against the local web UI. */
  private proxy(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) {
    this.h2Requests++
    const forwarded = this.localHeaders(headers)
    let answered = false
    const local = http.request({ host: '127.0.0.1', port: this.options.localPort, method: headers[':method'], path: headers[':path'], headers: forwarded, agent: this.local }, (res) => {
      res.once('end', () => (answered = true))
      const response: http2.OutgoingHttpHeaders = { ':status': res.statusCode ?? 502 }
      for (const [name, value] of Object.entries(res.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) response[name] = value
      }
      if (stream.destroyed) return res.resume()
      stream.respond(response)
      pipeLoose(res, stream)
    })
    local.on('error', () => {
      if (stream.destroyed) return
      if (!stream.headersSent) stream.respond({ ':status': 502, 'content-type': 'text/plain; charset=utf-8' })
      stream.end('The agent web interface did not answer')
    })
    // Only a request the browser gave up on is cut; a finished one leaves its connection to the pool.
    stream.on('close', () => answered || local.destroy())
    // A reset from the relay (the browser left) is an error event on the stream: without a listener it would end the agent.
    stream.on('error', () => answered || local.destroy())
    stream.pipe(local)
  }

  async close() {
    this.closed = true
    clearTimeout(this.retryTimer)
    this.state = 'Remote connect stopped'
    this.request?.destroy()
    this.socket?.destroy()
    this.data?.close()
    this.h2.close()
    this.local.destroy()
  }
}

/**
 * Remote connect of one simulated agent: its local web UI plus the tunnel, on while the portal
 * says the tunnel is enabled (getTunnelConfig) and the agent's configuration does not switch
 * remote connect off. `state` is what the agent reports with ping.
 */
export class RemoteConnect {
  private webUi?: AgentWebUi
  private tunnel?: TunnelClient
  private switchedOff = false
  private pending: Promise<void> = Promise.resolve()

  constructor(private readonly site: SimulatedSite) {}

  /** false = switched off on the agent; otherwise the tunnel's state (true or why it is unavailable). */
  get state(): TunnelState | false {
    if (this.switchedOff || !this.tunnel) return false
    return this.tunnel.state
  }

  /** Applies the tunnel configuration (the tunnel then connects and reconnects in the background). */
  update(settings: { enabled: boolean; relayUrl: string; remoteConnect: boolean; agentId: string; secret: string }): Promise<void> {
    // Serialised: a config push and a getTunnelConfig answer may arrive together.
    this.pending = this.pending.catch(() => undefined).then(async () => {
      this.switchedOff = !settings.remoteConnect
      const wanted = settings.enabled && settings.remoteConnect
      if (!wanted) return this.shutdown()
      this.webUi ??= await startAgentWebUi(this.site, () => settings.agentId)
      if (this.tunnel) return
      this.tunnel = new TunnelClient({ relayUrl: settings.relayUrl, agentId: settings.agentId, secret: settings.secret, localPort: this.webUi.port, localServer: this.webUi.server })
      void this.tunnel.start()
    })
    return this.pending
  }

  /** Resolves once the tunnel is open (after `update` turned remote connect on). */
  async waitUntilOpen() {
    await this.pending
    if (!this.tunnel) throw new Error('Remote connect is off')
    await this.tunnel.start()
  }

  /** Closes the tunnel and the web UI (after any update in progress). */
  stop(): Promise<void> {
    this.pending = this.pending.catch(() => undefined).then(() => this.shutdown())
    return this.pending
  }

  private async shutdown() {
    await this.tunnel?.close()
    await this.webUi?.close()
    this.tunnel = undefined
    this.webUi = undefined
  }
}
