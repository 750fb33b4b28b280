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
import { agentConfigs, agentPresence, markAllOffline, onAgentConfigChange, startIngest } from '../ingest/agent-gateway.server'
import { listen } from '../server/listen'
import { publishAllowed, subscriptionAllowed, type Identity } from '../protocol'
import { authenticateClient } from './acl'
import { agentConfigTopic, parseTopic } from '../protocol'
import { dispatchMessage, type MessageContext } from './requests'
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
    const context: MessageContext = { clientId: client.id, ip: remoteIp(client), closing: client.closed, respond, refuse: (reason) => refuse(client, reason), warn: log.warn }
    void dispatchMessage(identity, check.topic, packet.payload as Buffer, context).then(
      () => done(null),
      // The write failed for a reason other than the message itself: no PUBACK, the client resends.
      (error: Error) => done(error),
    )
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

  broker.on('client', (client) => {
    const identity = identities.get(client)
    if (identity?.kind !== 'agent') return
    connected.add(identity.agentId)
    lastConfig.delete(identity.agentId)
    pendingConfig.add(identity.agentId)
    agentPresence(identity.agentId, true).catch((error: Error) => log.warn(`mqtt: presence of ${client.id}: ${error.message}`))
  })
  broker.on('clientDisconnect', (client) => {
    const identity = identities.get(client)
    if (identity?.kind !== 'agent' || closing) return
    connected.delete(identity.agentId)
    lastConfig.delete(identity.agentId)
    agentPresence(identity.agentId, false).catch((error: Error) => log.warn(`mqtt: presence of ${client.id}: ${error.message}`))
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

  let closing = false
  return {
    port,
    connectedAgents: () => connected.size,
    close: async () => {
      closing = true
      clearInterval(configTimer)
      stopListening()
      options.httpServer?.off('upgrade', onUpgrade)
      for (const ws of wss.clients) ws.terminate()
      wss.close()
      await new Promise<void>((resolve) => broker.close(() => resolve()))
      await new Promise<void>((resolve) => tcp.close(() => resolve()))
      await markAllOffline()
    },
  }
}
