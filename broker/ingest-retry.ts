/**
 * Retrying what the external broker's ingest consumers could not store (docs/decisions/021).
 *
 * A message whose commit fails stays unacknowledged on this node and is tried again after a
 * backoff (exponential with jitter, capped): it is never put back in its queue, so RabbitMQ
 * counts no redelivery and no delivery limit can drop it; if this node dies meanwhile, its
 * connection closes and RabbitMQ hands the message to the next consumer. While storing fails,
 * every waiting message is woken as soon as one succeeds, so ingest resumes within a second of the
 * database's return rather than after the longest backoff.
 *
 * IngestHealth keeps the log to two lines per outage: one when storing starts failing, one when it
 * works again, with how long it failed, how many attempts failed and how many messages waited.
 */
type Logger = { warn: (message: string) => void }

export const RETRY_FIRST_MS = 250
export const RETRY_MAX_MS = 5000
/** A message failing because of itself (a constraint, a value out of range) is tried this often before it is dead-lettered. */
export const PERMANENT_FAILURE_ATTEMPTS = 3

/** The wait before attempt `attempt + 1` (attempt >= 1): doubling from RETRY_FIRST_MS, capped, ±25 % jitter. */
export function retryDelay(attempt: number, random = Math.random): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt - 1, 16))
  return Math.round(base * (0.75 + random() * 0.5))
}

/** What the two log lines of an outage say (ingest's reports by default; presence has its own). */
export type HealthWording = { failing: string; recovered: string; waited: string }
export const INGEST_WORDING: HealthWording = {
  failing: 'ingest: storing messages fails ({reason}); holding them unacknowledged and retrying with backoff',
  recovered: 'ingest: storing works again',
  waited: 'messages waited',
}

export class IngestHealth {
  private failingSince: number | null = null
  private failedAttempts = 0
  private readonly waiting = new Set<() => void>()
  private waitedMessages = 0

  constructor(
    private readonly log: Logger,
    private readonly now = Date.now,
    private readonly wording: HealthWording = INGEST_WORDING,
  ) {}

  get failing() {
    return this.failingSince !== null
  }

  /** An attempt failed (transient or not); logs only the first failure of an outage. */
  failed(reason: string) {
    this.failedAttempts++
    if (this.failingSince !== null) return
    this.failingSince = this.now()
    this.log.warn(this.wording.failing.replace('{reason}', () => reason.split('\n')[0].slice(0, 300)))
  }

  /** An attempt succeeded: ends an outage (one line) and wakes every message waiting to retry. */
  succeeded() {
    if (this.failingSince === null) return
    const seconds = ((this.now() - this.failingSince) / 1000).toFixed(1)
    this.log.warn(`${this.wording.recovered} after ${seconds} s (${this.failedAttempts} failed attempts, ${this.waitedMessages} ${this.wording.waited})`)
    this.failingSince = null
    this.failedAttempts = 0
    this.waitedMessages = 0
    const waiting = [...this.waiting]
    this.waiting.clear()
    for (const wake of waiting) wake()
  }

  /** Waits `ms`, or less if storing recovers meanwhile (or wakeAll() at shutdown). */
  wait(ms: number, first: boolean): Promise<void> {
    if (first) this.waitedMessages++
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.waiting.delete(done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.waiting.add(done)
    })
  }

  /** Wakes every waiting message (shutdown: they stop retrying and stay unacknowledged). */
  wakeAll() {
    const waiting = [...this.waiting]
    this.waiting.clear()
    for (const wake of waiting) wake()
  }
}
