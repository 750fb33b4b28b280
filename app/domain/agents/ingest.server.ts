/**
 * Ingest: what agents report over MQTT becomes rows. Every call goes through one write-behind
 * queue: whatever arrived during one turn of the event loop is committed in one SQLite
 * transaction (so batches grow with the load by themselves, and a lone message waits for nobody);
 * the caller's promise settles only after the commit (the broker sends the QoS 1 PUBACK then).
 * The transaction runs synchronously through prepared statements (ingest-sql.server.ts), on
 * Prisma's own connection when ingest runs in the web/broker thread, or on the ingest worker's own
 * connection (ingest-thread.server.ts calls `writeIngestOn`; see ingest-worker.server.ts).
 * In-memory caches of what was last stored let a typical state report, which repeats the previous
 * one, write only its last seen, usage count and agent event.
 *
 * The SQL seam: everything database-specific is behind ingest-sql.server.ts (prepared statements,
 * ids, date text, opening a connection); a PostgreSQL implementation exports the same names.
 */
import type Database from 'better-sqlite3'
import { setTimeout as sleep } from 'node:timers/promises'
import {
  type AgentCall,
  type AgentCallPayload,
  type AgentCallResult,
  type ClientConfigResult,
  type historyEntrySchema,
  type issueReportSchema,
  type systemReportSchema,
} from '../../../broker/protocol'
import { notFound } from '../errors'
import { emitChange, type ChangeEvent } from '../events/bus.server'
import { getConfig } from '~/utils/env.server'
import { parseJson } from '~/utils/db.server'
import { type z } from 'zod'
import {
  ISSUE_HISTORY_MAX_ENTRIES,
  ISSUE_HISTORY_WINDOW_MS,
  NO_SEVERITY,
  isIssueActive,
  storeTunnelStatus,
  worseSeverity,
} from './derived'
import { ENROLLMENT_CODE_VALIDITY_MS, formatEnrollmentCode, generateEnrollmentCode } from './enrollment-code'
import { lookupLocation, type Location } from './geoip.server'
import { valueHash } from './value-hash'
import { ingestDatabase } from './ingest-sql-pg.server'
import { newId, newOrderedId, sqlDate, statementsOf, type AgentRow, type DeviceRow, type IngestStatements, type IssueRow, type SystemRow } from './ingest-sql.server'

export type CallMeta = { ip: string | null; receivedAt: Date }

type IssueKind = 'alert' | 'deviation'
type SystemReport = z.output<typeof systemReportSchema>
type IssueReport = z.output<typeof issueReportSchema>
type HistoryEntry = z.output<typeof historyEntrySchema>

// ------------------------------------------------------------------------------ caches

type CachedIssue = { id: string; latestAt: number; latestCount: number; isActive: boolean; severity: number; signature: string; historySize: number }
type CachedSystem = {
  id: string
  name: string
  projectId: string | null
  /** device key -> signature of its stored row */
  devices: Map<string, string> | null
  /** signature of the device list last applied: an identical list is skipped without looking at each device */
  deviceList: string | null
  issues: Map<string, CachedIssue> | null
  summary: Summary
}
type Summary = { alertsCount: number; alertsSeverity: number; deviationsCount: number; deviationsSeverity: number }
type CachedAgent = {
  organizationId: string | null
  defaultProjectId: string | null
  lastIp: string | null
  summary: Summary
  systems: Map<string, CachedSystem>
  /** the projectIds of its last agent event and the systems they were computed for (null = all) */
  eventProjects: { key: string | null; json: string } | null
}

const agents = new Map<string, CachedAgent>()

/** Ingest's own change events are marked while emitted (emit is synchronous) so listeners can tell them apart. */
let emittingOwnChanges = false
export const isIngestChange = () => emittingOwnChanges

/** Emits change events ingest made (here or, posted back, in the ingest worker) as ingest's own. */
export function announceIngestChanges(changes: Iterable<ChangeEvent>) {
  emittingOwnChanges = true
  try {
    for (const change of changes) emitChange(change)
  } finally {
    emittingOwnChanges = false
  }
}

/** Where committed batches' change events go: this thread's bus, or (in the worker) back to the main thread. */
let announceChanges: (changes: ChangeEvent[]) => void = announceIngestChanges
/** The connection ingest writes on: Prisma's own, unless the worker gave it its own. */
let ownConnection: Database | null = null

/** The ingest worker writes on its own connection and posts its change events to the main thread. */
export function writeIngestOn(db: Database, announce: (changes: ChangeEvent[]) => void) {
  ownConnection = db
  announceChanges = announce
}

/** Someone else changed agents or systems (enrollment, assignment, removal): reload them from the database. */
export function forgetAgents(event: ChangeEvent) {
  if (emittingOwnChanges || (event.kind !== 'agent' && event.kind !== 'system' && event.kind !== 'organization' && event.kind !== 'project')) return
  if (event.kind === 'agent' && event.ids?.length) {
    for (const id of event.ids) agents.delete(id)
    return
  }
  for (const [id, agent] of agents) if (event.organizationId === null || agent.organizationId === event.organizationId) agents.delete(id)
}

const emptySummary = (): Summary => ({ alertsCount: 0, alertsSeverity: NO_SEVERITY, deviationsCount: 0, deviationsSeverity: NO_SEVERITY })
const sameSummary = (a: Summary, b: Summary) =>
  a.alertsCount === b.alertsCount && a.alertsSeverity === b.alertsSeverity && a.deviationsCount === b.deviationsCount && a.deviationsSeverity === b.deviationsSeverity
const summaryOf = (row: Summary): Summary => ({
  alertsCount: row.alertsCount,
  alertsSeverity: row.alertsSeverity,
  deviationsCount: row.deviationsCount,
  deviationsSeverity: row.deviationsSeverity,
})

function loadAgent(sql: IngestStatements, agentId: string): CachedAgent {
  const cached = agents.get(agentId)
  if (cached) return cached
  const row = sql.agent.get(agentId) as AgentRow | undefined
  if (!row) throw notFound('Agent not found')
  const systems = sql.systemsOfAgent.all(agentId) as SystemRow[]
  const agent: CachedAgent = {
    organizationId: row.organizationId,
    defaultProjectId: row.defaultProjectId,
    lastIp: row.lastIp,
    summary: summaryOf(row),
    systems: new Map(systems.map((s) => [s.key, { id: s.id, name: s.name, projectId: s.projectId, devices: null, deviceList: null, issues: null, summary: summaryOf(s) }])),
    eventProjects: null,
  }
  agents.set(agentId, agent)
  return agent
}


const deviceSignature = (d: DeviceRow) =>
  valueHash([d.component, d.product, d.serial, d.name, d.parentKey, d.versionSoftware, d.versionFirmware, d.properties, d.count])
const issueSignature = (i: { component: string; deviceKey: string | null; message: string; severity: number }) => valueHash([i.component, i.deviceKey, i.message, i.severity])
const issueCacheKey = (kind: IssueKind, key: string) => `${kind}\u0000${key}`

function loadSystemContent(sql: IngestStatements, system: CachedSystem) {
  if (system.devices && system.issues) return { devices: system.devices, issues: system.issues }
  const devices = sql.devicesOfSystem.all(system.id) as (DeviceRow & { key: string })[]
  const issues = sql.issuesOfSystem.all(system.id) as IssueRow[]
  system.devices = new Map(devices.map((d) => [d.key, deviceSignature(d)]))
  system.issues = new Map(
    issues.map((i) => [
      issueCacheKey(i.kind as IssueKind, i.key),
      { id: i.id, latestAt: Date.parse(i.latestAt), latestCount: i.latestCount, isActive: i.isActive === 1, severity: i.severity, signature: issueSignature(i), historySize: i.historySize },
    ]),
  )
  return { devices: system.devices, issues: system.issues }
}

// ------------------------------------------------------------------------------- batch

type Batch = {
  now: Date
  /** `now` as stored */
  nowText: string
  /** the hour of `now` as stored (usage counters) */
  hour: string
  sql: IngestStatements
  /** agents whose lastSeen moves to `now` */
  seen: Set<string>
  /** MQTT session state changes (true = online) */
  presence: Map<string, boolean>
  usage: Map<string, { agentId: string; organizationId: string | null; hour: string; call: string; count: number }>
  events: { organizationId: string | null; agentId: string; type: string; systemId: string | null; projectIds: string }[]
  changes: Map<string, ChangeEvent>
}

function noteChange(batch: Batch, organizationId: string | null, kind: ChangeEvent['kind'], id: string) {
  if (!organizationId) return
  const key = `${organizationId}:${kind}`
  const change = batch.changes.get(key) ?? { organizationId, kind, ids: [] }
  if (!change.ids!.includes(id)) change.ids!.push(id)
  batch.changes.set(key, change)
}

const hourOf = (date: Date) => sqlDate(Math.floor(date.getTime() / 3_600_000) * 3_600_000)

/** The projects of an agent event: those of the given systems (all of the agent's when null), as stored JSON. */
function eventProjectIds(agent: CachedAgent, systemIds: string[] | null): string {
  // an agent reports the same systems message after message: computed once per set of systems
  const key = systemIds ? systemIds.join('\u0000') : null
  if (agent.eventProjects && agent.eventProjects.key === key) return agent.eventProjects.json
  const systems = [...agent.systems.values()].filter((s) => !systemIds || systemIds.includes(s.id))
  const json = JSON.stringify([...new Set(systems.map((s) => s.projectId).filter((p): p is string => !!p))])
  agent.eventProjects = { key, json }
  return json
}

/** Counts one call per agent and hour and records it as an agent event (spec 01 section 9). */
function countCall(batch: Batch, agentId: string, agent: CachedAgent, call: string, systemIds: string[] | null) {
  const hour = batch.hour
  const key = `${agentId}|${call}`
  const usage = batch.usage.get(key) ?? { agentId, organizationId: agent.organizationId, hour, call, count: 0 }
  usage.count++
  batch.usage.set(key, usage)
  batch.events.push({
    organizationId: agent.organizationId,
    agentId,
    type: call,
    systemId: systemIds?.length === 1 ? systemIds[0] : null,
    projectIds: eventProjectIds(agent, systemIds),
  })
}

// ------------------------------------------------------------------------------- calls

/** What a call needs besides its payload; `location` is looked up before the batch (it may be async). */
type CallContext = { batch: Batch; agentId: string; agent: CachedAgent; meta: CallMeta; location: Location | null }
type Handler<C extends IngestCall> = (context: CallContext, payload: AgentCallPayload<C>) => AgentCallResult<C>

function touchAddress({ batch, agentId, agent, meta, location }: CallContext) {
  if (!meta.ip || meta.ip === agent.lastIp) return
  batch.sql.agentAddress.run({ id: agentId, ip: meta.ip, lat: location?.lat ?? null, long: location?.long ?? null, lookupIp: location ? meta.ip : null, now: batch.nowText })
  agent.lastIp = meta.ip
}

/** Calls ingest stores itself; selfEnroll is an enrollment, served by the enrollment domain (agent-gateway). */
export type IngestCall = Exclude<AgentCall, 'selfEnroll'>

const handlers: { [C in IngestCall]: Handler<C> } = {
  ping(context, payload) {
    const { batch, agentId, agent } = context
    const metrics = payload.metrics
    batch.sql.agentPing.run({ id: agentId, ...metrics, tunnelStatus: payload.tunnel !== undefined ? storeTunnelStatus(payload.tunnel) : null, now: batch.nowText })
    touchAddress(context)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return { lastSeen: batch.now.toISOString(), lastIp: agent.lastIp, metrics }
  },

  updateClientState(context, payload) {
    const { batch, agentId, agent } = context
    const totals = { systems: payload.systems.length, devices: 0, alerts: 0, deviations: 0 }
    const systemIds: string[] = []
    for (const report of payload.systems) {
      systemIds.push(upsertSystem(context, report).id)
      totals.devices += report.devices.length
      totals.alerts += report.alerts.length
      totals.deviations += report.deviations.length
    }
    const summary = emptySummary()
    for (const s of agent.systems.values()) {
      summary.alertsCount += s.summary.alertsCount
      summary.alertsSeverity = worseSeverity(summary.alertsSeverity, s.summary.alertsSeverity)
      summary.deviationsCount += s.summary.deviationsCount
      summary.deviationsSeverity = worseSeverity(summary.deviationsSeverity, s.summary.deviationsSeverity)
    }
    if (!sameSummary(summary, agent.summary)) {
      batch.sql.agentSummary.run({ id: agentId, ...summary, now: batch.nowText })
      agent.summary = summary
      noteChange(batch, agent.organizationId, 'agent', agentId)
    }
    touchAddress(context)
    batch.seen.add(agentId)
    countCall(batch, agentId, agent, 'updateClientState', systemIds)
    return totals
  },

  createApplication({ batch, agentId, agent }) {
    const code = generateEnrollmentCode()
    batch.sql.enrollmentCodeInsert.run(newId(), agentId, code, batch.nowText)
    batch.seen.add(agentId)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return {
      applicationCode: formatEnrollmentCode(code),
      created: batch.now.toISOString(),
      expires: new Date(batch.now.getTime() + ENROLLMENT_CODE_VALIDITY_MS).toISOString(),
    }
  },

  getClientConfig({ batch, agentId }) {
    batch.seen.add(agentId)
    return clientConfigOf(storedConfig(batch.sql, agentId))
  },

  setClientConfig({ batch, agentId, agent }, payload) {
    batch.sql.agentConfigSet.run(JSON.stringify(payload.config), batch.nowText, agentId)
    batch.seen.add(agentId)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return clientConfigOf(storedConfig(batch.sql, agentId))
  },

  getTunnelConfig({ batch, agentId, agent }) {
    batch.seen.add(agentId)
    return { enabled: agent.organizationId !== null, relayUrl: getConfig().relayPublicUrl }
  },
}

function storedConfig(sql: IngestStatements, agentId: string) {
  const row = sql.agentConfig.get(agentId) as { config: string; organizationId: string | null } | undefined
  if (!row) throw notFound('Agent not found')
  return row
}

export function clientConfigOf(row: { config: string; organizationId: string | null }): ClientConfigResult {
  return { config: parseJson<Record<string, unknown>>(row.config, {}), organizationId: row.organizationId, enrolled: row.organizationId !== null }
}

function upsertSystem({ batch, agentId, agent, meta }: CallContext, report: SystemReport): CachedSystem {
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

// ------------------------------------------------------------------------ write-behind queue

type Job = {
  agentId: string
  run: (batch: Batch) => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * The most messages one transaction takes. The commit runs synchronously, so this also bounds
 * how long the broker's event loop is held (about 10 ms for 500 unchanged reports).
 */
const MAX_BATCH = 500

let queue: Job[] = []
let flushing: Promise<void> | null = null

function enqueue<T>(agentId: string, run: (batch: Batch) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ agentId, run, resolve: resolve as (value: unknown) => void, reject })
    scheduleFlush()
  })
}

/** Flushes after the current I/O phase: everything the broker read in it shares one transaction. */
function scheduleFlush() {
  if (flushing || !queue.length) return
  flushing = new Promise<void>((resolve) => setImmediate(resolve))
    .then(flushBatch)
    .finally(() => {
      flushing = null
      scheduleFlush()
    })
}

async function flushBatch() {
  const db = ownConnection ?? (await ingestDatabase())
  // Never write inside a Prisma transaction that is open on the same connection (its rollback would take ours along).
  while (!ownConnection && db.inTransaction) await sleep(1)
  const jobs = queue.slice(0, MAX_BATCH)
  queue = queue.slice(jobs.length)
  try {
    settle(jobs, commit(db, jobs))
  } catch {
    // The batch itself failed (e.g. a shared statement hit a row deleted meanwhile): caches may be
    // ahead of the rollback; retry each message alone so one cannot fail its companions.
    for (const job of jobs) agents.delete(job.agentId)
    for (const job of jobs) {
      try {
        settle([job], commit(db, [job]))
      } catch (error) {
        agents.delete(job.agentId)
        job.reject(error)
      }
    }
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

function settle(jobs: Job[], outcomes: Outcome[]) {
  jobs.forEach((job, i) => {
    const outcome = outcomes[i]
    if (outcome.ok) job.resolve(outcome.value)
    else job.reject(outcome.error)
  })
}

/** A message whose payload was refused (its `prepare` threw) before it wrote anything; `reason` is what was thrown. */
class Refused extends Error {
  constructor(readonly reason: unknown) {
    super('refused')
  }
}

/** A message failed inside the fast (savepoint-free) attempt at a batch. */
class MessageFailed extends Error {}

/**
 * One transaction for the jobs. First without a savepoint per message (two statements fewer
 * each); if any message fails, that attempt is rolled back and the batch runs again with each
 * message in its own savepoint, so the one that fails (unknown agent, constraint) is rolled back
 * alone and the rest commit. Then last seen, presence, usage and events of the whole batch;
 * change events only after the commit.
 */
function commit(db: Database, jobs: Job[]): Outcome[] {
  try {
    return commitOnce(db, jobs, false)
  } catch (error) {
    if (!(error instanceof MessageFailed)) throw error
    // caches may hold what the rolled-back attempt wrote
    for (const job of jobs) agents.delete(job.agentId)
    return commitOnce(db, jobs, true)
  }
}

function commitOnce(db: Database, jobs: Job[], savepoints: boolean): Outcome[] {
  const now = new Date()
  const batch: Batch = { now, nowText: sqlDate(now), hour: hourOf(now), sql: statementsOf(db), seen: new Set(), presence: new Map(), usage: new Map(), events: [], changes: new Map() }
  const runAlone = savepoints ? db.transaction((job: Job) => job.run(batch)) : null
  // IMMEDIATE: take the write lock up front (busy_timeout waits for it) rather than failing when a
  // read snapshot cannot be upgraded because another connection committed meanwhile.
  const outcomes = db.transaction(() => {
    const results = jobs.map((job): Outcome => {
      if (!runAlone) {
        try {
          return { ok: true, value: job.run(batch) }
        } catch (error) {
          // refused before it wrote anything: the others go on
          if (error instanceof Refused) return { ok: false, error: error.reason }
          throw new MessageFailed()
        }
      }
      try {
        return { ok: true, value: runAlone(job) }
      } catch (error) {
        agents.delete(job.agentId)
        return { ok: false, error: error instanceof Refused ? error.reason : error }
      }
    })
    writeBatchTotals(batch)
    return results
  }).immediate()
  announce(batch)
  return outcomes
}

/** Presence, last seen, usage and agent events of the whole batch, many rows per statement. */
function writeBatchTotals(batch: Batch) {
  const { sql, nowText } = batch
  const online: string[] = []
  const offline: string[] = []
  for (const [agentId, isOnline] of batch.presence) (isOnline ? online : offline).push(agentId)
  if (online.length) sql.agentsOnline(online, [1, nowText])
  if (offline.length) sql.agentsOnline(offline, [0, nowText])
  if (batch.seen.size) sql.agentsSeen([...batch.seen], [nowText, nowText])
  const usage: unknown[] = []
  for (const u of batch.usage.values()) usage.push(newId(), u.agentId, u.organizationId, u.hour, u.call, u.count)
  sql.usageAddRows(usage)
  const events: unknown[] = []
  const nowMs = batch.now.getTime()
  for (const e of batch.events) events.push(newOrderedId(nowMs), e.organizationId, e.agentId, e.type, e.systemId, e.projectIds, nowText)
  sql.eventInsertRows(events)
}

function announce(batch: Batch) {
  if (batch.changes.size) announceChanges([...batch.changes.values()])
}

/** Waits until everything queued so far is committed (shutdown, tests). */
export async function drainIngest() {
  while (queue.length || flushing) await (flushing ?? Promise.resolve(scheduleFlush()))
}

// ---------------------------------------------------------------------------- entry points

/**
 * Runs one agent call through the queue; settles after its commit. `payload` is the validated
 * payload, or a function that produces it inside the batch (ingest-raw.server.ts parses there, so
 * a waiting request holds only its bytes, not a parsed report that would outlive a young-generation
 * collection); what that function throws rejects this call alone.
 */
export async function ingestCall<C extends IngestCall>(
  agentId: string,
  call: C,
  payload: AgentCallPayload<C> | (() => AgentCallPayload<C>),
  meta: CallMeta,
): Promise<AgentCallResult<C>> {
  const handler = handlers[call] as Handler<C>
  // A lookup can be asynchronous, the batch is not: resolve it first, only when the address is new.
  const location = meta.ip && agents.get(agentId)?.lastIp !== meta.ip ? await lookupLocation(meta.ip) : null
  return enqueue(agentId, (batch) => {
    let data: AgentCallPayload<C>
    try {
      data = typeof payload === 'function' ? payload() : payload
    } catch (error) {
      throw new Refused(error)
    }
    const agent = loadAgent(batch.sql, agentId)
    const result = handler({ batch, agentId, agent, meta, location }, data)
    // updateClientState counts itself (it knows its systems); the rest are agent-wide.
    if (call !== 'updateClientState') countCall(batch, agentId, agent, call, null)
    return result
  })
}

/** Counts a call another part of the domain served (selfEnroll) in usage and agent events, like every call. */
export function countServedCall(agentId: string, call: AgentCall): Promise<void> {
  return enqueue(agentId, (batch) => countCall(batch, agentId, loadAgent(batch.sql, agentId), call, null))
}

/** Presence from the broker: connect, clean disconnect, or Last Will (recorded as an 'offline' event). */
export function ingestPresence(agentId: string, online: boolean, meta: { will?: boolean }): Promise<void> {
  return enqueue(agentId, (batch) => {
    // Written in bulk at the end of the batch: a fleet reconnecting costs no query per agent.
    batch.presence.set(agentId, online)
    if (online) batch.seen.add(agentId)
    const agent = agents.get(agentId) ?? (meta.will ? loadAgent(batch.sql, agentId) : null)
    if (meta.will && agent) batch.events.push({ organizationId: agent.organizationId, agentId, type: 'offline', systemId: null, projectIds: '[]' })
    if (agent) noteChange(batch, agent.organizationId, 'agent', agentId)
  })
}

/** The stored secret hash and enabled flag of an agent (authentication on every connect). */
export async function agentCredentials(agentId: string): Promise<{ secretHash: string; enabled: boolean } | null> {
  const row = statementsOf(await ingestDatabase()).agentSecret.get(agentId) as { secretHash: string; enabled: number } | undefined
  return row ? { secretHash: row.secretHash, enabled: row.enabled === 1 } : null
}
