/**
 * The embedded MQTT broker (aedes): TCP on MQTT_PORT and MQTT over WebSocket at /mqtt on the web
 * server. It authenticates agents, confines each identity to its own topics (identity from the
 * connection, never from the topic), validates payloads against protocol/ and hands
 * calls to the domain through ingest/agent-gateway.server.ts only.
 *
 * QoS 1 and durability: aedes writes the PUBACK right after `authorizePublish` calls back, so
 * requests are executed inside that hook and it calls back only after the write is committed.
 */
import type http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { type Duplex } from 'node:stream'
import { Aedes, type AuthenticateError, type Client, type Subscription } from 'aedes'
import { WebSocketServer, createWebSocketStream } from 'ws'
import { agentConfigs, agentPresence, markAllOffline, onAgentConfigChange, startIngest, traceAcked, traceReceived } from '../ingest/agent-gateway.server'
import { listen } from '../server/listen'
import { publishAllowed, subscriptionAllowed, type Identity, type ParsedTopic } from '../protocol'
import { authenticateClient } from './acl'
import { agentConfigTopic, parseTopic } from '../protocol'
import { IngestFailure, dispatchMessage, type MessageContext } from './requests'
import { IngestHealth, PERMANENT_FAILURE_ATTEMPTS, retryDelay } from './ingest-retry'
import { PresenceWriter } from './presence-retry'
import { componentLogger, type LogFields } from '../app/utils/logger.server'

type Logger = { info: (message: string, fields?: LogFields) => void; warn: (message: string, fields?: LogFields) => void }

export type BrokerOptions = {
  port: number
  host: string
  /** the web server; MQTT over WebSocket is served on it at /mqtt */
  httpServer?: http.Server
  logger?: Logger
}

export type MqttBroker = { port: number; close: () => Promise<void>; connectedAgents: () => number }

/** Refusals and failures are warnings, membership changes info (LOG_LEVEL filters in the process's log). */
export function brokerLogger(_level?: string): Logger {
  return componentLogger('broker')
}

/** Publishes hardly ever exceed this: anything larger closes the connection before parsing JSON. */
const HARD_PAYLOAD_LIMIT = 4 * 1024 * 1024
/** Failed publishes remembered as answered (bounds the memory of a long outage with many agents). */
const MAX_ANSWERED_FAILURES = 100_000
/** How often config changes announced by the domain are pushed (coalesced). */
const CONFIG_PUSH_INTERVAL_MS = 200

const identities = new WeakMap<Client, Identity>()

const remoteIp = (client: Client): string | null => {
  const address = client.req?.socket?.remoteAddress ?? (client.conn as Partial<net.Socket>).remoteAddress ?? null
  return address ? address.replace(/^::ffff:/, '') : null
}

export async function startBroker(options: BrokerOptions): Promise<MqttBroker> {
  const log: Logger = options.logger ?? brokerLogger()
  const broker = await Aedes.createBroker({ concurrency: 1000, drainTimeout: 30_000, maxClientsIdLength: 64 })
  const health = new IngestHealth(log)
  let closing = false
  const refuse = (client: Client | null, reason: string) => log.warn(`mqtt: refused ${client?.id ?? '(no client)'}: ${reason}`, { agentId: client?.id })

  // ------------------------------------------------------------------ authentication
  broker.authenticate = (client, username, password, done) => {
    authenticateClient(username, password?.toString('utf8') ?? '', client.id).then(
      (result) => {
        if (!result.ok) {
          refuse(client, result.reason)
          const error = new Error(result.reason) as AuthenticateError
          error.returnCode = result.returnCode
          return done(error, false)
        }
        identities.set(client, result.identity)
        done(null, true)
      },
      (error: Error) => {
        refuse(client, `authentication failed: ${error.message}`)
        const failure = new Error(error.message) as AuthenticateError
        failure.returnCode = 5
        done(failure, false)
      },
    )
  }

  // ------------------------------------------------------------------ subscribe ACL
  broker.authorizeSubscribe = (client, subscription, done) => {
    const identity = identities.get(client)
    const allowed = identity && subscriptionAllowed(identity, subscription.topic)
    if (!allowed) {
      refuse(client, `subscribe to ${subscription.topic} outside its own topics`)
      return done(null, null as unknown as Subscription)
    }
    done(null, subscription)
  }

  // Requests are for the portal only; nobody else receives them.
  broker.authorizeForward = (_client, packet) => (parseTopic(packet.topic)?.kind === 'req' ? null : packet)

  // ------------------------------------------------------------------ publish ACL + calls
  broker.authorizePublish = (client, packet, done) => {
    if (typeof packet.payload === 'string') packet.payload = Buffer.from(packet.payload)
    if (packet.topic.startsWith('$SYS/')) return done(new Error('$SYS/ topic is reserved'))
    const identity = client && identities.get(client)
    if (!client || !identity) {
      refuse(client, `publish to ${packet.topic} outside the protocol`)
      return done(new Error('topic not allowed'))
    }
    const check = publishAllowed(identity, packet.topic)
    if (!check.ok) {
      refuse(client, check.reason)
      return done(new Error('topic not allowed'))
    }
    if (packet.payload.length > HARD_PAYLOAD_LIMIT) {
      refuse(client, `payload of ${packet.payload.length} bytes on ${packet.topic}`)
      return done(new Error('payload too large'))
    }
    const trace = traceReceived()
    void storeWithRetry(client, identity, check.topic, packet.payload as Buffer, packet.messageId).then(
      () => {
        traceAcked(trace)
        done(null)
      },
      // Not stored (the client left, the broker is closing, or the message itself cannot be stored): no PUBACK, the client resends.
      (error: Error) => done(error),
    )
  }

  /** Publishes whose failure was answered and that are not stored yet (client id + message id), oldest first. */
  const answeredFailures = new Set<string>()
  const noteAnswered = (key: string) => {
    answeredFailures.add(key)
    if (answeredFailures.size > MAX_ANSWERED_FAILURES) answeredFailures.delete(answeredFailures.values().next().value!)
  }

  /**
   * Runs one publish until it is stored, holding its PUBACK. A failed commit (the database locked,
   * unwritable or unreachable) is answered once, on the first attempt ("it will be retried"), then
   * retried with backoff while the client stays connected, and the outage is logged in two lines
   * (ingest-retry.ts), not one warning per attempt (docs/decisions/045). A message failing because
   * of itself is given up after a few attempts, as before without its PUBACK.
   */
  async function storeWithRetry(client: Client, identity: Identity, topic: ParsedTopic, payload: Buffer, messageId: number | undefined): Promise<void> {
    // a QoS 1 message resent after a reconnect keeps its id: it was answered already
    const key = messageId === undefined ? null : `${client.id}\u0000${messageId}`
    for (let attempt = 1; ; attempt++) {
      const answer = attempt === 1 && !(key && answeredFailures.has(key))
      const context: MessageContext = { clientId: client.id, ip: remoteIp(client), closing: client.closed, respond, refuse: (reason) => refuse(client, reason), answerFailures: answer }
      try {
        await dispatchMessage(identity, topic, payload, context)
        if (key) answeredFailures.delete(key)
        health.succeeded()
        return
      } catch (error) {
        if (answer && key) noteAnswered(key)
        const failure = error instanceof IngestFailure ? error : new IngestFailure((error as Error).message, false)
        health.failed(failure.message)
        if (failure.permanent && attempt >= PERMANENT_FAILURE_ATTEMPTS) throw failure
        await health.wait(retryDelay(attempt), attempt === 1)
        if (closing || client.closed) throw failure
      }
    }
  }

  function respond(topic: string, body: unknown) {
    return new Promise<void>((resolve) => {
      broker.publish({ cmd: 'publish', topic, payload: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)), qos: 1, retain: false, dup: false }, () => resolve())
    })
  }

  // ------------------------------------------------------------------ presence + config push
  const pendingConfig = new Set<string>()
  const lastConfig = new Map<string, string>()
  const connected = new Set<string>()
  // a connect or disconnect while the database is unavailable is written once it is back (presence-retry.ts)
  const presence = new PresenceWriter((agentId, online) => agentPresence(agentId, online), log)

  broker.on('client', (client) => {
    const identity = identities.get(client)
    if (identity?.kind !== 'agent') return
    connected.add(identity.agentId)
    lastConfig.delete(identity.agentId)
    pendingConfig.add(identity.agentId)
    presence.set(identity.agentId, true)
  })
  broker.on('clientDisconnect', (client) => {
    const identity = identities.get(client)
    if (identity?.kind !== 'agent' || closing) return
    connected.delete(identity.agentId)
    lastConfig.delete(identity.agentId)
    presence.set(identity.agentId, false)
  })
  broker.on('clientError', (client, error) => log.warn(`mqtt: client ${client.id}: ${error.message}`))
  broker.on('connectionError', (client, error) => log.warn(`mqtt: connection ${client.id ?? ''}: ${error.message}`))

  const stopListening = onAgentConfigChange((ids) => {
    for (const id of ids === 'all' ? lastConfig.keys() : ids) pendingConfig.add(id)
  })

  /** Pushes the retained config of agents whose configuration may have changed, if it did. */
  async function pushConfigs() {
    const ids = [...pendingConfig].filter((id) => connected.has(id))
    pendingConfig.clear()
    if (!ids.length) return
    for (const [agentId, config] of await agentConfigs(ids)) {
      const payload = JSON.stringify(config)
      if (lastConfig.get(agentId) === payload) continue
      lastConfig.set(agentId, payload)
      broker.publish({ cmd: 'publish', topic: agentConfigTopic(agentId), payload: Buffer.from(payload), qos: 1, retain: true, dup: false }, () => {})
    }
  }
  let pushing = false
  const configTimer = setInterval(() => {
    if (pushing || !pendingConfig.size) return
    pushing = true
    pushConfigs()
      .catch((error: Error) => log.warn(`mqtt: config push failed: ${error.message}`))
      .finally(() => {
        pushing = false
      })
  }, CONFIG_PUSH_INTERVAL_MS)
  configTimer.unref()

  // ------------------------------------------------------------------ transports
  await markAllOffline()
  // the ingest worker thread starts now, not on the first message (no first-message delay)
  startIngest()
  const tcp = net.createServer((socket) => broker.handle(socket))
  await listen(tcp, options.port, options.host, 'MQTT_PORT')
  const port = (tcp.address() as AddressInfo).port

  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_PAYLOAD_LIMIT + 1024 })
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/mqtt') return
    wss.handleUpgrade(req, socket, head, (ws) => {
      const stream = createWebSocketStream(ws)
      stream.on('error', () => ws.terminate())
      broker.handle(stream, req)
    })
  }
  options.httpServer?.on('upgrade', onUpgrade)

  return {
    port,
    connectedAgents: () => connected.size,
    close: async () => {
      closing = true
      // publishes waiting to retry give up without their PUBACK: their clients resend them
      health.wakeAll()
      clearInterval(configTimer)
      stopListening()
      options.httpServer?.off('upgrade', onUpgrade)
      for (const ws of wss.clients) ws.terminate()
      wss.close()
      await new Promise<void>((resolve) => broker.close(() => resolve()))
      await new Promise<void>((resolve) => tcp.close(() => resolve()))
      await presence.stop()
      await markAllOffline()
    },
  }
}
