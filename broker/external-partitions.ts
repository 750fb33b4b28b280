/**
 * Ingest partitions on the external broker (docs/decisions/011-ingest-partitions.md).
 *
 * The agents' topics reach `pixelfleet.ingest.hash`, a consistent-hash exchange (RabbitMQ's
 * rabbitmq_consistent_hash_exchange plugin) bound to `amq.topic`; it spreads them by routing key
 * over `partitions` quorum queues `pixelfleet.ingest.p<i>`. One routing key (one agent's one call)
 * always lands in the same partition, so one node commits it and its messages stay in order.
 *
 * Every node consumes every partition queue with single-active-consumer: RabbitMQ delivers a
 * partition to one consumer at a time and the others wait as standbys, so when a node dies (its
 * connection closes) the next one takes its partitions at once, with no timeout of ours. Which
 * node is active is the order of registration; nodes balance it themselves: they hear each other
 * through heartbeats (Membership below) and each one re-registers (cancel + consume: to the back of
 * the line) the partitions owned by another live node, so the owner comes first.
 */
import type { Channel, ConsumeMessage } from 'amqplib'

export const HASH_EXCHANGE = 'pixelfleet.ingest.hash'
/**
 * The partition queues. `q`, not the first version's `p`: those were declared with a delivery
 * limit (which dropped messages whose commit kept failing) and a queue's arguments cannot change,
 * so they are retired like any queue beyond the partition count (retiredQueues below).
 */
export const partitionQueue = (partition: number) => `pixelfleet.ingest.q${partition}`
/** The first version's partition queues (with `x-delivery-limit`): drained and deleted at start. */
export const firstVersionPartitionQueue = (partition: number) => `pixelfleet.ingest.p${partition}`
/** Messages that can never be stored (refused as invalid, or failing because of themselves), kept for site admins. */
export const DEAD_LETTER_QUEUE = 'pixelfleet.ingest.dead'
/** The dead-letter queue keeps the newest this many (oldest dropped): a misbehaving agent cannot fill the broker's disk. */
export const DEAD_LETTER_MAX = 100_000
export const DEFAULT_PARTITIONS = 8
/** server/config.ts's bound of INGEST_PARTITIONS: queues beyond a smaller count are looked for up to here. */
export const MAX_PARTITIONS = 64

/** The node that should consume `partition` among the live nodes: sorted ids, round robin. */
export function ownerOf(partition: number, nodes: string[]): string {
  const sorted = [...new Set(nodes)].sort()
  return sorted[partition % sorted.length]
}

/** The partitions `nodeId` owns among `nodes`. */
export const ownedBy = (nodeId: string, nodes: string[], partitions: number) =>
  new Set(Array.from({ length: partitions }, (_, p) => p).filter((p) => ownerOf(p, nodes) === nodeId))

/**
 * Declares the hash exchange, its binding to the topic exchange, the partition queues and the
 * dead-letter queue (idempotent). No delivery limit: a failing commit is retried by the consumer
 * without returning the message (ingest-retry.ts), so redeliveries only follow a node's death.
 */
export async function declarePartitions(channel: Channel, options: { topicExchange: string; bindings: string[]; partitions: number }) {
  await channel.assertExchange(HASH_EXCHANGE, 'x-consistent-hash', { durable: true })
  for (const key of options.bindings) await channel.bindExchange(HASH_EXCHANGE, options.topicExchange, key)
  await channel.assertQueue(DEAD_LETTER_QUEUE, { durable: true, arguments: { 'x-queue-type': 'quorum', 'x-max-length': DEAD_LETTER_MAX } })
  for (let p = 0; p < options.partitions; p++) {
    await channel.assertQueue(partitionQueue(p), {
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-single-active-consumer': true },
    })
    // the binding key of a consistent-hash exchange is the queue's weight: all equal
    await channel.bindQueue(partitionQueue(p), HASH_EXCHANGE, '1')
  }
}

/**
 * This node's consumers of the partition queues on one channel. `rebalance` re-registers the
 * partitions another live node owns; a delivery from a partition this node does not own means it
 * just took over a dead node's (or a rebalance is under way), reported once per partition through
 * `onForeignPartition` so ingest caches filled elsewhere are dropped first.
 */
export class PartitionConsumers {
  private readonly tags = new Map<number, string>()
  private owned = new Set<number>()
  private readonly foreignSeen = new Set<number>()
  private chain: Promise<void> = Promise.resolve()
  private serial = 0

  constructor(
    private readonly channel: Channel,
    private readonly options: {
      nodeId: string
      partitions: number
      onMessage: (message: ConsumeMessage, partition: number) => void
      onForeignPartition: (partition: number) => void
      /** the broker cancelled this node's consumer of `partition` (the queue went away or restarted): this node no longer consumes it */
      onCancelled?: (partition: number) => void
    },
  ) {}

  /** Registers on every partition (a standby where another node registered first). */
  async start() {
    this.owned = new Set(Array.from({ length: this.options.partitions }, (_, p) => p))
    for (let p = 0; p < this.options.partitions; p++) await this.subscribe(p)
  }

  private async subscribe(partition: number) {
    // the tag names node and partition: `rabbitmqctl list_consumers` shows who is active where
    const consumerTag = `${this.options.nodeId}.p${partition}.${++this.serial}`
    await this.channel.consume(partitionQueue(partition), (message) => this.deliver(message, partition), { consumerTag })
    this.tags.set(partition, consumerTag)
  }

  private deliver(message: ConsumeMessage | null, partition: number) {
    // (our own cancel in rebalance delivers nothing here: only the broker's)
    if (!message) return this.options.onCancelled?.(partition)
    if (!this.owned.has(partition) && !this.foreignSeen.has(partition)) {
      this.foreignSeen.add(partition)
      this.options.onForeignPartition(partition)
    }
    this.options.onMessage(message, partition)
  }

  /** The live nodes changed: give the partitions others own to them (serialized). */
  rebalance(nodes: string[]): Promise<void> {
    this.chain = this.chain.then(async () => {
      const owned = ownedBy(this.options.nodeId, nodes, this.options.partitions)
      const previous = this.owned
      this.owned = owned
      this.foreignSeen.clear()
      for (let p = 0; p < this.options.partitions; p++) {
        if (owned.has(p)) {
          // a partition gained from a node that left: its agents' cached state came from elsewhere
          if (!previous.has(p)) {
            this.foreignSeen.add(p)
            this.options.onForeignPartition(p)
          }
          continue
        }
        const tag = this.tags.get(p)
        if (tag) await this.channel.cancel(tag)
        await this.subscribe(p)
      }
    })
    return this.chain
  }

  /** Partitions this node owns now (logs, tests). */
  get ownedPartitions() {
    return [...this.owned].sort((a, b) => a - b)
  }
}

/**
 * The live nodes, from heartbeats every node publishes on the events exchange. A node unheard of
 * for `timeoutMs`, or one that said goodbye, is gone; a node whose epoch (the start of its current
 * broker connection) changed reconnected, so its consumers are new, at the back of every line.
 * `onChange` gets the sorted live ids (this node included) after every change.
 */
export class Membership {
  private readonly nodes = new Map<string, { epoch: number; seenAt: number; partitions: number | null }>()
  private epoch = Date.now()
  private timer: NodeJS.Timeout | null = null
  private debounce: NodeJS.Timeout | null = null

  constructor(
    private readonly options: {
      nodeId: string
      /** this node's INGEST_PARTITIONS, announced in every heartbeat */
      partitions: number
      intervalMs: number
      timeoutMs: number
      send: (body: Buffer) => void
      onChange: (nodes: string[]) => void
    },
  ) {}

  start() {
    this.beat()
    // nodes heard before the start (the partition count check) are balanced with now
    this.changed()
    this.timer = setInterval(() => {
      this.beat()
      const now = Date.now()
      for (const [id, node] of this.nodes) {
        if (now - node.seenAt <= this.options.timeoutMs) continue
        this.nodes.delete(id)
        this.changed()
      }
    }, this.options.intervalMs)
    this.timer.unref()
  }

  private beat(goodbye = false) {
    try {
      this.options.send(Buffer.from(JSON.stringify({ nodeId: this.options.nodeId, epoch: this.epoch, partitions: this.options.partitions, goodbye })))
    } catch {
      // no connection: the first beat after the reconnect announces us
    }
  }

  /** This node's connection is new (its consumers too): tell the others at once. */
  reconnected() {
    this.epoch = Date.now()
    this.beat()
    this.changed()
  }

  /** A heartbeat (this node's own ones are ignored). */
  heard(body: Buffer) {
    let beat: { nodeId?: unknown; epoch?: unknown; partitions?: unknown; goodbye?: unknown }
    try {
      beat = JSON.parse(body.toString('utf8'))
    } catch {
      return
    }
    if (typeof beat.nodeId !== 'string' || beat.nodeId === this.options.nodeId) return
    const known = this.nodes.get(beat.nodeId)
    if (beat.goodbye === true) {
      if (known) {
        this.nodes.delete(beat.nodeId)
        this.changed()
      }
      return
    }
    const epoch = Number(beat.epoch) || 0
    // (nodes of the first version announce no count)
    const partitions = Number.isInteger(beat.partitions) ? (beat.partitions as number) : null
    this.nodes.set(beat.nodeId, { epoch, seenAt: Date.now(), partitions })
    if (!known || known.epoch !== epoch) this.changed()
  }

  /** Live nodes that announce a partition count other than this node's. */
  get mismatched(): { nodeId: string; partitions: number }[] {
    const now = Date.now()
    return [...this.nodes]
      .filter(([, node]) => node.partitions !== null && node.partitions !== this.options.partitions && now - node.seenAt <= this.options.timeoutMs)
      .map(([nodeId, node]) => ({ nodeId, partitions: node.partitions! }))
  }

  get live() {
    return [this.options.nodeId, ...this.nodes.keys()].sort()
  }

  private changed() {
    if (this.debounce) clearTimeout(this.debounce)
    this.debounce = setTimeout(() => {
      this.debounce = null
      this.options.onChange(this.live)
    }, 200)
    this.debounce.unref()
  }

  /** Says goodbye so the others rebalance now rather than after the timeout. */
  stop() {
    if (this.timer) clearInterval(this.timer)
    if (this.debounce) clearTimeout(this.debounce)
    this.beat(true)
  }
}
