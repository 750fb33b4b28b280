import { type Component, type Condition, type Severity } from './devices/types'

export type HistoryEntry = { timestamp: Date; count: number }

export type IssueRecord = {
  kind: 'alert' | 'deviation'
  key: string
  component: Component
  message: string
  severity: Severity
  /** the device concerned when exactly one is affected */
  deviceKey?: string
  history: HistoryEntry[]
}

/** Issue history window (spec: 10 days); cleared issues are reported until they fall out of it. */
export const ISSUE_HISTORY_WINDOW_MS = 864_000_000
/** Enough entries for the history chart without letting a flapping alert grow the state forever. */
export const MAX_HISTORY_ENTRIES = 50

/**
 * Turns the conditions a system shows at each tick into alerts and deviations with history:
 * an entry with the affected count whenever it changes, and an entry with count 0 when it clears.
 */
export class IssueTracker {
  private readonly records = new Map<string, IssueRecord>()

  update(now: Date, conditions: Condition[]) {
    const grouped = new Map<string, Condition[]>()
    for (const condition of conditions) {
      const id = `${condition.kind}:${condition.key}`
      grouped.set(id, [...(grouped.get(id) ?? []), condition])
    }
    for (const [id, group] of grouped) {
      const worst = group.reduce((a, b) => (b.severity < a.severity ? b : a))
      const message = group.length === 1 ? worst.detail : `${worst.detail} (+${group.length - 1} more)`
      const deviceKey = group.length === 1 ? worst.deviceKey : undefined
      const record = this.records.get(id)
      if (!record) {
        const { kind, key, component, severity } = worst
        this.records.set(id, { kind, key, component, severity, message, deviceKey, history: [{ timestamp: now, count: group.length }] })
        continue
      }
      record.severity = worst.severity
      record.message = message
      record.deviceKey = deviceKey
      if (latest(record).count !== group.length) append(record, { timestamp: now, count: group.length })
    }
    for (const [id, record] of this.records) {
      if (grouped.has(id)) continue
      if (latest(record).count > 0) append(record, { timestamp: now, count: 0 })
      else if (now.getTime() - latest(record).timestamp.getTime() > ISSUE_HISTORY_WINDOW_MS) this.records.delete(id)
    }
  }

  /** Every tracked issue, active or recently cleared (copies: later ticks do not change them). */
  all(): IssueRecord[] {
    return [...this.records.values()].map((r) => ({ ...r, history: [...r.history] }))
  }

  active(): IssueRecord[] {
    return this.all().filter((r) => latest(r).count > 0)
  }
}

export const latest = (record: IssueRecord): HistoryEntry => record.history[record.history.length - 1]

function append(record: IssueRecord, entry: HistoryEntry) {
  record.history.push(entry)
  if (record.history.length > MAX_HISTORY_ENTRIES) record.history.splice(0, record.history.length - MAX_HISTORY_ENTRIES)
}
