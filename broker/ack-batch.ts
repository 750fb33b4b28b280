/**
 * Acknowledgements of the external broker's ingest messages, sent once per turn of the event loop
 * per channel instead of one AMQP frame per message: one `ack(multiple = true)` for the longest run
 * of settled messages from the oldest outstanding one, and single acks for settled messages behind
 * one still in progress (a commit retrying with backoff must not hold back the others' acks, which
 * count against the prefetch). A batch of messages commits together, so normally a whole turn's
 * messages go in one frame (profile of a scale-out node: a frame and a write per message).
 *
 * Nothing is acknowledged before its message was settled: a `multiple` ack covers only delivery
 * tags this channel delivered and that were all settled.
 */
export type AckChannel = { ack(message: { fields: { deliveryTag: number } }, allUpTo?: boolean): void }
type Message = { fields: { deliveryTag: number } }

type ChannelAcks = {
  /** delivered and not yet acknowledged, in delivery order (tags increase per channel) */
  outstanding: Map<number, Message>
  /** settled since the last flush */
  settled: Set<number>
  scheduled: boolean
}

export class AckBatches {
  private readonly channels = new WeakMap<AckChannel, ChannelAcks>()

  /** A message delivered on `channel` that will be settled through `settle`. */
  delivered(channel: AckChannel, message: Message) {
    let acks = this.channels.get(channel)
    if (!acks) {
      acks = { outstanding: new Map(), settled: new Set(), scheduled: false }
      this.channels.set(channel, acks)
    }
    acks.outstanding.set(message.fields.deliveryTag, message)
  }

  /**
   * The message is done: acknowledged with the next flush. False when it was not registered with
   * `delivered` (the caller acknowledges it alone).
   */
  settle(channel: AckChannel, message: Message): boolean {
    const acks = this.channels.get(channel)
    if (!acks?.outstanding.has(message.fields.deliveryTag)) return false
    acks.settled.add(message.fields.deliveryTag)
    if (!acks.scheduled) {
      acks.scheduled = true
      setImmediate(() => this.flush(channel, acks))
    }
    return true
  }

  /** Resolves after the acks of everything settled so far were sent (before closing the connection). */
  sent(): Promise<void> {
    // flushes run as immediates in the order they were scheduled: one scheduled now runs after them
    return new Promise((resolve) => setImmediate(resolve))
  }

  private flush(channel: AckChannel, acks: ChannelAcks) {
    acks.scheduled = false
    let upTo: Message | null = null
    for (const [tag, message] of acks.outstanding) {
      if (!acks.settled.has(tag)) break
      upTo = message
      acks.outstanding.delete(tag)
      acks.settled.delete(tag)
    }
    try {
      if (upTo) channel.ack(upTo, true)
      for (const tag of acks.settled) {
        channel.ack(acks.outstanding.get(tag)!)
        acks.outstanding.delete(tag)
      }
    } catch {
      // the channel closed after the commits: its unacknowledged messages come again (stored at least once)
    }
    acks.settled.clear()
  }
}
