/**
 * External broker mode (MQTT_BROKER_URL): agents connect to a clustered RabbitMQ (rabbitmq_mqtt)
 * instead of the embedded aedes broker. RabbitMQ asks the portal about credentials and topics
 * (broker/http-auth.server.ts); this module is the rest of the node's side:
 *
 * - ingest workers: the agents' request and status routing keys (MQTT `/` is AMQP `.`) are spread
 *   over partition queues by a consistent-hash exchange; each partition is consumed by one node at a
 *   time (single active consumer), the nodes share the partitions out among themselves and a
 *   standby takes over those of a node that dies (external-partitions.ts, docs/decisions/011). A
 *   message is acknowledged only after its effect is committed and its response published, so a
 *   node dying mid-batch leaves its unacknowledged messages to the node taking its partitions.
 *   A failed commit is retried in place with backoff, never requeued; what can never be stored
 *   goes to the dead-letter queue (ingest-retry.ts, docs/decisions/021); queues of a former
 *   partition count are drained (retired-queues.ts, docs/decisions/022).
 * - presence: the event exchange plugin's connection.created/closed events, through the quorum
 *   queue `pixelfleet.presence` with a single active consumer (events stay in order; another node
 *   takes over when that one dies). docs/decisions/010-external-broker.md says why.
 * - responses go back through `amq.topic`; retained config pushes through an MQTT connection of
 *   the portal's service user (AMQP publishes cannot set MQTT's retain flag).
 * - live updates: local changes go out on the `pixelfleet.events` fanout exchange; other nodes'
 *   arrive through this node's exclusive queue and are emitted locally (events/remote.server.ts).
 *   The same exchange carries the nodes' heartbeats (AMQP type `node`), from which they balance
 *   the partitions.
 * Over 400 lines on purpose: the four parts share one AMQP connection, its reconnects and its shutdown order.
 */
import os from 'node:os'
import amqp, { type Channel, type ChannelModel, type ConsumeMessage } from 'amqplib'
import mqtt, { type MqttClient } from 'mqtt'
import { agentConfigs, agentPresence, onAgentConfigChange, onlineAgentIds } from '../ingest/agent-gateway.server'
import { onChange, type ChangeEvent } from '../app/domain/events/bus.server'
import { isIngestChange } from '../app/domain/events/ingest-origin.server'
import { emitRemoteChange, emitRemoteIngestChanges, isRemoteChange } from '../app/domain/events/remote.server'
import { identityOf, publishAllowed, routingKeyToTopic, type Identity } from '../protocol'
import { PROVISIONING_USERNAME, agentConfigTopic } from '../protocol'
import { ConfigError } from '../server/config'
import { registerDeadLetterCount } from '../app/domain/admin/ingest-dead-letters.server'
import { IngestFailure, dispatchMessage } from './requests'
import { DEAD_LETTER_QUEUE, DEFAULT_PARTITIONS, Membership, PartitionConsumers, declarePartitions, partitionQueue } from './external-partitions'
import { IngestHealth, PERMANENT_FAILURE_ATTEMPTS, retryDelay } from './ingest-retry'
import { PRESENCE_WORDING, writePresenceWithRetry } from './presence-retry'
import { drainRetiredQueues } from './retired-queues'
import { connectAtStart } from './connect-at-start'
import { AckBatches } from './ack-batch'

type Logger = { info: (message: string, fields?: Record<string, unknown>) => void; warn: (message: string, fields?: Record<string, unknown>) => void }

export const TOPIC_EXCHANGE = 'amq.topic'
export const PRESENCE_QUEUE = 'pixelfleet.presence'
export const EVENTS_EXCHANGE = 'pixelfleet.events'
const EVENT_EXCHANGE = 'amq.rabbitmq.event'
/** Requests and status of agents, register calls of the provisioning identity. */
export const INGEST_BINDINGS = ['pf.v1.agents.*.req.*', 'pf.v1.agents.*.status', 'pf.v1.provision.*.req.register']
const RECONNECT_MS = 2000
/** At start, how long a node listens for the others' heartbeats before it compares partition counts. */
const PARTITION_CHECK_MS = 2500
const EVENT_BATCH_MS = 25
const CONFIG_PUSH_INTERVAL_MS = 200
const HEARTBEAT_MS = 1000
/** A node unheard of this long is gone (its partitions moved already: RabbitMQ saw its connection close). */
const NODE_TIMEOUT_MS = 4000
const NODE_MESSAGE = 'node'

export type ExternalBrokerOptions = { mqttUrl: string; amqpUrl: string; nodeId: string; prefetch: number; partitions?: number; logger: Logger }
export type ExternalBroker = {
  port: number
  close: () => Promise<void>
  ownedPartitions: () => number[]
  /** readiness: the AMQP connection is up */
  connected: () => boolean
  /** the live nodes this node hears (itself included) */
  liveNodes: () => string[]
  /** messages waiting in each partition queue (ingest lag), asked of the broker */
  queueDepths: () => Promise<Map<number, number>>
}

/** AMQP address of the broker: BROKER_AMQP_URL, else MQTT_BROKER_URL's credentials and host on 5672. */
export function amqpUrlOf(mqttUrl: string, amqpUrl: string | undefined): string {
  if (amqpUrl) return amqpUrl
  const url = new URL(mqttUrl)
  return `amqp${url.protocol === 'mqtts:' ? 's' : ''}://${url.username}:${url.password}@${url.hostname}:${url.protocol === 'mqtts:' ? 5671 : 5672}`
}

export const defaultNodeId = () => `${os.hostname().replace(/[^A-Za-z0-9_.-]/g, '-').slice(0, 40)}-${process.pid}`

const toRoutingKey = (topic: string) => topic.replaceAll('/', '.')

export async function startExternalBroker(options: ExternalBrokerOptions): Promise<ExternalBroker> {
  const log = options.logger
  let closing = false
  let connection: ChannelModel | null = null
  let publisher: Channel | null = null
  const inflight = new Set<Promise<void>>()
  const health = new IngestHealth(log)
  /** channels closed with their connection: their unacknowledged messages went back to the queue */
  const closedChannels = new WeakSet<Channel>()
  let deadLetters: amqp.ConfirmChannel | null = null
  const serviceUser = decodeURIComponent(new URL(options.mqttUrl).username)

  // ---------------------------------------------------------------- publishing
  const publish = (exchange: string, routingKey: string, body: Buffer, extra: amqp.Options.Publish = {}) => {
    if (!publisher) throw new Error('broker connection lost')
    publisher.publish(exchange, routingKey, body, { persistent: true, ...extra })
  }
  const respond = async (topic: string, body: unknown) => publish(TOPIC_EXCHANGE, toRoutingKey(topic), Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)))

  // ---------------------------------------------------------------- ingest workers
  function onIngest(channel: Channel, message: ConsumeMessage | null) {
    if (!message) return
    track(channel, message)
  }
  /** Stores a message in the background; an unexpected error is logged, never an unhandled rejection (which would end the process). */
  function track(channel: Channel, message: ConsumeMessage): Promise<void> {
    // Shutting down: left unacknowledged, the broker hands it to the next node when this connection
    // closes. Storing it here could not be acknowledged in time (close() waits only for the messages
    // in flight when it began): the chaos suite's drained node left 38 or more reports stored twice.
    if (closing) return Promise.resolve()
    ingestAcks.delivered(channel, message)
    const tracked = ingestMessage(channel, message)
      .catch((error: Error) => log.warn(`ingest: ${message.fields.routingKey}: ${error.message}`))
      .finally(() => inflight.delete(tracked))
    inflight.add(tracked)
    return tracked
  }

  /**
   * Stores one message, then acknowledges it. A failed commit is retried here with backoff while
   * the message stays unacknowledged (ingest-retry.ts, docs/decisions/021); a message that can
   * never be stored (refused as invalid, or failing because of itself) goes to the dead-letter queue.
   */
  async function ingestMessage(channel: Channel, message: ConsumeMessage): Promise<void> {
    const topicName = routingKeyToTopic(message.fields.routingKey)
    const identity = identityFromTopic(topicName)
    const check = identity && publishAllowed(identity, topicName)
    // RabbitMQ already refused anything else (topic authorization); this only guards odd bindings.
    if (!identity || !check || !check.ok) return void acknowledge(channel, message)
    const clientId = identity.kind === 'agent' ? identity.agentId : identity.clientId
    for (let attempt = 1; ; attempt++) {
      let refusal: string | null = null
      const refuse = (reason: string) => {
        refusal = reason
        log.warn(`mqtt: refused ${clientId}: ${reason}`)
      }
      const context = { clientId, ip: null, closing: false, respond, refuse, answerFailures: false }
      try {
        await dispatchMessage(identity, check.topic, message.content, context)
        health.succeeded()
        if (refusal) await deadLetter(message, refusal)
        return acknowledge(channel, message)
      } catch (error) {
        const failure = error instanceof IngestFailure ? error : new IngestFailure((error as Error).message, false)
        health.failed(failure.message)
        if (failure.permanent && attempt >= PERMANENT_FAILURE_ATTEMPTS) {
          try {
            await deadLetter(message, `cannot be stored: ${failure.message}`)
            return acknowledge(channel, message)
          } catch (error) {
            // (a throw here used to reject unhandled and end the process) kept and tried again
            log.warn(`ingest: dead-lettering failed: ${(error as Error).message}`)
          }
        }
        await health.wait(retryDelay(attempt), attempt === 1)
        // closing, or the channel went with its connection: the broker gives the message to the next consumer
        if (closing || closedChannels.has(channel)) return
      }
    }
  }
  /** Ingest messages' acks go out once per turn (ack-batch.ts); others (presence) alone. */
  const ingestAcks = new AckBatches()
  function acknowledge(channel: Channel, message: ConsumeMessage) {
    if (ingestAcks.settle(channel, message)) return
    try {
      channel.ack(message)
    } catch {
      // the channel closed after the commit: the message comes again (stored at least once)
    }
  }
  /** Keeps the message in the dead-letter queue (confirmed by the broker before the original is acknowledged). */
  async function deadLetter(message: ConsumeMessage, reason: string) {
    if (!deadLetters) throw new Error('broker connection lost')
    const headers = { 'x-pixelfleet-routing-key': message.fields.routingKey, 'x-pixelfleet-reason': reason.slice(0, 500), 'x-pixelfleet-node': options.nodeId }
    deadLetters.sendToQueue(DEAD_LETTER_QUEUE, message.content, { persistent: true, headers, timestamp: Math.floor(Date.now() / 1000) })
    await deadLetters.waitForConfirms()
  }
  const stopDeadLetterCount = registerDeadLetterCount(async () => {
    if (!deadLetters) throw new Error('the broker connection is down')
    return (await deadLetters.checkQueue(DEAD_LETTER_QUEUE)).messageCount
  })

  // ---------------------------------------------------------------- presence
  const connectionAgent = new Map<string, string>()
  const currentConnection = new Map<string, string>()
  let presenceChain = Promise.resolve()
  const presenceHealth = new IngestHealth(log, Date.now, PRESENCE_WORDING)
  function onPresence(channel: Channel, message: ConsumeMessage | null) {
    if (!message) return consumerCancelled(channel, PRESENCE_QUEUE)
    // The chain never rejects: an ack on a channel that closed meanwhile (the broker restarted) used
    // to throw from `.finally`, an unhandled rejection that ended the node's process. Events are
    // written one after the other, in order; one that cannot be written yet (the database is down)
    // is retried and stays unacknowledged, holding the later ones back (docs/decisions/045).
    presenceChain = presenceChain
      .then(async () => {
        const change = connectionChange(message.fields.routingKey, (message.properties.headers ?? {}) as Record<string, unknown>)
        if (!change) return true
        const stopped = () => closing || closedChannels.has(channel)
        const written = await writePresenceWithRetry(() => agentPresence(change.agentId, change.online), presenceHealth, stopped, log, `presence of ${change.agentId}`)
        if (written) change.settled?.()
        return written
      })
      .catch((error: Error) => {
        log.warn(`mqtt: presence event failed: ${error.message}`)
        return true
      })
      // not written (shutting down, or the channel closed): unacknowledged, RabbitMQ hands it to the next consumer
      .then((written) => void (written && acknowledge(channel, message)))
  }
  /**
   * The agent whose session a connection event opens or closes (null: not an agent's, or
   * superseded). A close forgets its connection only once `settled` (written): if the event comes
   * again after a failed attempt, it is still recognized.
   */
  function connectionChange(kind: string, headers: Record<string, unknown>): { agentId: string; online: boolean; settled?: () => void } | null {
    const pid = String(headers.pid ?? '')
    if (kind === 'connection.created') {
      const user = String(headers.user ?? '')
      if (!String(headers.protocol ?? '').includes('MQTT') || user === PROVISIONING_USERNAME || user === serviceUser) return null
      const identity = identityOf(user, user)
      if (identity?.kind !== 'agent') return null
      connectionAgent.set(pid, identity.agentId)
      currentConnection.set(identity.agentId, pid)
      lastConfig.delete(identity.agentId)
      pendingConfig.add(identity.agentId)
      return { agentId: identity.agentId, online: true }
    }
    if (kind === 'connection.closed') {
      const agentId = connectionAgent.get(pid)
      if (!agentId) return null
      // A reconnect may be reported before the old connection's close: only the current one counts.
      if (currentConnection.get(agentId) !== pid) {
        connectionAgent.delete(pid)
        return null
      }
      const settled = () => {
        connectionAgent.delete(pid)
        if (currentConnection.get(agentId) === pid) currentConnection.delete(agentId)
      }
      return { agentId, online: false, settled }
    }
    return null
  }

  // ---------------------------------------------------------------- live events across nodes
  // [event, made by ingest]: the receiving node keeps its ingest caches for ingest's own changes
  let pendingEvents: [ChangeEvent, boolean][] = []
  let eventTimer: NodeJS.Timeout | null = null
  const stopForwarding = onChange((event) => {
    if (isRemoteChange() || closing) return
    pendingEvents.push([event, isIngestChange()])
    eventTimer ??= setTimeout(flushEvents, EVENT_BATCH_MS)
  })
  function flushEvents() {
    eventTimer = null
    const unique = [...new Map(pendingEvents.map((entry) => [JSON.stringify(entry), entry])).values()]
    pendingEvents = []
    if (!unique.length || !publisher) return
    try {
      publish(EVENTS_EXCHANGE, '', Buffer.from(JSON.stringify(unique)), { appId: options.nodeId, persistent: false })
    } catch (error) {
      log.warn(`broker: live events not forwarded: ${(error as Error).message}`)
    }
  }
  function onRemoteEvents(message: ConsumeMessage | null) {
    if (!message || message.properties.appId === options.nodeId) return
    if (message.properties.type === NODE_MESSAGE) return membership.heard(message.content)
    try {
      const entries = JSON.parse(message.content.toString('utf8')) as [ChangeEvent, boolean][]
      for (const [event, ingest] of entries) if (!ingest) emitRemoteChange(event)
      const ingested = entries.filter(([, ingest]) => ingest).map(([event]) => event)
      if (ingested.length) emitRemoteIngestChanges(ingested)
    } catch (error) {
      log.warn(`broker: bad live event from ${String(message.properties.appId)}: ${(error as Error).message}`)
    }
  }

  // ---------------------------------------------------------------- retained config push (MQTT)
  const pendingConfig = new Set<string>()
  const lastConfig = new Map<string, string>()
  const mqttClient: MqttClient = mqtt.connect(options.mqttUrl, { clientId: `pixelfleet-${options.nodeId}`.slice(0, 64), reconnectPeriod: RECONNECT_MS, clean: true })
  mqttClient.on('error', (error) => log.warn(`broker: MQTT connection: ${error.message}`))
  const stopConfigListener = onAgentConfigChange((ids) => {
    // The node where the change happened pushes it; the others hear of it too and stay quiet.
    if (isRemoteChange()) return
    if (ids !== 'all') for (const id of ids) pendingConfig.add(id)
    else void onlineAgentIds().then((all) => all.forEach((id) => pendingConfig.add(id)), (error: Error) => log.warn(`broker: ${error.message}`))
  })
  async function pushConfigs() {
    const ids = [...pendingConfig]
    pendingConfig.clear()
    if (!ids.length || !mqttClient.connected) return void ids.forEach((id) => pendingConfig.add(id))
    for (const [agentId, config] of await agentConfigs(ids)) {
      const payload = JSON.stringify(config)
      if (lastConfig.get(agentId) === payload) continue
      lastConfig.set(agentId, payload)
      await mqttClient.publishAsync(agentConfigTopic(agentId), payload, { qos: 1, retain: true })
    }
  }
  let pushing = false
  const configTimer = setInterval(() => {
    if (pushing || !pendingConfig.size) return
    pushing = true
    pushConfigs()
      .catch((error: Error) => log.warn(`broker: config push failed: ${error.message}`))
      .finally(() => {
        pushing = false
      })
  }, CONFIG_PUSH_INTERVAL_MS)
  configTimer.unref()

  // ---------------------------------------------------------------- partitions and membership
  const partitionCount = options.partitions ?? DEFAULT_PARTITIONS
  let consumers: PartitionConsumers | null = null
  const membership = new Membership({
    nodeId: options.nodeId,
    partitions: partitionCount,
    intervalMs: HEARTBEAT_MS,
    timeoutMs: NODE_TIMEOUT_MS,
    send: (body) => publish(EVENTS_EXCHANGE, '', body, { appId: options.nodeId, type: NODE_MESSAGE, persistent: false }),
    onChange: (nodes) => {
      if (closing || !consumers) return
      consumers.rebalance(nodes).then(
        () => log.info(`broker: nodes ${nodes.join(', ')}; this node consumes ingest partitions ${consumers?.ownedPartitions.join(', ') || 'none'}`, { nodes, partitions: consumers?.ownedPartitions ?? [] }),
        (error: Error) => log.warn(`broker: rebalancing ingest partitions failed: ${error.message}`),
      )
    },
  })
  /** A partition came from another node: its agents may be cached here from before; forget them all. */
  const forgetCachedAgents = () => emitRemoteChange({ organizationId: null, kind: 'agent' })

  // ---------------------------------------------------------------- AMQP connection
  let stopRetiredDrains = () => {}
  /**
   * A channel of this connection closed by the broker (a channel error) or a consumer cancelled by
   * it: its consumers are gone while the connection lives on, so this node would silently stop
   * consuming. Dropping the connection makes the reconnect set everything up again.
   */
  function recycle(channel: Channel, why: string) {
    if (closing || closedChannels.has(channel) || !connection) return
    log.warn(`broker: ${why}; reconnecting to set up the consumers again`)
    connection.close().catch(() => {})
  }
  function consumerCancelled(channel: Channel, queue: string) {
    recycle(channel, `the broker cancelled this node's consumer of ${queue}`)
  }
  /** Watches a channel set up by `setUp`: errors are logged (an 'error' without a listener would throw), an unexpected close recycles the connection. */
  function watch(conn: ChannelModel, channel: Channel, channels: Channel[], name: string) {
    channels.push(channel)
    channel.on('error', (error: Error) => log.warn(`broker: AMQP ${name} channel: ${error.message}`))
    // (amqplib closes the channels just before it reports the connection's close: look after that)
    channel.on('close', () =>
      setImmediate(() => {
        if (connection === conn) recycle(channel, `the AMQP ${name} channel closed`)
      }),
    )
    return channel
  }
  async function connect() {
    const conn = await amqp.connect(options.amqpUrl, { clientProperties: { connection_name: `pixelfleet ${options.nodeId}` } })
    const channels: Channel[] = []
    /** set when this connection's setup failed: the caller retries, not the close handler */
    let abandoned = false
    conn.on('error', (error: Error) => log.warn(`broker: AMQP connection: ${error.message}`))
    conn.on('close', () => {
      for (const channel of channels) closedChannels.add(channel)
      stopRetiredDrains()
      connection = null
      publisher = null
      deadLetters = null
      if (closing || abandoned) return
      log.warn(`broker: AMQP connection lost; reconnecting in ${RECONNECT_MS} ms`)
      setTimeout(reconnect, RECONNECT_MS).unref()
    })
    try {
      await setUp(conn, channels)
    } catch (error) {
      abandoned = true
      await conn.close().catch(() => {})
      throw error
    }
  }
  async function setUp(conn: ChannelModel, channels: Channel[]) {
    publisher = watch(conn, await conn.createChannel(), channels, 'publishing')
    await publisher.assertExchange(EVENTS_EXCHANGE, 'fanout', { durable: true })

    const events = watch(conn, await conn.createChannel(), channels, 'events')
    const own = await events.assertQueue('', { exclusive: true, autoDelete: true })
    await events.bindQueue(own.queue, EVENTS_EXCHANGE, '')
    await events.consume(own.queue, (message) => (message ? onRemoteEvents(message) : consumerCancelled(events, own.queue)), { noAck: true })
    const fresh = !consumers
    if (fresh) {
      // Every node must split the routing keys the same way: hear the running nodes' counts first.
      await new Promise((resolve) => setTimeout(resolve, PARTITION_CHECK_MS))
      const others = membership.mismatched
      if (others.length) {
        throw new ConfigError(
          `INGEST_PARTITIONS is ${partitionCount} here but ${others.map((o) => `${o.partitions} on node ${o.nodeId}`).join(', ')}: every node must use the same count. ` +
            'To change it, stop all nodes, then start them with the new count (docs/deployment.md).',
        )
      }
    }

    const ingest = watch(conn, await conn.createChannel(), channels, 'ingest')
    // per consumer, i.e. per partition this node is active on
    await ingest.prefetch(options.prefetch)
    await declarePartitions(ingest, { topicExchange: TOPIC_EXCHANGE, bindings: INGEST_BINDINGS, partitions: partitionCount })
    deadLetters = watch(conn, await conn.createConfirmChannel(), channels, 'dead-letter') as amqp.ConfirmChannel
    stopRetiredDrains = await drainRetiredQueues(conn, {
      partitions: partitionCount,
      topicExchange: TOPIC_EXCHANGE,
      bindings: INGEST_BINDINGS,
      prefetch: options.prefetch,
      log,
      onMessage: (channel, message) => {
        channels.push(channel)
        return track(channel, message)
      },
      beforeFirstMessage: forgetCachedAgents,
    })
    consumers = new PartitionConsumers(ingest, { nodeId: options.nodeId, partitions: partitionCount, onMessage: (message) => onIngest(ingest, message), onForeignPartition: forgetCachedAgents, onCancelled: (partition) => consumerCancelled(ingest, partitionQueue(partition)) })
    await consumers.start()

    const presence = watch(conn, await conn.createChannel(), channels, 'presence')
    await presence.prefetch(100)
    await presence.assertQueue(PRESENCE_QUEUE, { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-single-active-consumer': true } })
    for (const key of ['connection.created', 'connection.closed']) await presence.bindQueue(PRESENCE_QUEUE, EVENT_EXCHANGE, key)
    await presence.consume(PRESENCE_QUEUE, (message) => onPresence(presence, message))

    connection = conn
    // registered behind the other nodes on every partition: they hand this node its share
    if (fresh) membership.start()
    else membership.reconnected()
  }
  function reconnect() {
    if (closing) return
    connect().catch((error: Error) => {
      log.warn(`broker: AMQP reconnect failed: ${error.message}`)
      setTimeout(reconnect, RECONNECT_MS).unref()
    })
  }

  await connectAtStart(connect, options.amqpUrl, RECONNECT_MS, log)
  return {
    port: Number(new URL(options.mqttUrl).port || 1883),
    ownedPartitions: () => consumers?.ownedPartitions ?? [],
    connected: () => connection !== null,
    liveNodes: () => membership.live,
    queueDepths: async () => {
      const depths = new Map<number, number>()
      if (!connection) return depths
      // its own channel: a failed check closes the channel it ran on
      const channel = await connection.createChannel()
      channel.on('error', () => {})
      try {
        for (let p = 0; p < partitionCount; p++) depths.set(p, (await channel.checkQueue(partitionQueue(p))).messageCount)
      } finally {
        await channel.close().catch(() => {})
      }
      return depths
    },
    close: async () => {
      closing = true
      // messages waiting to retry stop and stay unacknowledged: the broker hands them to the next node
      health.wakeAll()
      presenceHealth.wakeAll()
      stopDeadLetterCount()
      membership.stop()
      stopForwarding()
      stopConfigListener()
      clearInterval(configTimer)
      if (eventTimer) clearTimeout(eventTimer)
      flushEvents()
      // Messages being committed finish and are acknowledged; the rest go back to the queue for the others.
      await Promise.all([...inflight])
      await ingestAcks.sent()
      await presenceChain
      await connection?.close().catch(() => {})
      await mqttClient.endAsync().catch(() => {})
    },
  }
}

/** The sender of a message taken from the ingest queue, from its topic: RabbitMQ let it publish only there. */
function identityFromTopic(topic: string): Identity | null {
  const parts = topic.split('/')
  if (parts[2] === 'agents' && parts[3]) return { kind: 'agent', agentId: parts[3] }
  if (parts[2] === 'provision' && parts[3]) return { kind: 'provision', clientId: parts[3] }
  return null
}
