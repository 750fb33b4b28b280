// Batched acknowledgements of the external broker's ingest messages (broker/ack-batch.ts): nothing
// acknowledged before it is settled, one multiple ack for a settled run, single acks behind a gap.
import { describe, expect, it } from 'vitest'
import { AckBatches } from '../../broker/ack-batch'

const message = (deliveryTag: number) => ({ fields: { deliveryTag } })
function channel() {
  const acks: [number, boolean][] = []
  return { acks, ack: (m: { fields: { deliveryTag: number } }, allUpTo = false) => void acks.push([m.fields.deliveryTag, allUpTo]) }
}

describe('AckBatches', () => {
  it('acknowledges a settled run with one multiple ack, once per turn', async () => {
    const batches = new AckBatches()
    const ch = channel()
    for (let tag = 1; tag <= 5; tag++) batches.delivered(ch, message(tag))
    for (let tag = 1; tag <= 5; tag++) expect(batches.settle(ch, message(tag))).toBe(true)
    expect(ch.acks).toEqual([])
    await batches.sent()
    expect(ch.acks).toEqual([[5, true]])
  })

  it('never covers a message still in progress: those behind it go alone', async () => {
    const batches = new AckBatches()
    const ch = channel()
    for (let tag = 1; tag <= 5; tag++) batches.delivered(ch, message(tag))
    for (const tag of [1, 2, 4, 5]) batches.settle(ch, message(tag))
    await batches.sent()
    expect(ch.acks).toEqual([
      [2, true],
      [4, false],
      [5, false],
    ])
    // the one in progress settles later: acknowledged alone, nothing twice
    batches.settle(ch, message(3))
    await batches.sent()
    expect(ch.acks.at(-1)).toEqual([3, true])
    expect(ch.acks).toHaveLength(4)
  })

  it('leaves messages it was not told about to the caller, and survives a closed channel', async () => {
    const batches = new AckBatches()
    const ch = channel()
    expect(batches.settle(ch, message(1))).toBe(false)
    const closed = { ack: () => { throw new Error('Channel closed') } }
    batches.delivered(closed, message(1))
    batches.settle(closed, message(1))
    await expect(batches.sent()).resolves.toBeUndefined()
  })
})
