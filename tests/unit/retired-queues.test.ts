// Retired ingest queues (broker/retired-queues.ts) on a fake broker: an emptied queue is deleted once
// no node consumes it, also when another node's consumer was still there at the first look (a
// node gave up then, and the chaos suite saw retired queues left behind), and messages that come
// back to a queue nobody consumes are taken again.
import type { ChannelModel, ConsumeMessage } from 'amqplib'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { drainRetiredQueues } from '../../broker/retired-queues'

type Queue = { messages: ConsumeMessage[]; consumers: Map<string, (message: ConsumeMessage | null) => void> }

/** The few AMQP calls drainRetiredQueues makes, on queues held in memory (a missing queue closes the channel, as RabbitMQ does). */
function fakeBroker(names: string[]) {
  const queues = new Map<string, Queue>(names.map((name) => [name, { messages: [], consumers: new Map() }]))
  let tags = 0
  const model = {
    createChannel: async () => {
      let closed = false
      const open = () => {
        if (closed) throw new Error('channel closed')
      }
      const queue = (name: string) => {
        const q = queues.get(name)
        if (!q) {
          closed = true
          throw new Error(`NOT_FOUND - no queue '${name}'`)
        }
        return q
      }
      const owned = new Map<string, string>()
      return {
        on: () => undefined,
        prefetch: async () => open(),
        unbindQueue: async (name: string) => (open(), queue(name), {}),
        checkQueue: async (name: string) => {
          open()
          const q = queue(name)
          return { queue: name, messageCount: q.messages.length, consumerCount: q.consumers.size }
        },
        consume: async (name: string, onMessage: (message: ConsumeMessage | null) => void) => {
          open()
          const consumerTag = `tag-${++tags}`
          queue(name).consumers.set(consumerTag, onMessage)
          owned.set(consumerTag, name)
          return { consumerTag }
        },
        cancel: async (consumerTag: string) => {
          open()
          queues.get(owned.get(consumerTag)!)?.consumers.delete(consumerTag)
          return { consumerTag }
        },
        deleteQueue: async (name: string) => {
          open()
          queue(name)
          queues.delete(name)
          return { messageCount: 0 }
        },
        close: async () => void (closed = true),
      }
    },
  }
  return { queues, connection: model as unknown as ChannelModel }
}

const options = (stored: ConsumeMessage[]) => ({
  partitions: 4,
  topicExchange: 'amq.topic',
  bindings: ['pixelfleet.v1.agents.*.request.*'],
  prefetch: 10,
  log: { warn: () => undefined },
  onMessage: async (_channel: unknown, message: ConsumeMessage) => void stored.push(message),
  beforeFirstMessage: () => undefined,
})

afterEach(() => void vi.useRealTimers())

describe('retired ingest queues', () => {
  it('are deleted once empty and no other node consumes them any more, though one did at the first look', async () => {
    vi.useFakeTimers()
    const { queues, connection } = fakeBroker(['pixelfleet.ingest.q4'])
    // another node consumes the queue too
    queues.get('pixelfleet.ingest.q4')!.consumers.set('other-node', () => undefined)
    const stop = await drainRetiredQueues(connection, options([]))
    await vi.advanceTimersByTimeAsync(10_000)
    expect(queues.has('pixelfleet.ingest.q4')).toBe(true)
    // the other node stops consuming without deleting it (it died, or saw this node's consumer)
    queues.get('pixelfleet.ingest.q4')!.consumers.delete('other-node')
    await vi.advanceTimersByTimeAsync(10_000)
    expect(queues.has('pixelfleet.ingest.q4')).toBe(false)
    stop()
  })

  it('takes messages again that came back to a queue nobody consumes', async () => {
    vi.useFakeTimers()
    const { queues, connection } = fakeBroker(['pixelfleet.ingest.q5'])
    const q5 = queues.get('pixelfleet.ingest.q5')!
    q5.consumers.set('other-node', () => undefined)
    const stored: ConsumeMessage[] = []
    const stop = await drainRetiredQueues(connection, options(stored))
    await vi.advanceTimersByTimeAsync(10_000)
    // this node stopped consuming; the other node dies holding a message, which goes back to the queue
    expect(q5.consumers.size).toBe(1)
    q5.consumers.delete('other-node')
    const returned = { content: Buffer.from('{}'), fields: { deliveryTag: 1 }, properties: {} } as unknown as ConsumeMessage
    q5.messages.push(returned)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(q5.consumers.size).toBe(1)
    // delivered to this node's new consumer, stored, then the queue is deleted
    const [deliver] = q5.consumers.values()
    q5.messages.length = 0
    deliver(returned)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(stored).toEqual([returned])
    expect(queues.has('pixelfleet.ingest.q5')).toBe(false)
    stop()
  })
})
