/** The durable job module (app/domain/jobs): delay tables, leases, once-only failure lines, wake-ups. No clock: long intervals, kicks by hand. */
import { describe, expect, it } from 'vitest'
import { announceWork } from '~/domain/events/bus.server'
import { workDue } from '~/domain/jobs/due.server'
import { failureTracker, startPoller } from '~/domain/jobs/poller.server'
import { LEASE_MS, MAIL_MAX_ATTEMPTS, nextAttemptAt, retryDelayMs } from '~/domain/jobs/retry'

const HOUR = 3_600_000

function recordingLog() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = []
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push({ level, message, fields })
  return { lines, log: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } }
}

const unavailable = () => Object.assign(new Error("Can't reach database server at 127.0.0.1:5432\n  at stack line"), { code: 'P1001' })

describe('delay tables', () => {
  it('mail retries for about a day, then gives up', () => {
    expect(retryDelayMs('mail', 1)).toBe(30_000)
    expect(retryDelayMs('mail', MAIL_MAX_ATTEMPTS - 1)).toBe(12 * HOUR)
    expect(retryDelayMs('mail', MAIL_MAX_ATTEMPTS)).toBeNull()
  })
  it('channels double from 10 s up to 1 h within their attempt limit', () => {
    expect([1, 2, 3].map((n) => retryDelayMs('channel', n, 6))).toEqual([10_000, 20_000, 40_000])
    expect(retryDelayMs('channel', 12, 20)).toBe(HOUR)
    expect(retryDelayMs('channel', 6, 6)).toBeNull()
    expect(nextAttemptAt('channel', 1, new Date(0), 6)).toEqual(new Date(10_000))
  })
})

describe('workDue', () => {
  it('lets exactly one of two nodes claim a row, and a dead claimer\'s row comes back after the lease', async () => {
    const row = { id: 'a', nextAttemptAt: 0 }
    const attempts: string[] = []
    const node = (name: string, now: number) =>
      workDue(
        {
          kind: 'mail',
          due: async (at) => (row.nextAttemptAt <= at.getTime() ? [{ ...row }] : []),
          // the conditional update: matches only the nextAttemptAt this node read
          claim: async (seen, until) => {
            if (row.nextAttemptAt !== seen.nextAttemptAt) return false
            row.nextAttemptAt = until.getTime()
            return true
          },
          attempt: async () => {
            attempts.push(name)
            return false
          },
        },
        new Date(now),
      )
    // both read the row before either claims it
    await Promise.all([node('one', 0), node('two', 0)])
    expect(attempts).toHaveLength(1)
    expect(row.nextAttemptAt).toBe(LEASE_MS.mail)
    expect(await node('three', LEASE_MS.mail - 1)).toBe(0)
    await node('four', LEASE_MS.mail)
    expect(attempts).toEqual([attempts[0], 'four'])
  })
})

describe('failureTracker', () => {
  it('says once that a poller is failing, without a stack while the database is down, and once that it recovered', () => {
    const { lines, log } = recordingLog()
    const tracker = failureTracker('test poller', log)
    for (let i = 0; i < 50; i++) tracker.failed(unavailable())
    tracker.succeeded()
    tracker.succeeded()
    expect(lines.map((l) => l.message)).toEqual(["test poller is failing: Can't reach database server at 127.0.0.1:5432", 'test poller recovered after 50 failures'])
    expect(lines[0]!.fields?.stack).toBeUndefined()
  })
  it('keeps the stack of a failure that is a bug', () => {
    const { lines, log } = recordingLog()
    failureTracker('buggy poller', log).failed(new TypeError('x is undefined'))
    expect(lines[0]!.message).toBe('buggy poller is failing: x is undefined')
    expect(String(lines[0]!.fields?.stack)).toContain('TypeError')
  })
})

describe('startPoller', () => {
  it('never overlaps runs, runs once more for kicks during a run, and wakes on its queue', async () => {
    let active = 0
    let most = 0
    let runs = 0
    let release: () => void = () => {}
    let gate = new Promise<void>((resolve) => (release = resolve))
    const poller = startPoller({
      name: 'test',
      intervalMs: HOUR,
      queues: ['test-queue'],
      tracker: failureTracker('test', recordingLog().log),
      run: async () => {
        active++
        most = Math.max(most, active)
        runs++
        await gate
        active--
      },
    })
    const first = poller.kick()
    void poller.kick()
    void poller.kick()
    release()
    gate = Promise.resolve()
    await first
    await poller.idle()
    // the first run, then one more for the two kicks made while it ran
    expect(runs).toBe(2)
    expect(most).toBe(1)
    announceWork('other-queue')
    await poller.idle()
    expect(runs).toBe(2)
    announceWork('test-queue')
    await poller.idle()
    expect(runs).toBe(3)
    await poller.stop()
    announceWork('test-queue')
    await poller.idle()
    expect(runs).toBe(3)
  })

  it('sleeps until the next due time it is told, not its interval, and not at all after stop', async () => {
    let runs = 0
    let due: Date | null = null
    const poller = startPoller({
      name: 'due test',
      intervalMs: HOUR,
      tracker: failureTracker('due test', recordingLog().log),
      run: async () => void runs++,
      nextDueAt: async () => due,
    })
    await poller.kick()
    expect(runs).toBe(1)
    // told that work is due now: it runs again by itself (real timers; waited for, not timed)
    due = new Date()
    await poller.kick()
    due = null
    const limit = Date.now() + 60_000
    while (runs < 3 && Date.now() < limit) await new Promise((resolve) => setTimeout(resolve, 20))
    await poller.idle()
    expect(runs).toBe(3)
    // nothing due after the third run: it sleeps for its interval (an hour); stopped, it never runs again
    due = new Date()
    await poller.stop()
    expect(runs).toBe(3)
  })
})
