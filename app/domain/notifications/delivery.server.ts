import { onChange } from '../events/bus.server'
import { failureTracker, startPoller } from '../jobs/poller.server'
import { flushNotifications, nextFlushAt } from './flush.server'
import { REPEAT_CHECK_MS, queueRepeats } from './follow-ups.server'
import { evaluateLostClears } from './clear-evaluation.server'
import { onIssueChangeEvent, queueUnevaluated } from './queue-deliveries.server'
import { getConfig } from '~/utils/env.server'

/**
 * E-mail notifications for alerts and deviations (spec 02 sections 2 and 4), run inside the
 * server process:
 *
 * 1. 'issue' change events (ingest's, after its commit; the offline sweep's; people's) are
 *    evaluated by queue-deliveries.server.ts: who must hear about each active issue, one pending
 *    NotificationDelivery row per (user, issue, activation, severity), channel messages queued.
 * 2. The flusher (flush.server.ts) sends each user's pending rows once the oldest has waited
 *    NOTIFY_BATCH_MS: one row becomes one e-mail, several become one digest (mail-content.server.ts).
 *    The queue lives in the database, so a restart loses nothing.
 *    An activation or escalation whose event was lost (the process died after ingest's commit)
 *    is evaluated when delivery starts and with each repeat check (Issue.notifyEvaluated).
 * 3. Follow-ups (follow-ups.server.ts, decision 048): a resolved message when a told activation
 *    clears, a repeat every repeatMinutes while it stays active (checked every REPEAT_CHECK_MS).
 *
 * Who: members of the issue's organization who can see its project (project.view through the
 * access engine, checked again at send time) and whose nearest subscription (project, parent
 * projects, organization, default) lets the severity through. Unassigned systems notify nobody.
 */

export { flushNotifications } from './flush.server'
export { queueRepeats, queueResolved } from './follow-ups.server'
export { onIssueChangeEvent, onIssuesActivated, queueUnevaluated, releaseMutedDeliveries, type IssueActivation } from './queue-deliveries.server'
export { evaluateClears, evaluateLostClears } from './clear-evaluation.server'

/**
 * Listens for 'issue' change events (every node hears every node's: app/domain/events/remote.server.ts)
 * and flushes when the earliest pending batch window ends (app/domain/jobs/poller.server.ts), with
 * the repeat check once a minute as its safety net: an idle server runs no flush query per second.
 * Evaluations and flushes never overlap (one poller runs both). `idle` waits for work in flight;
 * `stop` ends both and waits, so tests exit.
 */
export function startNotificationDelivery(): { idle: () => Promise<void>; stop: () => Promise<void> } {
  // Events arriving while a run is under way are coalesced into the next one (busy ingest, one query set).
  let changed = new Set<string>()
  let lastRepeatCheck = 0
  const poller = startPoller({
    name: 'notification delivery',
    // each run also releases muted deliveries whose window ended and takes back expired claims:
    // both are checked at least this often
    intervalMs: REPEAT_CHECK_MS,
    tracker: failureTracker('notification delivery'),
    // picks up what a previous process left pending
    runAtStart: true,
    nextDueAt: async () => {
      const flushAt = await nextFlushAt(getConfig().NOTIFY_BATCH_MS)
      const repeatAt = new Date(lastRepeatCheck + REPEAT_CHECK_MS)
      return flushAt && flushAt < repeatAt ? flushAt : repeatAt
    },
    run: async () => {
      if (changed.size) {
        const ids = [...changed]
        changed = new Set()
        await onIssueChangeEvent(ids).catch((error: unknown) => {
          // not lost: evaluated again with the next run
          for (const id of ids) changed.add(id)
          throw error
        })
      }
      if (Date.now() - lastRepeatCheck >= REPEAT_CHECK_MS) {
        // activations and clears whose change event was lost with a process (first at start)
        await queueUnevaluated()
        await evaluateLostClears()
        await queueRepeats()
        lastRepeatCheck = Date.now()
      }
      await flushNotifications()
    },
  })
  const unsubscribe = onChange((event) => {
    if (event.kind !== 'issue' || !event.ids?.length) return
    for (const id of event.ids) changed.add(id)
    void poller.kick()
  })
  return {
    idle: poller.idle,
    stop: async () => {
      unsubscribe()
      await poller.stop()
    },
  }
}
