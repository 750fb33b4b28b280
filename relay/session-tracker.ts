/**
 * Proxy sessions as the relay sees them, keyed by host label. The record is re-read and the
 * person's rights re-checked at most every SESSION_RECHECK_MS (a page load is dozens of requests;
 * the reads are the relay's main cost), so sign-out, removal, disable and agent removal take effect
 * within that interval. A sweep ends idle and expired sessions nobody is using and flushes the
 * per-path request counts into the audit trail (docs/security.md).
 */
import {
  auditProxyRequests,
  endDue,
  endProxySession,
  judgeProxySession,
  listOpenProxySessionLabels,
  loadProxySession,
  proxySessionRightsLost,
  type EndReason,
  type ProxySessionRecord,
  type ProxyVerdict,
} from '../app/domain/relay/session-checks.server'
import { recordProxyActivity } from '../app/domain/relay/sessions.server'

/** How long the relay trusts a session record and rights check it made. */
export const SESSION_RECHECK_MS = 2000
/** Open sessions are swept (idle, expiry, rights) this often, and path counts flushed at most every PATH_FLUSH_MS. */
export const SWEEP_MS = 15_000
const PATH_FLUSH_MS = 5 * 60_000
/** Distinct paths counted per session between flushes; further requests only add to an overflow count. */
const MAX_PATHS = 100
const MAX_CACHED = 10_000

type Activity = { sessionId: string; count: number; lastPath: string; paths: Map<string, number>; overflow: number; flushedAt: number }

type Writer = { now: (key: string, write: () => Promise<unknown>) => Promise<unknown>; soon: (key: string, write: () => Promise<unknown>) => void }

export class SessionTracker {
  private readonly records = new Map<string, { record: ProxySessionRecord; readAt: number }>()
  private readonly loading = new Map<string, Promise<ProxySessionRecord>>()
  private readonly activity = new Map<string, Activity>()
  /** Sessions whose sweep failed, reported once until one succeeds. */
  private readonly failing = new Set<string>()

  constructor(private readonly books: Writer) {}

  /** The session record of a host label, with rights re-checked when the cached one is older than SESSION_RECHECK_MS. */
  load(label: string): Promise<ProxySessionRecord> {
    const cached = this.records.get(label)
    if (cached && Date.now() - cached.readAt < SESSION_RECHECK_MS) return Promise.resolve(cached.record)
    const pending = this.loading.get(label)
    if (pending) return pending
    const loaded = this.read(label).finally(() => this.loading.delete(label))
    this.loading.set(label, loaded)
    return loaded
  }

  private async read(label: string): Promise<ProxySessionRecord> {
    let record = await loadProxySession(label)
    if (record && !record.closedAt) {
      const lost = (await proxySessionRightsLost(record)) ?? endDue(record)
      if (lost) {
        await this.end(label, record.id, lost)
        record = await loadProxySession(label)
      }
    }
    if (this.records.size >= MAX_CACHED) this.records.clear()
    this.records.set(label, { record, readAt: Date.now() })
    return record
  }

  /** Judges one request of a browser (its relay cookie value) on a session origin; ends the session when a limit is reached. */
  async judge(label: string, browserKey: string | null): Promise<ProxyVerdict> {
    const record = await this.load(label)
    // Idle is judged on the stored last seen, written within FLUSH_MS of every request.
    const verdict = judgeProxySession(record, browserKey)
    if (!verdict.ok && verdict.end && record) await this.end(label, record.id, verdict.end)
    return verdict
  }

  forget(label: string) {
    this.records.delete(label)
  }

  private async end(label: string, sessionId: string, reason: EndReason) {
    this.records.delete(label)
    await endProxySession(sessionId, reason)
    await this.flush(label, true)
  }

  /** A proxied request started (path given) or ended on a session. */
  change(label: string, sessionId: string, delta: 1 | -1, path?: string) {
    const entry = this.activity.get(label) ?? { sessionId, count: 0, lastPath: '', paths: new Map(), overflow: 0, flushedAt: Date.now() }
    this.activity.set(label, entry)
    entry.count = Math.max(0, entry.count + delta)
    if (path !== undefined) {
      entry.lastPath = path
      // Counted per path without its query, so polling one URL is one line of the audit record.
      const key = path.split('?')[0].slice(0, 200)
      if (entry.paths.has(key) || entry.paths.size < MAX_PATHS) entry.paths.set(key, (entry.paths.get(key) ?? 0) + 1)
      else entry.overflow++
    }
    const activity = { connectionsActive: entry.count, lastPath: entry.lastPath || undefined }
    this.books.soon(`session:${sessionId}`, () => recordProxyActivity(sessionId, activity))
  }

  /** Writes the path counts of a session to the audit trail (at its end, or when PATH_FLUSH_MS passed). */
  private async flush(label: string, ended: boolean) {
    const entry = this.activity.get(label)
    if (!entry) return
    if (ended) this.activity.delete(label)
    if (!entry.paths.size && !entry.overflow) return
    const paths = entry.paths
    const overflow = entry.overflow
    entry.paths = new Map()
    entry.overflow = 0
    entry.flushedAt = Date.now()
    await this.books.now(`session:${entry.sessionId}`, () => auditProxyRequests(entry.sessionId, paths, overflow))
  }

  /**
   * Ends the open sessions that reached a limit or lost their rights, and flushes path counts. One
   * session that cannot be judged (its write fails) does not stop the others; it is reported once,
   * not every sweep, and tried again at the next.
   */
  async sweep(log: (line: string) => void = () => undefined) {
    const labels = new Set([...(await listOpenProxySessionLabels()), ...this.activity.keys()])
    for (const label of labels) {
      try {
        this.records.delete(label)
        const record = await this.load(label)
        const entry = this.activity.get(label)
        if (!record || record.closedAt) await this.flush(label, true)
        else if (entry && Date.now() - entry.flushedAt >= PATH_FLUSH_MS) await this.flush(label, false)
        this.failing.delete(label)
      } catch (error) {
        if (!this.failing.has(label)) log(`relay: sweeping session ${label} failed: ${(error as Error).message}`)
        this.failing.add(label)
      }
    }
  }

  /** On relay shutdown: every pending path count goes to the audit trail. */
  async flushAll() {
    for (const label of [...this.activity.keys()]) await this.flush(label, false)
  }
}
