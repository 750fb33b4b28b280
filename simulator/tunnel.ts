import http from 'node:http'
import http2 from 'node:http2'
import { WebSocket, createWebSocketStream } from 'ws'
import { type SimulatedSite } from './site'
import { type AgentWebUi, startAgentWebUi } from './web-ui'

export type TunnelClientOptions = {
  /** the relay's base address from getTunnelConfig (http(s)://...) */
  relayUrl: string
  agentId: string
  secret: string
  /** the agent's local web UI on 127.0.0.1 */
  localPort: number
  /** first reconnect delay; doubles up to 30 s */
  retryMs?: number
}

/** Tunnel state reported with ping (spec 01 section 4): true connected, a string = unavailable with that message. */
export type TunnelState = true | string

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'http2-settings'])
const MAX_RETRY_MS = 30_000

/**
 * The agent's side of the remote portal: a WebSocket to the relay's /tunnel (Basic agentId:secret)
 * over which the agent runs an HTTP/2 server; each stream the relay opens is one browser request,
 * proxied to the local web UI. Reconnects with backoff until `close()`.
 */
export class TunnelClient {
  state: TunnelState = 'Connecting to the relay'
  private ws?: WebSocket
  private readonly h2 = http2.createServer()
  private retryMs: number
  private retryTimer?: NodeJS.Timeout
  private closed = false
  private opened?: { promise: Promise<void>; resolve: () => void }

  constructor(private readonly options: TunnelClientOptions) {
    this.retryMs = options.retryMs ?? 1000
    this.h2.on('stream', (stream, headers) => this.proxy(stream, headers))
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
    const url = `${relayUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/tunnel?port=${localPort}`
    const ws = new WebSocket(url, { headers: { Authorization: `Basic ${Buffer.from(`${agentId}:${secret}`).toString('base64')}` }, perMessageDeflate: false })
    this.ws = ws
    // The stream must exist before the relay's first bytes arrive (its HTTP/2 preface follows the upgrade at once).
    const stream = createWebSocketStream(ws)
    stream.on('error', () => undefined)
    ws.once('open', () => {
      this.state = true
      this.retryMs = this.options.retryMs ?? 1000
      this.h2.emit('connection', stream)
      this.opened?.resolve()
    })
    ws.once('unexpected-response', (_req, res) => {
      this.state = res.statusCode === 401 || res.statusCode === 403 ? 'The relay refused the agent credentials' : `The relay answered ${res.statusCode}`
      res.resume()
      ws.terminate()
    })
    ws.on('error', (error) => {
      if (this.state === true || this.state === 'Connecting to the relay') this.state = `Relay unreachable: ${error.message}`
    })
    ws.once('close', () => {
      stream.destroy()
      if (this.state === true) this.state = 'Tunnel closed by the relay'
      this.scheduleReconnect()
    })
  }

  private scheduleReconnect() {
    if (this.closed) return
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs)
    this.retryMs = Math.min(this.retryMs * 2, MAX_RETRY_MS)
  }

  /** One browser request arriving as an h2 stream: replay it against the local web UI. */
  private proxy(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) {
    const forwarded: http.OutgoingHttpHeaders = { host: `127.0.0.1:${this.options.localPort}` }
    for (const [name, value] of Object.entries(headers)) {
      if (!name.startsWith(':') && !HOP_BY_HOP.has(name) && value !== undefined) forwarded[name] = value
    }
    const local = http.request({ host: '127.0.0.1', port: this.options.localPort, method: headers[':method'], path: headers[':path'], headers: forwarded }, (res) => {
      const response: http2.OutgoingHttpHeaders = { ':status': res.statusCode ?? 502 }
      for (const [name, value] of Object.entries(res.headers)) {
        if (!HOP_BY_HOP.has(name) && value !== undefined) response[name] = value
      }
      if (stream.destroyed) return res.resume()
      stream.respond(response)
      res.pipe(stream)
    })
    local.on('error', () => {
      if (stream.destroyed) return
      if (!stream.headersSent) stream.respond({ ':status': 502, 'content-type': 'text/plain; charset=utf-8' })
      stream.end('The agent web interface did not answer')
    })
    stream.on('close', () => local.destroy())
    stream.pipe(local)
  }

  async close() {
    this.closed = true
    clearTimeout(this.retryTimer)
    this.state = 'Remote connect stopped'
    this.ws?.terminate()
    this.h2.close()
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
      this.tunnel = new TunnelClient({ relayUrl: settings.relayUrl, agentId: settings.agentId, secret: settings.secret, localPort: this.webUi.port })
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
