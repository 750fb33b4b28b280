/**
 * Ingest: what agents report over MQTT becomes rows. Every call goes through one write-behind
 * queue that commits many agents' messages in one SQLite transaction every few milliseconds, so a
 * large fleet does not contend for the write lock; the caller's promise settles only after the
 * commit (the broker sends the QoS 1 PUBACK then). In-memory caches of what was last stored let a
 * typical state report, which repeats the previous one, cost almost no writes.
 */
import { createHash, randomBytes } from 'node:crypto'
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
import { Prisma } from '@prisma/client'
import { parseJson, prisma, type Tx } from '~/utils/db.server'
import { type z } from 'zod'
import {
  ISSUE_HISTORY_MAX_ENTRIES,
  ISSUE_HISTORY_WINDOW_MS,
  NO_SEVERITY,
  isIssueActive,
  storeTunnelStatus,
  summarizeIssues,
} from './derived'
import { ENROLLMENT_CODE_VALIDITY_MS, formatEnrollmentCode, generateEnrollmentCode } from './enrollment-code'
import { lookupLocation } from './geoip.server'

export type CallMeta = { ip: string | null; receivedAt: Date }

type IssueKind = 'alert' | 'deviation'
type SystemReport = z.output<typeof systemReportSchema>
type IssueReport = z.output<typeof issueReportSchema>
type HistoryEntry = z.output<typeof historyEntrySchema>

// ------------------------------------------------------------------------------ caches

type CachedIssue = { id: string; latestAt: number; latestCount: number; isActive: boolean; severity: number; signature: string; historySize: number }
type CachedSystem = { id: string; name: string; projectId: string | null; devices: Map<string, string> | null; issues: Map<string, CachedIssue> | null; summary: Summary }
type Summary = { alertsCount: number; alertsSeverity: number; deviationsCount: number; deviationsSeverity: number }
type CachedAgent = {
  organizationId: string | null
  defaultProjectId: string | null
  lastIp: string | null
  summary: Summary
  systems: Map<string, CachedSystem>
}

const agents = new Map<string, CachedAgent>()

/** Ingest's own change events are marked while emitted (emit is synchronous) so listeners can tell them apart. */
let emittingOwnChanges = false
export const isIngestChange = () => emittingOwnChanges

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

async function loadAgent(tx: Tx, agentId: string): Promise<CachedAgent> {
  const cached = agents.get(agentId)
  if (cached) return cached
  const row = await tx.agent.findUnique({
    where: { id: agentId },
    select: {
      organizationId: true,
      defaultProjectId: true,
      lastIp: true,
      alertsCount: true,
      alertsSeverity: true,
      deviationsCount: true,
      deviationsSeverity: true,
      systems: { select: { id: true, key: true, name: true, projectId: true, alertsCount: true, alertsSeverity: true, deviationsCount: true, deviationsSeverity: true } },
    },
  })
  if (!row) throw notFound('Agent not found')
  const agent: CachedAgent = {
    organizationId: row.organizationId,
    defaultProjectId: row.defaultProjectId,
    lastIp: row.lastIp,
    summary: { alertsCount: row.alertsCount, alertsSeverity: row.alertsSeverity, deviationsCount: row.deviationsCount, deviationsSeverity: row.deviationsSeverity },
    systems: new Map(
      row.systems.map((s) => [
        s.key,
        {
          id: s.id,
          name: s.name,
          projectId: s.projectId,
          devices: null,
          issues: null,
          summary: { alertsCount: s.alertsCount, alertsSeverity: s.alertsSeverity, deviationsCount: s.deviationsCount, deviationsSeverity: s.deviationsSeverity },
        },
      ]),
    ),
  }
  agents.set(agentId, agent)
  return agent
}

const digest = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64')

type DeviceRow = {
  component: string
  product: string
  serial: string
  name: string
  parentKey: string | null
  versionSoftware: string | null
  versionFirmware: string | null
  properties: string
  count: number
}
const deviceSignature = (d: DeviceRow) =>
  digest([d.component, d.product, d.serial, d.name, d.parentKey, d.versionSoftware, d.versionFirmware, d.properties, d.count])
const issueSignature = (i: { component: string; deviceKey: string | null; message: string; severity: number }) => digest([i.component, i.deviceKey, i.message, i.severity])
const issueCacheKey = (kind: IssueKind, key: string) => `${kind}\u0000${key}`

async function loadSystemContent(tx: Tx, system: CachedSystem) {
  if (system.devices && system.issues) return { devices: system.devices, issues: system.issues }
  const [devices, issues] = await Promise.all([
    tx.device.findMany({ where: { systemId: system.id } }),
    tx.issue.findMany({ where: { systemId: system.id }, include: { _count: { select: { history: true } } } }),
  ])
  system.devices = new Map(devices.map((d) => [d.key, deviceSignature(d)]))
  system.issues = new Map(
    issues.map((i) => [
      issueCacheKey(i.kind as IssueKind, i.key),
      { id: i.id, latestAt: i.latestAt.getTime(), latestCount: i.latestCount, isActive: i.isActive, severity: i.severity, signature: issueSignature(i), historySize: i._count.history },
    ]),
  )
  return { devices: system.devices, issues: system.issues }
}

// ------------------------------------------------------------------------------- batch

type Batch = {
  now: Date
  /** agents whose lastSeen moves to `now` */
  seen: Set<string>
  /** MQTT session state changes (true = online) */
  presence: Map<string, boolean>
  usage: Map<string, { agentId: string; organizationId: string | null; hour: Date; call: string; count: number }>
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

const hourOf = (date: Date) => new Date(Math.floor(date.getTime() / 3_600_000) * 3_600_000)

/** Counts one call per agent and hour and records it as an agent event (spec 01 section 9). */
function countCall(batch: Batch, agentId: string, agent: CachedAgent, call: string, systemIds: string[] | null) {
  const hour = hourOf(batch.now)
  const key = `${agentId}|${hour.getTime()}|${call}`
  const usage = batch.usage.get(key) ?? { agentId, organizationId: agent.organizationId, hour, call, count: 0 }
  usage.count++
  batch.usage.set(key, usage)
  const systems = [...agent.systems.values()].filter((s) => !systemIds || systemIds.includes(s.id))
  const projectIds = [...new Set(systems.map((s) => s.projectId).filter((p): p is string => !!p))]
  batch.events.push({
    organizationId: agent.organizationId,
    agentId,
    type: call,
    systemId: systemIds?.length === 1 ? systemIds[0] : null,
    projectIds: JSON.stringify(projectIds),
  })
}

// ------------------------------------------------------------------------------- calls

type Handler<C extends AgentCall> = (tx: Tx, batch: Batch, agentId: string, agent: CachedAgent, payload: AgentCallPayload<C>, meta: CallMeta) => Promise<AgentCallResult<C>>

async function touchAddress(tx: Tx, agentId: string, agent: CachedAgent, ip: string | null) {
  if (!ip || ip === agent.lastIp) return
  const location = await lookupLocation(ip)
  await tx.agent.update({
    where: { id: agentId },
    data: { lastIp: ip, ...(location ? { locationLat: location.lat, locationLong: location.long, locationLookupIp: ip } : {}) },
  })
  agent.lastIp = ip
}

const handlers: { [C in AgentCall]: Handler<C> } = {
  async ping(tx, batch, agentId, agent, payload, meta) {
    const metrics = payload.metrics
    await tx.agent.update({
      where: { id: agentId },
      data: { ...metrics, lastSeen: batch.now, ...(payload.tunnel !== undefined ? { tunnelStatus: storeTunnelStatus(payload.tunnel) } : {}) },
    })
    await touchAddress(tx, agentId, agent, meta.ip)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return { lastSeen: batch.now.toISOString(), lastIp: agent.lastIp, metrics }
  },

  async updateClientState(tx, batch, agentId, agent, payload, meta) {
    const totals = { systems: payload.systems.length, devices: 0, alerts: 0, deviations: 0 }
    const systemIds: string[] = []
    for (const report of payload.systems) {
      const system = await upsertSystem(tx, batch, agentId, agent, report, meta)
      systemIds.push(system.id)
      totals.devices += report.devices.length
      totals.alerts += report.alerts.length
      totals.deviations += report.deviations.length
    }
    const summary = [...agent.systems.values()].reduce<Summary>(
      (sum, s) => ({
        alertsCount: sum.alertsCount + s.summary.alertsCount,
        alertsSeverity: worst(sum.alertsSeverity, s.summary.alertsSeverity),
        deviationsCount: sum.deviationsCount + s.summary.deviationsCount,
        deviationsSeverity: worst(sum.deviationsSeverity, s.summary.deviationsSeverity),
      }),
      emptySummary(),
    )
    if (!sameSummary(summary, agent.summary)) {
      await tx.agent.update({ where: { id: agentId }, data: summary })
      agent.summary = summary
      noteChange(batch, agent.organizationId, 'agent', agentId)
    }
    await touchAddress(tx, agentId, agent, meta.ip)
    batch.seen.add(agentId)
    countCall(batch, agentId, agent, 'updateClientState', systemIds)
    return totals
  },

  async createApplication(tx, batch, agentId, agent) {
    const created = batch.now
    const application = await tx.enrollmentCode.create({ data: { agentId, code: generateEnrollmentCode(), createdAt: created } })
    batch.seen.add(agentId)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return {
      applicationCode: formatEnrollmentCode(application.code),
      created: created.toISOString(),
      expires: new Date(created.getTime() + ENROLLMENT_CODE_VALIDITY_MS).toISOString(),
    }
  },

  async getClientConfig(tx, batch, agentId) {
    batch.seen.add(agentId)
    return clientConfigOf(await tx.agent.findUniqueOrThrow({ where: { id: agentId }, select: { config: true, organizationId: true } }))
  },

  async setClientConfig(tx, batch, agentId, agent, payload) {
    const row = await tx.agent.update({ where: { id: agentId }, data: { config: JSON.stringify(payload.config) }, select: { config: true, organizationId: true } })
    batch.seen.add(agentId)
    noteChange(batch, agent.organizationId, 'agent', agentId)
    return clientConfigOf(row)
  },

  async getTunnelConfig(_tx, batch, agentId, agent) {
    batch.seen.add(agentId)
    return { enabled: agent.organizationId !== null, relayUrl: getConfig().relayPublicUrl }
  },
}

const worst = (a: number, b: number) => (a === NO_SEVERITY ? b : b === NO_SEVERITY ? a : Math.min(a, b))

export function clientConfigOf(row: { config: string; organizationId: string | null }): ClientConfigResult {
  return { config: parseJson<Record<string, unknown>>(row.config, {}), organizationId: row.organizationId, enrolled: row.organizationId !== null }
}

async function upsertSystem(tx: Tx, batch: Batch, agentId: string, agent: CachedAgent, report: SystemReport, meta: CallMeta): Promise<CachedSystem> {
  let system = agent.systems.get(report.id)
  if (!system) {
    const row = await tx.system.create({ data: { agentId, key: report.id, name: report.name, projectId: agent.defaultProjectId } })
    system = { id: row.id, name: row.name, projectId: row.projectId, devices: new Map(), issues: new Map(), summary: emptySummary() }
    agent.systems.set(report.id, system)
    noteChange(batch, agent.organizationId, 'system', system.id)
  } else if (system.name !== report.name) {
    await tx.system.update({ where: { id: system.id }, data: { name: report.name } })
    system.name = report.name
    noteChange(batch, agent.organizationId, 'system', system.id)
  }
  const content = await loadSystemContent(tx, system)
  if (await syncDevices(tx, system.id, content.devices, report.devices)) noteChange(batch, agent.organizationId, 'system', system.id)
  const issuesChanged = await syncIssues(tx, system.id, content.issues, report, meta.receivedAt)
  if (issuesChanged) noteChange(batch, agent.organizationId, 'issue', system.id)

  const issues = [...content.issues.entries()]
  const alerts = summarizeIssues(issues.filter(([key]) => key.startsWith('alert\u0000')).map(([, i]) => i))
  const deviations = summarizeIssues(issues.filter(([key]) => key.startsWith('deviation\u0000')).map(([, i]) => i))
  const summary = { alertsCount: alerts.count, alertsSeverity: alerts.severity, deviationsCount: deviations.count, deviationsSeverity: deviations.severity }
  if (!sameSummary(summary, system.summary)) {
    await tx.system.update({ where: { id: system.id }, data: summary })
    system.summary = summary
    noteChange(batch, agent.organizationId, 'system', system.id)
  }
  return system
}

/** Brings the system's devices in line with the report (a full snapshot); true when anything changed. */
async function syncDevices(tx: Tx, systemId: string, stored: Map<string, string>, reported: SystemReport['devices']): Promise<boolean> {
  let changed = false
  const seen = new Set<string>()
  const created: (DeviceRow & { systemId: string; key: string })[] = []
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
    // New devices go in with one statement (a new system brings dozens); changed ones one by one.
    if (previous === undefined) created.push({ systemId, key: device.id, ...row })
    else await tx.device.update({ where: { systemId_key: { systemId, key: device.id } }, data: row })
    stored.set(device.id, signature)
    changed = true
  }
  if (created.length) await tx.device.createMany({ data: created })
  const gone = [...stored.keys()].filter((key) => !seen.has(key))
  if (gone.length) {
    await tx.device.deleteMany({ where: { systemId, key: { in: gone } } })
    for (const key of gone) stored.delete(key)
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
async function syncIssues(tx: Tx, systemId: string, stored: Map<string, CachedIssue>, report: SystemReport, receivedAt: Date): Promise<boolean> {
  let changed = false
  const now = receivedAt.getTime()
  const reported = new Set<string>()
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
        const appended = history.slice(-ISSUE_HISTORY_MAX_ENTRIES)
        const row = await tx.issue.create({
          data: { systemId, kind, key: issue.key, ...fields, latestCount: latest.count, latestAt: new Date(latest.timestamp), isActive, activation: isActive ? 1 : 0 },
        })
        if (appended.length) await tx.issueHistory.createMany({ data: appended.map((h) => ({ issueId: row.id, timestamp: new Date(h.timestamp), count: h.count })) })
        stored.set(cacheKey, { id: row.id, latestAt: latest.timestamp, latestCount: latest.count, isActive, severity: issue.severity, signature, historySize: appended.length })
        changed = true
        continue
      }
      const fresh = history.filter((h) => h.timestamp > cached.latestAt).slice(-ISSUE_HISTORY_MAX_ENTRIES)
      const newest = fresh.at(-1)
      const latestNow = newest ?? { timestamp: cached.latestAt, count: cached.latestCount }
      const activeNow = history.length ? isIssueActive(latestNow.count, latestNow.timestamp, now) : isActive
      if (!fresh.length && activeNow === cached.isActive && signature === cached.signature) continue
      const becameActive = activeNow && !cached.isActive
      await tx.issue.update({
        where: { id: cached.id },
        data: {
          ...fields,
          latestCount: latestNow.count,
          latestAt: new Date(latestNow.timestamp),
          isActive: activeNow,
          ...(becameActive ? { activation: { increment: 1 } } : {}),
        },
      })
      if (fresh.length) await tx.issueHistory.createMany({ data: fresh.map((h) => ({ issueId: cached.id, timestamp: new Date(h.timestamp), count: h.count })) })
      Object.assign(cached, { latestAt: latestNow.timestamp, latestCount: latestNow.count, isActive: activeNow, severity: issue.severity, signature, historySize: cached.historySize + fresh.length })
      if (cached.historySize > ISSUE_HISTORY_MAX_ENTRIES * 1.25) cached.historySize = await pruneHistory(tx, cached.id, now)
      changed = true
    }
  }
  for (const [cacheKey, cached] of stored) {
    if (reported.has(cacheKey)) continue
    if (now - cached.latestAt > ISSUE_HISTORY_WINDOW_MS) {
      await tx.issue.delete({ where: { id: cached.id } })
      stored.delete(cacheKey)
      changed = true
    } else if (cached.isActive) {
      await tx.issue.update({ where: { id: cached.id }, data: { isActive: false } })
      cached.isActive = false
      changed = true
    }
  }
  return changed
}

/** Keeps the newest entries inside the history window; returns how many remain. */
async function pruneHistory(tx: Tx, issueId: string, now: number): Promise<number> {
  const keep = await tx.issueHistory.findMany({
    where: { issueId, timestamp: { gte: new Date(now - ISSUE_HISTORY_WINDOW_MS) } },
    orderBy: { timestamp: 'desc' },
    take: ISSUE_HISTORY_MAX_ENTRIES,
    select: { id: true },
  })
  await tx.issueHistory.deleteMany({ where: { issueId, id: { notIn: keep.map((k) => k.id) } } })
  return keep.length
}

// ------------------------------------------------------------------------ write-behind queue

type Job = {
  agentId: string
  run: (tx: Tx, batch: Batch) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** How long a message may wait for companions before its batch is written, and the batch size cap. */
const FLUSH_DELAY_MS = 5
const MAX_BATCH = 1000

let queue: Job[] = []
let flushTimer: NodeJS.Timeout | null = null
let flushing: Promise<void> | null = null

function enqueue<T>(agentId: string, run: (tx: Tx, batch: Batch) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ agentId, run, resolve: resolve as (value: unknown) => void, reject })
    scheduleFlush()
  })
}

function scheduleFlush() {
  if (flushing || flushTimer || !queue.length) return
  flushTimer = setTimeout(() => {
    flushTimer = null
    flushing = flushQueue().finally(() => {
      flushing = null
      scheduleFlush()
    })
  }, queue.length >= MAX_BATCH ? 0 : FLUSH_DELAY_MS)
}

async function flushQueue() {
  while (queue.length) {
    const jobs = queue.slice(0, MAX_BATCH)
    queue = queue.slice(jobs.length)
    try {
      const results = await commit(jobs)
      jobs.forEach((job, i) => job.resolve(results[i]))
    } catch {
      // One bad message must not fail its companions: retry each alone (caches may be ahead of the rollback).
      for (const job of jobs) agents.delete(job.agentId)
      for (const job of jobs) {
        try {
          job.resolve((await commit([job]))[0])
        } catch (error) {
          agents.delete(job.agentId)
          job.reject(error)
        }
      }
    }
  }
}

/** Runs the jobs in one transaction; afterwards bumps last seen, usage and events in bulk, then announces changes. */
async function commit(jobs: Job[]): Promise<unknown[]> {
  const batch: Batch = { now: new Date(), seen: new Set(), presence: new Map(), usage: new Map(), events: [], changes: new Map() }
  const results = await prisma.$transaction(
    async (tx) => {
      const out: unknown[] = []
      for (const job of jobs) out.push(await job.run(tx, batch))
      for (const online of [true, false]) {
        const ids = [...batch.presence].filter(([, state]) => state === online).map(([id]) => id)
        if (ids.length) await tx.agent.updateMany({ where: { id: { in: ids } }, data: { online } })
      }
      if (batch.seen.size) await tx.agent.updateMany({ where: { id: { in: [...batch.seen] } }, data: { lastSeen: batch.now } })
      await addUsage(tx, [...batch.usage.values()])
      if (batch.events.length) await tx.agentEvent.createMany({ data: batch.events.map((e) => ({ ...e, createdAt: batch.now })) })
      return out
    },
    { timeout: 30_000, maxWait: 30_000 },
  )
  announce(batch)
  return results
}

/** Raw inserts bypass Prisma's id default: 20 url-safe random characters like the rest. */
const usageId = () => randomBytes(15).toString('base64url')

/** Adds the batch's call counts with one upsert statement per 100 rows (a query per row was the bottleneck). */
async function addUsage(tx: Tx, rows: Batch['usage'] extends Map<string, infer R> ? R[] : never) {
  for (let i = 0; i < rows.length; i += 100) {
    const values = rows.slice(i, i + 100).map((u) => Prisma.sql`(${usageId()}, ${u.agentId}, ${u.organizationId}, ${u.hour}, ${u.call}, ${u.count})`)
    await tx.$executeRaw`INSERT INTO "UsageCounter" ("id", "agentId", "organizationId", "hour", "call", "count") VALUES ${Prisma.join(values)}
      ON CONFLICT ("agentId", "hour", "call") DO UPDATE SET "count" = "count" + excluded."count"`
  }
}

function announce(batch: Batch) {
  emittingOwnChanges = true
  try {
    for (const change of batch.changes.values()) emitChange(change)
  } finally {
    emittingOwnChanges = false
  }
}

/** Waits until everything queued so far is committed (shutdown, tests). */
export async function drainIngest() {
  while (queue.length || flushing || flushTimer) {
    if (flushTimer) {
      clearTimeout(flushTimer)
      flushTimer = null
      flushing ??= flushQueue().finally(() => {
        flushing = null
      })
    }
    await flushing
  }
}

// ---------------------------------------------------------------------------- entry points

/** Runs one validated agent call through the queue; settles after its commit. */
export function ingestCall<C extends AgentCall>(agentId: string, call: C, payload: AgentCallPayload<C>, meta: CallMeta): Promise<AgentCallResult<C>> {
  const handler = handlers[call] as Handler<C>
  return enqueue(agentId, async (tx, batch) => {
    const agent = await loadAgent(tx, agentId)
    const result = await handler(tx, batch, agentId, agent, payload, meta)
    // updateClientState counts itself (it knows its systems); the rest are agent-wide.
    if (call !== 'updateClientState') countCall(batch, agentId, agent, call, null)
    return result
  })
}

/** Presence from the broker: connect, clean disconnect, or Last Will (recorded as an 'offline' event). */
export function ingestPresence(agentId: string, online: boolean, meta: { will?: boolean }): Promise<void> {
  return enqueue(agentId, async (tx, batch) => {
    // Written in bulk at the end of the batch: a fleet reconnecting costs no query per agent.
    batch.presence.set(agentId, online)
    if (online) batch.seen.add(agentId)
    const agent = agents.get(agentId) ?? (meta.will ? await loadAgent(tx, agentId) : null)
    if (meta.will && agent) batch.events.push({ organizationId: agent.organizationId, agentId, type: 'offline', systemId: null, projectIds: '[]' })
    if (agent) noteChange(batch, agent.organizationId, 'agent', agentId)
  })
}
