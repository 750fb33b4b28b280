import { startPoller } from '../jobs/poller.server'
import { deliverDueMail } from './mail.server'

/** How often the background sender looks for messages due for (another) attempt. */
export const MAIL_SENDER_INTERVAL_MS = 5_000

/**
 * The background sender: retries failed sends with backoff. State lives in the outbox rows
 * (attempts, nextAttemptAt), so a restart picks up where it stopped and several nodes can run it.
 * A new message is tried at once by sendMail itself, so no wake-up is needed here.
 */
export function startMailSender(intervalMs = MAIL_SENDER_INTERVAL_MS) {
  return startPoller({ name: 'mail sender', intervalMs, run: () => deliverDueMail(), runAtStart: true })
}
