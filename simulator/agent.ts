import { EventEmitter } from 'node:events'
import { type MqttClient } from 'mqtt'
import { z } from 'zod'
import {
  type AgentCall,
  type AgentCallRequest,
  type AgentCallResult,
  type ClientConfigResult,
  PROVISIONING_USERNAME,
  agentCallSchemas,
  agentConfigTopic,
  agentRequestTopic,
  agentStatusTopic,
  agentTopicPrefix,
  clientConfigResultSchema,
  provisionRequestTopic,
  provisionResponseTopic,
  registerResultSchema,
} from '../protocol'
import { type AgentCredentials, type CredentialStore } from './credentials'
import { MqttRpc, isBadCredentials, isConnackRefusal, openConnection, reconnectAfterRefusals, refusalBackoffMs } from './mqtt-rpc'
import { DEFAULT_PUBACK_TIMEOUT_MS, watchPubacks } from './puback-watchdog'
import { toSystemReports } from './report'
import { type SimulatedSite } from './site'
import { RemoteConnect } from './tunnel'

export type VirtualAgentOptions = {
  /** mqtt://host:port or ws://host:port/mqtt */
  url: string
  site: SimulatedSite
  provisioningKey: string
  credentials: CredentialStore
  /** how often the agent ticks its devices and sends updateClientState */
  reportIntervalMs: number
  /** how often it pings (TCP metrics); defaults to the report interval within 1 to 5 minutes */
  pingIntervalMs?: number
  requestTimeoutMs?: number
  connectTimeoutMs?: number
  /** a QoS 1 publish without PUBACK this long drops the connection, so mqtt.js resends it (default 30 s; 0: never) */
  pubackTimeoutMs?: number
}

/** Keys of the portal-held configuration this agent obeys (setClientConfig, or pushed on the config topic). */
export const obeyedConfigSchema = z.object({
  /** overrides the report interval, 1 s to 1 h */
  reportIntervalSeconds: z.number().min(1).max(3600).optional(),
  /** remote connect switched on (true) or off (false) on the agent side */
  remoteConnect: z.boolean().optional(),
})

type AgentEvents = {
  /** configuration received (pushed on the retained topic or answered by getClientConfig) */
  config: [ClientConfigResult]
  /** a state report was committed by the portal */
  report: [AgentCallResult<'updateClientState'>]
  /** something failed in the background (a report, a ping); the agent carries on */
  problem: [Error]
}

/**
 * One simulated agent speaking the real protocol (docs/agent-protocol.md) over its own MQTT
 * connection: register with the provisioning key (once; credentials persist), reconnect with its
 * own id and secret and a Last Will, then ping and report its site's state on a timer.
 */
export class VirtualAgent extends EventEmitter<AgentEvents> {
  readonly site: SimulatedSite
  agentId?: string
  config?: ClientConfigResult
  /** where the relay is, asked for once the agent is enrolled */
  tunnelConfig?: AgentCallResult<'getTunnelConfig'>
  reports = 0
  /** the local web UI and the relay tunnel (remote portal) */
  readonly remote: RemoteConnect
  private secret?: string
  private client?: MqttClient
  private rpc?: MqttRpc
  private pubackWatch?: ReturnType<typeof watchPubacks>
  private timers: NodeJS.Timeout[] = []
  private reportIntervalMs: number
  private stopped = false

  constructor(private readonly options: VirtualAgentOptions) {
    super()
    this.site = options.site
    this.remote = new RemoteConnect(options.site)
    this.reportIntervalMs = options.reportIntervalMs
  }

  get enrolled() {
    return this.config?.enrolled ?? false
  }

  get connected() {
    return this.client?.connected ?? false
  }

  /** Registers if needed, connects, and sends a first ping and state report. */
  async connect(): Promise<void> {
    const { credentials: store } = this.options
    let credentials = await store.load(this.site.serial)
    if (!credentials) credentials = await this.register()
    const started = Date.now()
    for (let attempt = 1; ; attempt++) {
      try {
        await this.open(credentials)
        break
      } catch (error) {
        // A disabled agent is refused as 'not authorized' and stays refused.
        if (!isBadCredentials(error)) throw error
        // Saved credentials from another portal or a reset database: register as a new agent. But
        // a broker whose auth backend is unreachable refuses every identity the same way: when the
        // provisioning key is refused too, the portal is unavailable, not our credentials wrong;
        // try again with backoff (docs/agent-protocol.md, "Connection refusals").
        if (await this.provisioningAccepted()) {
          await store.forget(this.site.serial)
          credentials = await this.register()
          continue
        }
        if (Date.now() - started > this.connectTimeout) throw error
        this.emit('problem', new Error(`${(error as Error).message}: the portal looks unavailable (the provisioning key is refused too); trying again`))
        await new Promise((resolve) => setTimeout(resolve, refusalBackoffMs(attempt)))
      }
    }
    await this.refreshConfig()
    await this.ping()
    await this.report()
  }

  /** Starts the periodic pings and reports (after `connect`). */
  run() {
    this.schedule()
  }

  /** Whether the broker accepts the provisioning identity now (false: refused, i.e. the auth backend is unavailable). */
  private async provisioningAccepted(): Promise<boolean> {
    const { url, provisioningKey } = this.options
    try {
      const client = await openConnection(url, { clientId: `prov-${this.site.serial}`, username: PROVISIONING_USERNAME, password: provisioningKey }, this.connectTimeout)
      await client.endAsync()
      return true
    } catch (error) {
      if (isConnackRefusal(error)) return false
      throw error
    }
  }

  /** register: a new agent id and secret from the provisioning identity, saved for the next start. */
  private async register(): Promise<AgentCredentials> {
    const { url, provisioningKey, credentials: store } = this.options
    const clientId = `prov-${this.site.serial}`
    const client = await openConnection(url, { clientId, username: PROVISIONING_USERNAME, password: provisioningKey }, this.connectTimeout)
    try {
      const rpc = new MqttRpc(client, this.requestTimeout)
      client.on('message', (_topic, payload) => rpc.handle(payload))
      await client.subscribeAsync(provisionResponseTopic(clientId), { qos: 1 })
      const site = this.site
      const result = await rpc.call(
        provisionRequestTopic(clientId),
        { product: site.product, serial: site.serial, version: site.version, name: site.name },
        registerResultSchema,
      )
      const credentials = { ...result, serial: site.serial }
      await store.save(credentials)
      return credentials
    } finally {
      await client.endAsync()
    }
  }

  private async open({ agentId, secret }: AgentCredentials) {
    const will = { topic: agentStatusTopic(agentId), payload: Buffer.from(JSON.stringify({ online: false })), qos: 1 as const, retain: false }
    const client = await openConnection(
      this.options.url,
      { clientId: agentId, username: agentId, password: secret, will, reconnectPeriod: 2000 + Math.floor(Math.random() * 1000) },
      this.connectTimeout,
    )
    reconnectAfterRefusals(client)
    const pubackTimeoutMs = this.options.pubackTimeoutMs ?? DEFAULT_PUBACK_TIMEOUT_MS
    if (pubackTimeoutMs > 0) this.pubackWatch = watchPubacks(client, { timeoutMs: pubackTimeoutMs, log: (message) => this.emit('problem', new Error(message)) })
    this.client = client
    this.agentId = agentId
    this.secret = secret
    this.rpc = new MqttRpc(client, this.requestTimeout)
    client.on('error', (error) => this.emit('problem', error))
    client.on('message', (topic, payload) => this.onMessage(topic, payload))
    // Announce presence again after every reconnect; the Will covers the opposite.
    client.on('connect', () => this.announce(true))
    await client.subscribeAsync([`${agentTopicPrefix(agentId)}res/+`, agentConfigTopic(agentId)], { qos: 1 })
    this.announce(true)
  }

  private announce(online: boolean) {
    if (!this.client || !this.agentId) return Promise.resolve()
    return this.client.publishAsync(agentStatusTopic(this.agentId), JSON.stringify({ online }), { qos: 1 }).catch(() => undefined)
  }

  private onMessage(topic: string, payload: Buffer) {
    if (this.agentId && topic === agentConfigTopic(this.agentId)) {
      const parsed = clientConfigResultSchema.safeParse(safeJson(payload))
      if (parsed.success) this.applyConfig(parsed.data)
      return
    }
    this.rpc?.handle(payload)
  }

  /** Adopts the portal's configuration: enrollment state, and the keys in `obeyedConfigSchema`. */
  private applyConfig(config: ClientConfigResult) {
    const newlyEnrolled = config.enrolled && !this.config?.enrolled
    this.config = config
    if (newlyEnrolled) void this.getTunnelConfig().catch((error: Error) => this.emit('problem', error))
    const obeyed = obeyedConfigSchema.safeParse(config.config)
    if (this.tunnelConfig) void this.syncRemoteConnect().catch((error: Error) => this.emit('problem', error))
    const seconds = obeyed.success ? obeyed.data.reportIntervalSeconds : undefined
    const interval = seconds ? seconds * 1000 : this.options.reportIntervalMs
    if (interval !== this.reportIntervalMs) {
      this.reportIntervalMs = interval
      if (this.timers.length) this.schedule()
    }
    this.emit('config', config)
  }

  /** getClientConfig, adopting the answer like a pushed configuration. */
  async refreshConfig() {
    const config = await this.call('getClientConfig', {})
    this.applyConfig(config)
    return config
  }

  /** Resolves once the portal says this agent is enrolled (pushed config), asking after `timeoutMs`. */
  async waitUntilEnrolled(timeoutMs: number): Promise<boolean> {
    if (this.enrolled) return true
    await new Promise<void>((resolve) => {
      const finish = () => {
        clearTimeout(timer)
        this.off('config', onConfig)
        resolve()
      }
      const onConfig = (config: ClientConfigResult) => {
        if (config.enrolled) finish()
      }
      const timer = setTimeout(finish, timeoutMs)
      this.on('config', onConfig)
    })
    return this.enrolled || (await this.refreshConfig()).enrolled
  }

  /** Sends one protocol call and waits for its answer (QoS 1, acknowledged after the portal committed it). */
  call<C extends AgentCall>(call: C, params: Omit<AgentCallRequest<C>, 'requestId'>): Promise<AgentCallResult<C>> {
    if (!this.rpc || !this.agentId) return Promise.reject(new Error('The agent is not connected'))
    return this.rpc.call(agentRequestTopic(this.agentId, call), params, agentCallSchemas[call].result)
  }

  /** createApplication: a fresh enrollment code (XXX-XX-XXX) a person can enroll this agent with. */
  async createApplication(): Promise<string> {
    return (await this.call('createApplication', {})).applicationCode
  }

  ping() {
    if (this.site.silent) return Promise.resolve(null)
    return this.call('ping', { metrics: { ...this.site.tcp }, tunnel: this.remote.state })
  }

  /** Advances the simulated devices to now and reports the full state (nothing while the scenario keeps the agent silent). */
  async report() {
    this.site.tick(new Date())
    if (this.site.silent) return null
    const result = await this.call('updateClientState', { systems: toSystemReports(this.site.systemsSnapshot()) })
    this.reports++
    this.emit('report', result)
    return result
  }

  async getTunnelConfig() {
    this.tunnelConfig = await this.call('getTunnelConfig', {})
    await this.syncRemoteConnect()
    return this.tunnelConfig
  }

  /** Remote connect follows the tunnel config and the `remoteConnect` key (on unless set to false). */
  private syncRemoteConnect() {
    if (!this.tunnelConfig || !this.agentId || !this.secret || this.stopped) return Promise.resolve()
    const obeyed = obeyedConfigSchema.safeParse(this.config?.config ?? {})
    const remoteConnect = !obeyed.success || obeyed.data.remoteConnect !== false
    return this.remote.update({ ...this.tunnelConfig, remoteConnect, agentId: this.agentId, secret: this.secret })
  }

  /** The report interval in force (the option, or the portal's `reportIntervalSeconds`). */
  get interval() {
    return this.reportIntervalMs
  }

  /** setClientConfig: replaces the portal-held configuration and adopts the answer. */
  async setClientConfig(config: Record<string, unknown>) {
    const result = await this.call('setClientConfig', { config })
    this.applyConfig(result)
    return result
  }

  private schedule() {
    this.clearTimers()
    if (this.stopped) return
    const every = (ms: number, task: () => Promise<unknown>) => {
      let running = false
      // A slow portal must not pile requests up: skip a turn while the previous one is unanswered.
      const runOnce = () => {
        if (running) return
        running = true
        task()
          .catch((error: Error) => this.emit('problem', error))
          .finally(() => (running = false))
      }
      // Spread agents over the interval so a fleet does not report in lock-step.
      const start = setTimeout(() => {
        this.timers.push(setInterval(runOnce, ms))
        runOnce()
      }, Math.floor(Math.random() * ms))
      this.timers.push(start)
    }
    every(this.reportIntervalMs, () => this.report())
    every(this.options.pingIntervalMs ?? Math.min(Math.max(this.reportIntervalMs, 60_000), 300_000), () => this.ping())
  }

  private clearTimers() {
    for (const timer of this.timers) clearTimeout(timer)
    this.timers = []
  }

  /** Graceful stop: timers off, an explicit offline status, a clean DISCONNECT. */
  async stop() {
    this.stopped = true
    this.clearTimers()
    this.pubackWatch?.stop()
    await this.remote.stop()
    const client = this.client
    if (!client) return
    if (client.connected) await this.announce(false)
    this.rpc?.rejectAll(new Error('The agent stopped'))
    await client.endAsync()
  }

  /** Drops the connection without DISCONNECT, as a crash or a cable pull would (the broker sends the Will). */
  kill() {
    this.stopped = true
    this.clearTimers()
    this.pubackWatch?.stop()
    void this.remote.stop()
    this.client?.stream.destroy()
    this.client?.end(true)
  }

  private get requestTimeout() {
    return this.options.requestTimeoutMs ?? 30_000
  }

  private get connectTimeout() {
    return this.options.connectTimeoutMs ?? 30_000
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'))
  } catch {
    return undefined
  }
}
