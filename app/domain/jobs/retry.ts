/**
 * One delay table per kind of durable work (docs/architecture.md, Background work): how long to
 * wait before attempt n+1 after attempt n failed, and how long a claim (lease) keeps other nodes
 * off a row. A failed attempt past the end of its table is given up (the row becomes failed).
 */

export type JobKind = 'mail' | 'channel' | 'notification'

/** Mail: retried for about a day (SMTP outages are long, a lost alarm e-mail is worse than a late one). */
const MAIL_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 3 * 3600_000, 6 * 3600_000, 12 * 3600_000]

/** Channels: 10 s, 20 s, 40 s, ... capped at 1 h; how many attempts is CHANNEL_MAX_ATTEMPTS (the caller passes it). */
const channelDelayMs = (attempt: number) => Math.min(10_000 * 2 ** (attempt - 1), 3_600_000)

/**
 * A claimed row stays with its claimer this long; after it (the process died mid-attempt) another
 * node takes it over. Longer than one attempt can take: an SMTP send, an HTTP call with
 * CHANNEL_TIMEOUT_MS, one user's notification digest.
 */
export const LEASE_MS: Record<JobKind, number> = { mail: 60_000, channel: 120_000, notification: 5 * 60_000 }

export const MAIL_MAX_ATTEMPTS = MAIL_DELAYS_MS.length + 1

/**
 * The wait before the attempt after attempt `attempt` (1-based) failed, or null when that was the
 * last one. `maxAttempts` bounds kinds whose table is open-ended (channels).
 */
export function retryDelayMs(kind: JobKind, attempt: number, maxAttempts?: number): number | null {
  if (attempt < 1) return 0
  if (kind === 'mail') return MAIL_DELAYS_MS[attempt - 1] ?? null
  if (kind === 'channel') return attempt >= (maxAttempts ?? 6) ? null : channelDelayMs(attempt)
  // Notification deliveries are not retried themselves: their e-mail is, by the mail outbox.
  return null
}

/** When the next attempt is due, or null (given up). */
export function nextAttemptAt(kind: JobKind, attempt: number, now: Date, maxAttempts?: number): Date | null {
  const delay = retryDelayMs(kind, attempt, maxAttempts)
  return delay === null ? null : new Date(now.getTime() + delay)
}

/** The end of a claim taken at `now`. */
export const leaseUntil = (kind: JobKind, now: Date) => new Date(now.getTime() + LEASE_MS[kind])
