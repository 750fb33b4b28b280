import { describe, expect, it } from 'vitest'
import { Membership } from '../../broker/external-partitions'
import { IngestHealth, RETRY_FIRST_MS, RETRY_MAX_MS, retryDelay } from '../../broker/ingest-retry'
import { LEGACY_INGEST_QUEUE, retiredCandidates } from '../../broker/retired-queues'
import { refusalBackoffMs } from '../../simulator/mqtt-rpc'
import { isPermanentFailure } from '../../ingest/failures.server'

describe('external broker ingest retries', () => {
  it('backs off exponentially with jitter, capped', () => {
    expect(retryDelay(1, () => 0.5)).toBe(RETRY_FIRST_MS)
    expect(retryDelay(2, () => 0.5)).toBe(RETRY_FIRST_MS * 2)
    expect(retryDelay(50, () => 0.5)).toBe(RETRY_MAX_MS)
    expect(retryDelay(50, () => 0)).toBe(RETRY_MAX_MS * 0.75)
    expect(retryDelay(50, () => 0.999)).toBeLessThanOrEqual(RETRY_MAX_MS * 1.25)
  })

  it('logs one line when storing starts failing and one when it recovers, with counts, and wakes waiting messages', async () => {
    const lines: string[] = []
    let now = 1000
    const health = new IngestHealth({ warn: (line) => lines.push(line) }, () => now)
    for (let i = 0; i < 500; i++) health.failed('the database system is shutting down')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain('the database system is shutting down')
    expect(health.failing).toBe(true)
    // a message waiting a long backoff is woken by the recovery, not by its timer
    const woken = health.wait(60_000, true)
    now = 39_000
    health.succeeded()
    await woken
    expect(lines).toHaveLength(2)
    expect(lines[1]).toBe('ingest: storing works again after 38.0 s (500 failed attempts, 1 messages waited)')
    health.succeeded()
    expect(lines).toHaveLength(2)
  })

  it('tells failures of the message from failures of the database', () => {
    expect(isPermanentFailure(Object.assign(new Error('value too long'), { code: '22001' }))).toBe(true)
    expect(isPermanentFailure(Object.assign(new Error('fk'), { code: '23503' }))).toBe(true)
    expect(isPermanentFailure(Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }))).toBe(true)
    expect(isPermanentFailure(Object.assign(new Error('the database system is shutting down'), { code: '57P03', transient: true }))).toBe(false)
    expect(isPermanentFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false)
    expect(isPermanentFailure(Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }))).toBe(false)
    expect(isPermanentFailure(new Error('The ingest worker stopped before committing'))).toBe(false)
  })

  it('agents back off after CONNACK refusals: 1 s doubling to 60 s', () => {
    expect(refusalBackoffMs(1, () => 0.5)).toBe(1000)
    expect(refusalBackoffMs(3, () => 0.5)).toBe(4000)
    expect(refusalBackoffMs(30, () => 0.5)).toBe(60_000)
  })
})

describe('partition count changes', () => {
  it('looks for every queue that is not a current partition', () => {
    const names = retiredCandidates(4)
    expect(names).toContain(LEGACY_INGEST_QUEUE)
    expect(names).toContain('pixelfleet.ingest.p0')
    expect(names).toContain('pixelfleet.ingest.q4')
    expect(names).toContain('pixelfleet.ingest.q63')
    expect(names).not.toContain('pixelfleet.ingest.q3')
  })

  it('a node hears the partition count of the others from their heartbeats', () => {
    const sent: Buffer[] = []
    const options = (nodeId: string, partitions: number) => ({ nodeId, partitions, intervalMs: 1000, timeoutMs: 4000, send: (body: Buffer) => sent.push(body), onChange: () => {} })
    const running = new Membership(options('node-a', 8))
    const starting = new Membership(options('node-b', 4))
    running.start()
    running.stop()
    starting.heard(sent[0])
    expect(starting.mismatched).toEqual([{ nodeId: 'node-a', partitions: 8 }])
    const same = new Membership(options('node-c', 8))
    same.heard(sent[0])
    expect(same.mismatched).toEqual([])
  })
})
