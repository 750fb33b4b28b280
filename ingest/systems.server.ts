/**
 * A state report's systems brought in line with what is stored: each system (created or renamed),
 * its devices and its alerts and deviations (with history), and the system's summary. Compared
 * against the cache (cache.server.ts) so that an unchanged report writes nothing here.
 */
import { type z } from 'zod'
import { type historyEntrySchema, type issueReportSchema, type systemReportSchema } from '../protocol'
import { ISSUE_HISTORY_MAX_ENTRIES, ISSUE_HISTORY_WINDOW_MS, isIssueActive, worseSeverity } from '../app/domain/agents/derived'
import { valueHash } from '../app/domain/agents/value-hash'
import { noteChange, type Batch, type CallContext } from './batch.server'
import {
  deviceSignature,
  emptySummary,
  issueCacheKey,
  issueSignature,
  loadSystemContent,
  sameSummary,
  type CachedIssue,
  type CachedSystem,
  type IssueKind,
  type Summary,
} from './cache.server'
import { newId, sqlDate, type DeviceRow, type IngestStatements } from './sql-sqlite.server'

type SystemReport = z.output<typeof systemReportSchema>
type IssueReport = z.output<typeof issueReportSchema>
type HistoryEntry = z.output<typeof historyEntrySchema>

export function upsertSystem({ batch, agentId, agent, meta }: CallContext, report: SystemReport): CachedSystem {
  const { sql } = batch
  let system = agent.systems.get(report.id)
  if (!system) {
    const id = newId()
    sql.systemInsert.run(id, agentId, report.id, report.name, agent.defaultProjectId, batch.nowText, batch.nowText)
    system = { id, name: report.name, projectId: agent.defaultProjectId, devices: new Map(), deviceList: null, issues: new Map(), summary: emptySummary() }
    agent.systems.set(report.id, system)
    agent.eventProjects = null
    noteChange(batch, agent.organizationId, 'system', system.id)
  } else if (system.name !== report.name) {
    sql.systemRename.run(report.name, batch.nowText, system.id)
    system.name = report.name
    noteChange(batch, agent.organizationId, 'system', system.id)
  }
  const content = loadSystemContent(sql, system)
  const deviceList = valueHash(report.devices)
  if (deviceList !== system.deviceList && syncDevices(batch, system.id, content.devices, report.devices)) noteChange(batch, agent.organizationId, 'system', system.id)
  system.deviceList = deviceList
  if (syncIssues(batch, system.id, content.issues, report, meta.receivedAt)) noteChange(batch, agent.organizationId, 'issue', system.id)

  const summary = summarizeSystem(content.issues)
  if (!sameSummary(summary, system.summary)) {
    sql.systemSummary.run({ id: system.id, ...summary, now: batch.nowText })
    system.summary = summary
    noteChange(batch, agent.organizationId, 'system', system.id)
  }
  return system
}

/** Counts and worst severities of the active alerts and deviations (derived.ts summarizeIssues), without copying the issues. */
function summarizeSystem(issues: Map<string, CachedIssue>): Summary {
  const summary = emptySummary()
  for (const [key, issue] of issues) {
    if (!issue.isActive) continue
    if (key.startsWith('alert\u0000')) {
      summary.alertsCount++
      summary.alertsSeverity = worseSeverity(summary.alertsSeverity, issue.severity)
    } else {
      summary.deviationsCount++
      summary.deviationsSeverity = worseSeverity(summary.deviationsSeverity, issue.severity)
    }
  }
  return summary
}

/** Brings the system's devices in line with the report (a full snapshot); true when anything changed. */
function syncDevices(batch: Batch, systemId: string, stored: Map<string, string>, reported: SystemReport['devices']): boolean {
  let changed = false
  const seen = new Set<string>()
  for (const device of reported) {
    seen.add(device.id)
    const row: DeviceRow = {
      component: device.component,
      product: device.product,
      serial: device.serial,
      name: device.name,
      parentKey: device.parent ?? null,
      versionSoftware: device.versionSoftware ?? null,
      versionFirmware: device.versionFirmware ?? null,
      properties: JSON.stringify(device.properties),
      count: device.count,
    }
    const signature = deviceSignature(row)
    const previous = stored.get(device.id)
    if (previous === signature) continue
    if (previous === undefined) batch.sql.deviceInsert.run({ id: newId(), systemId, key: device.id, ...row })
    else batch.sql.deviceUpdate.run({ systemId, key: device.id, ...row })
    stored.set(device.id, signature)
    changed = true
  }
  for (const key of stored.keys()) {
    if (seen.has(key)) continue
    batch.sql.deviceDelete.run(systemId, key)
    stored.delete(key)
    changed = true
  }
  return changed
}

const toTime = (t: HistoryEntry['timestamp']) => (typeof t === 'number' ? t : Date.parse(t))

/**
 * Alerts and deviations: new history entries are appended, the latest entry decides whether the
 * issue is active, and each inactive -> active change bumps `activation`. Issues missing from the
 * snapshot become inactive and are kept (with their history) until they age out of the window.
 */
function syncIssues(batch: Batch, systemId: string, stored: Map<string, CachedIssue>, report: SystemReport, receivedAt: Date): boolean {
  const { sql, nowText } = batch
  let changed = false
  const now = receivedAt.getTime()
  const reported = new Set<string>()
  const addHistory = (issueId: string, entries: { timestamp: number; count: number }[]) => {
    for (const h of entries) sql.historyInsert.run(newId(), issueId, sqlDate(h.timestamp), h.count)
  }
  const lists: [IssueKind, IssueReport[]][] = [
    ['alert', report.alerts],
    ['deviation', report.deviations],
  ]
  for (const [kind, list] of lists) {
    for (const issue of list) {
      const cacheKey = issueCacheKey(kind, issue.key)
      reported.add(cacheKey)
      const history = issue.history
        .map((h) => ({ timestamp: toTime(h.timestamp), count: h.count }))
        .filter((h) => now - h.timestamp < ISSUE_HISTORY_WINDOW_MS)
        .sort((a, b) => a.timestamp - b.timestamp)
      // An issue listed without history is present now.
      const latest = history.at(-1) ?? { timestamp: now, count: 1 }
      const isActive = isIssueActive(latest.count, latest.timestamp, now)
      const fields = { component: issue.component, deviceKey: issue.device ?? null, message: issue.message, severity: issue.severity }
      const signature = issueSignature(fields)
      const cached = stored.get(cacheKey)
      if (!cached) {
        const id = newId()
        const appended = history.slice(-ISSUE_HISTORY_MAX_ENTRIES)
        sql.issueInsert.run({
          id,
          systemId,
          kind,
          key: issue.key,
          ...fields,
          latestCount: latest.count,
          latestAt: sqlDate(latest.timestamp),
          isActive: isActive ? 1 : 0,
          activation: isActive ? 1 : 0,
          now: nowText,
        })
        addHistory(id, appended)
        stored.set(cacheKey, { id, latestAt: latest.timestamp, latestCount: latest.count, isActive, severity: issue.severity, signature, historySize: appended.length })
        changed = true
        continue
      }
      const fresh = history.filter((h) => h.timestamp > cached.latestAt).slice(-ISSUE_HISTORY_MAX_ENTRIES)
      const newest = fresh.at(-1)
      const latestNow = newest ?? { timestamp: cached.latestAt, count: cached.latestCount }
      const activeNow = history.length ? isIssueActive(latestNow.count, latestNow.timestamp, now) : isActive
      if (!fresh.length && activeNow === cached.isActive && signature === cached.signature) continue
      const becameActive = activeNow && !cached.isActive
      sql.issueUpdate.run({
        id: cached.id,
        ...fields,
        latestCount: latestNow.count,
        latestAt: sqlDate(latestNow.timestamp),
        isActive: activeNow ? 1 : 0,
        activations: becameActive ? 1 : 0,
        now: nowText,
      })
      addHistory(cached.id, fresh)
      Object.assign(cached, { latestAt: latestNow.timestamp, latestCount: latestNow.count, isActive: activeNow, severity: issue.severity, signature, historySize: cached.historySize + fresh.length })
      if (cached.historySize > ISSUE_HISTORY_MAX_ENTRIES * 1.25) cached.historySize = pruneHistory(sql, cached.id, now)
      changed = true
    }
  }
  for (const [cacheKey, cached] of stored) {
    if (reported.has(cacheKey)) continue
    if (now - cached.latestAt > ISSUE_HISTORY_WINDOW_MS) {
      sql.issueDelete.run(cached.id)
      stored.delete(cacheKey)
      changed = true
    } else if (cached.isActive) {
      sql.issueDeactivate.run(nowText, cached.id)
      cached.isActive = false
      changed = true
    }
  }
  return changed
}

/** Keeps the newest entries inside the history window; returns how many remain. */
function pruneHistory(sql: IngestStatements, issueId: string, now: number): number {
  sql.historyPrune.run({ issueId, since: sqlDate(now - ISSUE_HISTORY_WINDOW_MS), max: ISSUE_HISTORY_MAX_ENTRIES })
  return (sql.historyCount.get(issueId) as { n: number }).n
}
