/**
 * Ingest queues no partition maps to any more (docs/decisions/022): the partitions beyond a
 * lowered INGEST_PARTITIONS, the first version's `pixelfleet.ingest.p<i>` partitions and its
 * single `pixelfleet.ingest` queue. Each one found is unbound (nothing new lands there), its
 * messages are consumed like any partition's (one warning line with their count), and once it is
 * empty and no node consumes it any more it is deleted. Acknowledged reports in such a queue are
 * therefore stored, never stranded; their order relative to the new partitions is not kept.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib'
import { HASH_EXCHANGE, MAX_PARTITIONS, firstVersionPartitionQueue, partitionQueue } from './external-partitions'

type Logger = { warn: (message: string) => void }

/** The single queue of the first external-broker version (decision 010). */
export const LEGACY_INGEST_QUEUE = 'pixelfleet.ingest'
const CHECK_EMPTY_MS = 3000

export type RetiredQueueOptions = {
  partitions: number
  topicExchange: string
  bindings: string[]
  prefetch: number
  log: Logger
  /** handles one message; settles once it is acknowledged (or left to the broker at shutdown) */
  onMessage: (channel: Channel, message: ConsumeMessage) => Promise<void>
  /** called once before the first message of a retired queue: its agents' other calls are committed elsewhere */
  beforeFirstMessage: () => void
}

/** The names of the queues to look for: every one that is not a current partition. */
export function retiredCandidates(partitions: number): string[] {
  const names = [LEGACY_INGEST_QUEUE]
  for (let p = 0; p < MAX_PARTITIONS; p++) names.push(firstVersionPartitionQueue(p))
  for (let p = partitions; p < MAX_PARTITIONS; p++) names.push(partitionQueue(p))
  return names
}

/** Finds the retired queues on this connection and drains them; returns a function that stops the drains (connection close). */
export async function drainRetiredQueues(conn: ChannelModel, options: RetiredQueueOptions): Promise<() => void> {
  // checkQueue of a missing queue closes its channel: one probe channel per miss, reused after a hit
  let probe: Channel | null = null
  const found: { queue: string; messages: number }[] = []
  for (const queue of retiredCandidates(options.partitions)) {
    if (!probe) {
      probe = await conn.createChannel()
      probe.on('error', () => {})
    }
    const ok = await probe.checkQueue(queue).catch(() => null)
    if (!ok) {
      probe = null
      continue
    }
    found.push({ queue, messages: ok.messageCount })
  }
  await probe?.close().catch(() => {})
  const timers: NodeJS.Timeout[] = []
  let warned = false
  for (const { queue, messages } of found) {
    const channel = await conn.createChannel()
    channel.on('error', () => {})
    await channel.prefetch(options.prefetch)
    // nothing new lands there: from the hash exchange (partitions) or the topic exchange (the first single queue)
    if (queue === LEGACY_INGEST_QUEUE) for (const key of options.bindings) await channel.unbindQueue(queue, options.topicExchange, key)
    else await channel.unbindQueue(queue, HASH_EXCHANGE, '1')
    if (messages) options.log.warn(`broker: ${messages} messages in ${queue}, which no ingest partition maps to any more (INGEST_PARTITIONS=${options.partitions}); storing them`)
    const inflight = new Set<Promise<void>>()
    const consume = async () =>
      (
        await channel.consume(queue, (message) => {
          if (!message) return
          if (!warned) {
            warned = true
            options.beforeFirstMessage()
          }
          const work = options.onMessage(channel, message).finally(() => inflight.delete(work))
          inflight.add(work)
        })
      ).consumerTag
    let consumerTag: string | null = await consume()
    // Empty and nothing in flight here: stop consuming; delete it once no node consumes it any more.
    // Every node keeps looking until then (whichever deletes it, the others' next look fails and
    // stops): giving up when another node's consumer was still listed left retired queues behind
    // for good in the chaos suite (two nodes started together with a lowered count).
    let looking = false
    const timer = setInterval(() => {
      if (looking) return
      looking = true
      void (async () => {
        if (inflight.size) return
        let state = await channel.checkQueue(queue)
        if (consumerTag) {
          if (state.messageCount) return
          await channel.cancel(consumerTag)
          consumerTag = null
          state = await channel.checkQueue(queue)
        }
        if (state.messageCount === 0 && state.consumerCount === 0) {
          clearInterval(timer)
          await channel.deleteQueue(queue)
          options.log.warn(`broker: retired ingest queue ${queue} is empty; deleted it`)
          await channel.close()
        } else if (state.messageCount > 0 && state.consumerCount === 0) {
          // messages came back (a node consuming it died): take them again
          consumerTag = await consume()
        }
      })()
        .catch(() => {
          // the queue is gone (another node deleted it: the check closed the channel) or the connection closed
          clearInterval(timer)
        })
        .finally(() => (looking = false))
    }, CHECK_EMPTY_MS)
    timer.unref()
    timers.push(timer)
  }
  return () => timers.forEach(clearInterval)
}
