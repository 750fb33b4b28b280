import { startPoller } from '../jobs/poller.server'
import { MAIL_QUEUE, deliverDueMail, nextMailAttemptAt } from './mail.server'

/**
 * How long the background sender sleeps when no retry is known: it sleeps until the earliest
 * nextAttemptAt, and a failed send wakes it (announceWork), so this only catches messages of a node
 * that died between storing and sending them.
 */
export const MAIL_SENDER_INTERVAL_MS = 60_000

/**
 * The background sender: retries failed sends with backoff. State lives in the outbox rows
 * (attempts, nextAttemptAt), so a restart picks up where it stopped and several nodes can run it.
 * A new message is tried at once by sendMail itself.
 */
export function startMailSender(intervalMs = MAIL_SENDER_INTERVAL_MS) {
  return startPoller({ name: 'mail sender', intervalMs, run: () => deliverDueMail(), nextDueAt: nextMailAttemptAt, queues: [MAIL_QUEUE], runAtStart: true })
}
