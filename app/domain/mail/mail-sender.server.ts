import { deliverDueMail } from './mail.server'

/** How often the background sender looks for messages due for (another) attempt. */
export const MAIL_SENDER_INTERVAL_MS = 5_000

/**
 * The background sender: retries failed sends with backoff. State lives in the outbox rows
 * (attempts, nextAttemptAt), so a restart picks up where it stopped and several nodes can run it.
 */
export function startMailSender(intervalMs = MAIL_SENDER_INTERVAL_MS) {
  let running: Promise<unknown> | null = null
  const tick = () => {
    if (running) return
    running = deliverDueMail()
      .catch((error: Error) => console.error(`[mail] background sender: ${error.message}`))
      .finally(() => {
        running = null
      })
  }
  const timer = setInterval(tick, intervalMs)
  timer.unref()
  tick()
  return {
    stop: async () => {
      clearInterval(timer)
      await running
    },
  }
}
