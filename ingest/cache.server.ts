/**
 * What ingest last stored, per agent: its organization, summary, systems, and (loaded when a state
 * report first needs them) each system's devices and issues. It lets a typical state report,
 * which repeats the previous one, write only its last seen, usage count and agent event.
 * Changes made by anyone else (enrollment, assignment, removal) empty it; ingest's own change
 * events are marked so they do not.
 */
import { type ChangeEvent } from '../app/domain/events/bus.server'
import { isIngestChange } from '../app/domain/events/ingest-origin.server'
import { notFound } from '../app/domain/errors'
import { NO_SEVERITY } from '../app/domain/agents/derived'
import { valueHash } from '../app/domain/agents/value-hash'
import { type AgentRow, type DeviceRow, type IngestStatements, type IssueRow, type SystemRow } from './sql-sqlite.server'

export type IssueKind = 'alert' | 'deviation'

export type CachedIssue = { id: string; latestAt: number; latestCount: number; isActive: boolean; severity: number; signature: string; historySize: number }
export type CachedSystem = {
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
export type Summary = { alertsCount: number; alertsSeverity: number; deviationsCount: number; deviationsSeverity: number }
export type CachedAgent = {
  organizationId: string | null
  defaultProjectId: string | null
  lastIp: string | null
  summary: Summary
  systems: Map<string, CachedSystem>
  /** the projectIds of its last agent event and the systems they were computed for (null = all) */
  eventProjects: { key: string | null; json: string } | null
}

const agents = new Map<string, CachedAgent>()

/** Someone else changed agents or systems (enrollment, assignment, removal): reload them from the database. */
export function forgetAgents(event: ChangeEvent) {
  if (isIngestChange() || (event.kind !== 'agent' && event.kind !== 'system' && event.kind !== 'organization' && event.kind !== 'project')) return
  if (event.kind === 'agent' && event.ids?.length) {
    for (const id of event.ids) agents.delete(id)
    return
  }
  for (const [id, agent] of agents) if (event.organizationId === null || agent.organizationId === event.organizationId) agents.delete(id)
}

/** Drops one agent (reloaded from the database on its next message). */
export function forgetAgent(agentId: string) {
  agents.delete(agentId)
}

/** The agent as cached, without loading it. */
export const cachedAgent = (agentId: string): CachedAgent | undefined => agents.get(agentId)

export const emptySummary = (): Summary => ({ alertsCount: 0, alertsSeverity: NO_SEVERITY, deviationsCount: 0, deviationsSeverity: NO_SEVERITY })
export const sameSummary = (a: Summary, b: Summary) =>
  a.alertsCount === b.alertsCount && a.alertsSeverity === b.alertsSeverity && a.deviationsCount === b.deviationsCount && a.deviationsSeverity === b.deviationsSeverity
export const summaryOf = (row: Summary): Summary => ({
  alertsCount: row.alertsCount,
  alertsSeverity: row.alertsSeverity,
  deviationsCount: row.deviationsCount,
  deviationsSeverity: row.deviationsSeverity,
})

export function loadAgent(sql: IngestStatements, agentId: string): CachedAgent {
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

export const deviceSignature = (d: DeviceRow) =>
  valueHash([d.component, d.product, d.serial, d.name, d.parentKey, d.versionSoftware, d.versionFirmware, d.properties, d.count])
export const issueSignature = (i: { component: string; deviceKey: string | null; message: string; severity: number }) => valueHash([i.component, i.deviceKey, i.message, i.severity])
export const issueCacheKey = (kind: IssueKind, key: string) => `${kind}\u0000${key}`

export function loadSystemContent(sql: IngestStatements, system: CachedSystem) {
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
