/**
 * How long an alarm's last activation lasted, from its history (pure, shared by the server and
 * tests). Entries with a count start or continue an activation; a count of 0 ends it unless the
 * count comes back within the hold-down (ISSUE_CLEAR_HOLD_MS), which continues the same activation,
 * as ingest decides (agents/derived.ts isIssueActive).
 */
import { ISSUE_CLEAR_HOLD_MS } from '../agents/derived'

export type HistoryPoint = { timestamp: Date | string | number; count: number }

/**
 * The last activation's start and end. The end is the first healthy (count 0) entry after the
 * last count (`healthy`), or `clearedAt` when the issue stopped being reported without one. null
 * without any entry with a count.
 */
export function lastActivationSpan(history: readonly HistoryPoint[], clearedAt: Date): { start: Date; end: Date; healthy: boolean } | null {
  const points = history.map((h) => ({ t: new Date(h.timestamp).getTime(), count: h.count })).sort((a, b) => a.t - b.t)
  let start: number | null = null
  let healthySince: number | null = null
  for (const p of points) {
    if (p.count > 0) {
      // a new activation unless the fault came back within the hold-down
      if (start === null || (healthySince !== null && p.t - healthySince >= ISSUE_CLEAR_HOLD_MS)) start = p.t
      healthySince = null
    } else if (start !== null && healthySince === null) {
      healthySince = p.t
    }
  }
  if (start === null) return null
  const end = healthySince ?? clearedAt.getTime()
  return { start: new Date(start), end: new Date(Math.max(start, end)), healthy: healthySince !== null }
}

/** "42 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`
  const days = Math.floor(hours / 24)
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`
}
