import { type ChangeEvent, onChange, onWork } from '../events/bus.server'
import { isUnavailableError } from '~/utils/errors.server'
import { componentLogger, type ComponentLogger } from '~/utils/logger.server'
import { counter, gauge } from '~/utils/metrics.server'

/**
 * The one way background work runs in a server process (mail sender, channel sender, notification
 * delivery, offline sweep): a run `intervalMs` after the last one, an early run when the change bus
 * announces work for it, never two runs of the same poller at once, and a run asked for while one is
 * under way happens right after it (so a wake-up is never lost).
 *
 * A poller that knows when its next work becomes due (`nextDueAt`: the earliest nextAttemptAt, a
 * batch window's end) sleeps until then instead, and its interval is only a safety net for work
 * written by another node that died before doing it: an idle server runs no query per second
 * (issue #26, docs/decisions/050-idle-pollers-sleep-until-due.md).
 *
 * Failures are told once: "X is failing: <reason>" on the first failed run, nothing on the ones
 * after it, "X recovered after N failures" on the first good run. While the database is down every
 * run fails the same way, and a stack trace per tick told nothing new; a stack is only logged when
 * the first failure is not an unavailable database or broker (app/utils/errors.server.ts), that is
 * a bug.
 */

const failuresTotal = counter({ name: 'pixelfleet_poller_failures_total', help: 'Failed runs of background pollers (mail, channels, notifications, offline sweep)', labelNames: ['poller'] })
const failing = gauge({ name: 'pixelfleet_poller_failing', help: '1 while a background poller fails run after run, else 0', labelNames: ['poller'] })

export type FailureTracker = { succeeded: () => void; failed: (error: unknown) => void; failures: () => number }

/** The once-only failure and recovery lines of one poller. */
export function failureTracker(name: string, log: ComponentLogger = componentLogger('jobs')): FailureTracker {
  let failures = 0
  failing.set({ poller: name }, 0)
  return {
    succeeded: () => {
      if (failures === 0) return
      log.info(`${name} recovered after ${failures} failure${failures === 1 ? '' : 's'}`, { poller: name, failures })
      failures = 0
      failing.set({ poller: name }, 0)
    },
    failed: (error) => {
      failures++
      failuresTotal.inc({ poller: name })
      if (failures > 1) return
      failing.set({ poller: name }, 1)
      const reason = error instanceof Error ? error.message.split('\n').find((line) => line.trim()) ?? error.name : String(error)
      const unavailable = isUnavailableError(error)
      log.error(`${name} is failing: ${reason.trim().slice(0, 300)}`, { poller: name, ...(unavailable || !(error instanceof Error) ? {} : { stack: error.stack }) })
    },
    failures: () => failures,
  }
}

export type PollerOptions = {
  /** for people: "mail sender", "offline sweep" */
  name: string
  intervalMs: number
  run: () => Promise<unknown>
  /** queues (announceWork) that wake this poller */
  queues?: string[]
  /** change-bus events that wake it */
  wakeOn?: (event: ChangeEvent) => boolean
  /** run once at start (picks up what a previous process left) */
  runAtStart?: boolean
  tracker?: FailureTracker
  /**
   * After each run: when the next work becomes due as far as the database says (null: nothing
   * known). The poller runs then if that is before its interval ends; new work must wake it
   * (queues, wakeOn) or wait for the interval.
   */
  nextDueAt?: () => Promise<Date | null>
}

/** Due-time runs are at least this far apart: a row that stays due (a sender without transport) must not spin. */
const MIN_DUE_SLEEP_MS = 250
/** After a failed run the next one comes at most this late, so a recovered database is noticed soon. */
const FAILURE_RETRY_MS = 5_000

export type Poller = {
  /** runs now (or right after the run under way); resolves when that run ended */
  kick: () => Promise<void>
  /** resolves when no run is under way or asked for */
  idle: () => Promise<void>
  stop: () => Promise<void>
}

export function startPoller(options: PollerOptions): Poller {
  const tracker = options.tracker ?? failureTracker(options.name)
  let running: Promise<void> | null = null
  let again = false
  let stopped = false
  let timer: NodeJS.Timeout | null = null

  const sleepUntil = (at: number) => {
    if (timer) clearTimeout(timer)
    timer = null
    if (stopped) return
    timer = setTimeout(() => void kick(), Math.max(0, at - Date.now()))
    timer.unref()
  }

  /** One run; returns when the next one is due. */
  const runOnce = async (): Promise<number> => {
    try {
      await options.run()
      const due = options.nextDueAt ? await options.nextDueAt() : null
      tracker.succeeded()
      const safetyNet = Date.now() + options.intervalMs
      return due ? Math.min(safetyNet, Math.max(due.getTime(), Date.now() + MIN_DUE_SLEEP_MS)) : safetyNet
    } catch (error) {
      tracker.failed(error)
      return Date.now() + Math.min(options.intervalMs, FAILURE_RETRY_MS)
    }
  }
  const kick = (): Promise<void> => {
    if (stopped) return running ?? Promise.resolve()
    if (running) {
      again = true
      return running
    }
    running = (async () => {
      let next: number
      do {
        again = false
        next = await runOnce()
      } while (again && !stopped)
      sleepUntil(next)
      running = null
    })()
    return running
  }

  sleepUntil(Date.now() + options.intervalMs)
  const queues = new Set(options.queues ?? [])
  const offWork = queues.size ? onWork((queue) => queues.has(queue) && void kick()) : () => {}
  const offChange = options.wakeOn ? onChange((event) => options.wakeOn!(event) && void kick()) : () => {}
  if (options.runAtStart) void kick()

  const idle = async () => {
    while (running) await running
  }
  return {
    kick,
    idle,
    stop: async () => {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      offWork()
      offChange()
      await idle()
    },
  }
}
