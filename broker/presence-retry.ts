/**
 * Presence writes (an agent's MQTT session opened or closed) that survive a database outage.
 *
 * A connect or disconnect that happens while the database is down used to be logged and dropped,
 * leaving the agent shown online or offline wrongly until its next session change. Presence is a
 * state, not a log: only the latest state per agent matters. So each agent has at most one write
 * in flight; a failed write is retried with the same backoff as ingest's (ingest-retry.ts), and a
 * newer event for the same agent replaces the state still waiting to be written (an agent that
 * reconnects during the outage ends up online, one that leaves ends up offline).
 *
 * The embedded broker uses PresenceWriter (the events live only in this process: if it dies, its
 * agents' sessions died with it and the next start marks everyone offline). The external broker's
 * presence events are queued by RabbitMQ and stay unacknowledged until written
 * (`writePresenceWithRetry`), so another node takes them over if this one dies.
 */
import { DomainError } from '../app/domain/errors'
import { IngestHealth, retryDelay, type HealthWording } from './ingest-retry'

type Logger = { warn: (message: string) => void }
export type PresenceWrite = (agentId: string, online: boolean) => Promise<void>

/** The log lines of a presence outage (two per outage, as for reports). */
export const PRESENCE_WORDING: HealthWording = {
  failing: 'presence: storing agents’ connects and disconnects fails ({reason}); keeping the latest state of each agent and retrying with backoff',
  recovered: 'presence: storing works again',
  waited: 'presence changes waited',
}

/**
 * Writes one presence change, retrying transient failures with backoff until it is stored,
 * `stopped()` says to give up (shutdown, or the broker channel holding the event closed), or the
 * agent no longer exists (a DomainError: nothing to store). Resolves true when stored or moot.
 */
export async function writePresenceWithRetry(write: () => Promise<void>, health: IngestHealth, stopped: () => boolean, log: Logger, what: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await write()
      health.succeeded()
      return true
    } catch (error) {
      if (error instanceof DomainError) {
        log.warn(`${what}: ${error.message}; not stored`)
        return true
      }
      health.failed((error as Error).message)
      await health.wait(retryDelay(attempt), attempt === 1)
      if (stopped()) return false
    }
  }
}

export class PresenceWriter {
  /** the latest state of each agent not yet written */
  private readonly wanted = new Map<string, boolean>()
  /** agents with a write (or its retries) in progress */
  private readonly writing = new Map<string, Promise<void>>()
  private readonly health: IngestHealth
  private stopped = false

  constructor(
    private readonly write: PresenceWrite,
    private readonly log: Logger,
  ) {
    this.health = new IngestHealth(log, Date.now, PRESENCE_WORDING)
  }

  /** Records the agent's new state; written now, or after the write in progress for it. */
  set(agentId: string, online: boolean) {
    if (this.stopped) return
    this.wanted.set(agentId, online)
    if (this.writing.has(agentId)) return
    const run = this.run(agentId).finally(() => this.writing.delete(agentId))
    this.writing.set(agentId, run)
  }

  /** How many agents' presence is waiting to be written (tests, shutdown). */
  get pending() {
    return this.writing.size
  }

  private async run(agentId: string) {
    while (!this.stopped && this.wanted.has(agentId)) {
      const online = this.wanted.get(agentId)!
      this.wanted.delete(agentId)
      await writePresenceWithRetry(
        () => this.write(agentId, online),
        this.health,
        // a newer state arrived meanwhile: write that one instead
        () => this.stopped || this.wanted.has(agentId),
        this.log,
        `presence of ${agentId}`,
      )
    }
  }

  /** Stops retrying (shutdown: the broker marks every agent offline on its way out and at its next start). */
  async stop() {
    this.stopped = true
    this.health.wakeAll()
    await Promise.all([...this.writing.values()])
  }
}
