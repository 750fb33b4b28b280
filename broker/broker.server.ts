/**
 * The embedded MQTT broker (aedes): TCP on MQTT_PORT and MQTT over WebSocket at /mqtt on the web
 * server. It authenticates agents, confines each identity to its own topics (identity from the
 * connection, never from the topic), validates payloads against broker/protocol.ts and hands
 * calls to the domain through app/domain/agents/agent-gateway.server.ts only.
 *
 * QoS 1 and durability: aedes writes the PUBACK right after `authorizePublish` calls back, so
 * requests are executed inside that hook and it calls back only after the write is committed.
 * Ingest calls are handed over as raw bytes: the ingest worker thread parses, validates, commits
 * and serializes the response, so this thread only speaks MQTT.
 */
import type http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { type Duplex } from 'node:stream'
import { Aedes, type AuthenticateError, type Client, type PublishPacket, type Subscription } from 'aedes'
import { WebSocketServer, createWebSocketStream } from 'ws'
import { DomainError } from '../app/domain/errors'
import {
  agentConfigs,
  agentPresence,
  authenticateAgent,
  handleCall,
  handleReceivedCall,
  isProvisioningKey,
  markAllOffline,
  onAgentConfigChange,
  startIngest,
  registerAgent,
} from '../app/domain/agents/agent-gateway.server'
import { listen } from '../server/app'
import {
  PROVISIONING_USERNAME,
  PROVISION_CALL,
  agentCallSchemas,
  agentConfigTopic,
  agentResponseTopic,
  agentTopicPrefix,
  isAgentCall,
  maxPayloadBytes,
  parseTopic,
  provisionResponseTopic,
  provisionTopicPrefix,
  registerRequestSchema,
  statusMessageSchema,
  type ErrorResponse,
} from './protocol'

type Identity = { kind: 'agent'; agentId: string } | { kind: 'provision'; clientId: string }
type Logger = { info: (message: string) => void; warn: (message: string) => void }

export type BrokerOptions = {
  port: number
  host: string
  /** the web server; MQTT over WebSocket is served on it at /mqtt */
  httpServer?: http.Server
  logger?: Logger
}

export type MqttBroker = { port: number; close: () => Promise<void> }

/** Refusals and failures are warnings; LOG_LEVEL error or silent hides them. */
export function brokerLogger(level: string): Logger {
  const quiet = level === 'error' || level === 'silent'
  return { info: (m) => level === 'debug' && console.log(m), warn: (m) => !quiet && console.warn(m) }
}

/** Publishes hardly ever exceed this: anything larger closes the connection before parsing JSON. */
const HARD_PAYLOAD_LIMIT = 4 * 1024 * 1024
/** How often config changes announced by the domain are pushed (coalesced). */
const CONFIG_PUSH_INTERVAL_MS = 200

const identities = new WeakMap<Client, Identity>()
const SAFE_CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/

const remoteIp = (client: Client): string | null => {
  const address = client.req?.socket?.remoteAddress ?? (client.conn as Partial<net.Socket>).remoteAddress ?? null
  return address ? address.replace(/^::ffff:/, '') : null
}

export async function startBroker(options: BrokerOptions): Promise<MqttBroker> {
  const log: Logger = options.logger ?? { info: (m) => console.log(m), warn: (m) => console.warn(m) }
  const broker = await Aedes.createBroker({ concurrency: 1000, drainTimeout: 30_000, maxClientsIdLength: 64 })
  const refuse = (client: Client | null, reason: string) => log.warn(`mqtt: refused ${client?.id ?? '(no client)'}: ${reason}`)

  // ------------------------------------------------------------------ authentication
  broker.authenticate = (client, username, password, done) => {
    const secret = password?.toString('utf8') ?? ''
    const fail = (reason: string, returnCode: 2 | 4 | 5) => {
      refuse(client, reason)
      const error = new Error(reason) as AuthenticateError
      error.returnCode = returnCode
      done(error, false)
    }
    if (!username) return fail('no username', 4)
    if (username === PROVISIONING_USERNAME) {
      if (!isProvisioningKey(secret)) return fail('wrong provisioning key', 4)
      // The client id becomes a topic level: no wildcards or separators.
      if (!SAFE_CLIENT_ID.test(client.id)) return fail('provisioning client id must be 1-64 letters, digits, _ or -', 2)
      identities.set(client, { kind: 'provision', clientId: client.id })
      return done(null, true)
    }
    if (client.id !== username) return fail(`client id must equal the agent id ${username}`, 5)
    authenticateAgent(username, secret).then(
      (result) => {
        if (!result.ok) return fail(`agent ${username}: ${result.reason}`, result.reason === 'disabled' ? 5 : 4)
        identities.set(client, { kind: 'agent', agentId: username })
        done(null, true)
      },
      (error: Error) => fail(`authentication failed: ${error.message}`, 5),
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
    const topic = parseTopic(packet.topic)
    if (!client || !identity || !topic) {
      refuse(client, `publish to ${packet.topic} outside the protocol`)
      return done(new Error('topic not allowed'))
    }
    if (identity.kind === 'provision') {
      if (topic.scope !== 'provision' || topic.clientId !== identity.clientId || topic.kind !== 'req' || topic.call !== PROVISION_CALL) {
        refuse(client, `provisioning identity may only call register on its own topic, not ${packet.topic}`)
        return done(new Error('topic not allowed'))
      }
      return void runRequest(client, packet, PROVISION_CALL, provisionResponseTopic(identity.clientId), (json, meta) =>
        registerAgent(registerRequestSchema.parse(json), meta),
      ).then(() => done(null))
    }
    if (topic.scope !== 'agent' || topic.agentId !== identity.agentId || (topic.kind !== 'req' && topic.kind !== 'status')) {
      refuse(client, `agent ${identity.agentId} may not publish to ${packet.topic}`)
      return done(new Error('topic not allowed'))
    }
    if (packet.payload.length > HARD_PAYLOAD_LIMIT) {
      refuse(client, `payload of ${packet.payload.length} bytes on ${packet.topic}`)
      return done(new Error('payload too large'))
    }
    if (topic.kind !== 'req') return void handleStatus(identity.agentId, client, packet).then(() => done(null))
    const call = topic.call
    if (!isAgentCall(call)) {
      return void respond(agentResponseTopic(identity.agentId, call as never), errorResponse(null, 'unknown-call', `Unknown call ${call}`)).then(() => {
        refuse(client, `unknown call ${call}`)
        done(null)
      })
    }
    if (call !== 'selfEnroll') {
      const responseTopic = agentResponseTopic(identity.agentId, call)
      return void handleReceivedCall(identity.agentId, call, packet.payload, { ip: remoteIp(client), receivedAt: new Date() }).then(
        async (outcome) => {
          if (outcome.refusal) refuse(client, outcome.refusal)
          if (outcome.failed) log.warn(`mqtt: ${call} from ${client.id} failed: ${outcome.failed}`)
          await respond(responseTopic, outcome.response)
          // The write failed for a reason other than the message itself: no PUBACK, the client resends.
          done(outcome.failed ? new Error(outcome.failed) : null)
        },
        (error: Error) => {
          log.warn(`mqtt: ${call} from ${client.id} failed: ${error.message}`)
          done(error)
        },
      )
    }
    void runRequest(client, packet, call, agentResponseTopic(identity.agentId, call), (json, meta) =>
      handleCall(identity.agentId, call, agentCallSchemas[call].request.parse(json) as never, meta),
    ).then(
      () => done(null),
      // The write failed for a reason other than the message itself: no PUBACK, the client resends.
      (error: Error) => done(error),
    )
  }

  /** Parses, validates and runs one request, then publishes the response; rejects only when the commit itself failed. */
  async function runRequest(client: Client, packet: PublishPacket, call: string, responseTopic: string, run: (json: unknown, meta: { ip: string | null; receivedAt: Date }) => Promise<unknown>) {
    const receivedAt = new Date()
    let requestId: string | null = null
    const reject = (code: string, message: string, issues?: { path: string; message: string }[]) => {
      refuse(client, `${call}: ${code}: ${message}`)
      return respond(responseTopic, errorResponse(requestId, code, message, issues))
    }
    if (packet.payload.length > maxPayloadBytes(call)) return reject('payload-too-large', `${call} payload of ${packet.payload.length} bytes exceeds ${maxPayloadBytes(call)} bytes`)
    let json: unknown
    try {
      json = JSON.parse(packet.payload.toString('utf8'))
    } catch {
      return reject('invalid-json', 'Payload is not valid JSON')
    }
    if (json && typeof json === 'object' && typeof (json as { requestId?: unknown }).requestId === 'string') requestId = (json as { requestId: string }).requestId.slice(0, 64)
    try {
      const result = await run(json, { ip: remoteIp(client), receivedAt })
      await respond(responseTopic, { requestId, ok: true, result })
    } catch (error) {
      if (error instanceof Error && error.name === 'ZodError') {
        const issues = (error as unknown as { issues: { path: (string | number)[]; message: string }[] }).issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
        return reject('invalid-payload', issues[0] ? `${issues[0].path || 'payload'}: ${issues[0].message}` : 'Invalid payload', issues)
      }
      if (error instanceof DomainError) return reject(error.code, error.message)
      log.warn(`mqtt: ${call} from ${client.id} failed: ${error instanceof Error ? error.message : String(error)}`)
      await respond(responseTopic, errorResponse(requestId, 'internal', 'The request could not be stored; it will be retried'))
      throw error
    }
  }

  async function handleStatus(agentId: string, client: Client, packet: PublishPacket) {
    const parsed = statusMessageSchema.safeParse(safeJson(packet.payload as Buffer))
    if (!parsed.success) return refuse(client, `status message of ${agentId} is not {online: boolean}`)
    // A Will arrives while the client is closing; an explicit status while it is connected.
    const will = client.closed || !parsed.data.online
    await agentPresence(agentId, parsed.data.online, { will }).catch((error: Error) => log.warn(`mqtt: status of ${agentId}: ${error.message}`))
  }

  /** Publishes a response; `body` already serialized when the ingest worker built it. */
  function respond(topic: string, body: unknown) {
    const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
    return new Promise<void>((resolve) => {
      broker.publish({ cmd: 'publish', topic, payload, qos: 1, retain: false, dup: false }, () => resolve())
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

/**
 * A subscription must stay inside the identity's own prefix; wildcards after it are fine (docs/agent-protocol.md):
 * `pf/v1/provision/{clientId}/res/+`, `pf/v1/agents/{agentId}/#`. Client ids and agent ids hold no
 * wildcard or separator (checked at connect), so a filter starting with the prefix cannot reach outside it.
 */
function subscriptionAllowed(identity: Identity, filter: string): boolean {
  const prefix = identity.kind === 'provision' ? provisionTopicPrefix(identity.clientId) : agentTopicPrefix(identity.agentId)
  return filter.startsWith(prefix)
}

function errorResponse(requestId: string | null, code: string, message: string, issues?: { path: string; message: string }[]): ErrorResponse {
  return { requestId, ok: false, error: { code, message, ...(issues ? { issues } : {}) } }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'))
  } catch {
    return null
  }
}
