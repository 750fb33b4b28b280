import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { SEVERITY_ORDER, severityLabel } from '../agents/derived'
import { presenceOf } from '../agents/presence.server'
import { accessDenied, notFound } from '../errors'
import { isTrue } from '../fleet/dialect.server'
import { loadFleetScope } from '../fleet/scope.server'
import { prisma } from '~/utils/db.server'

const sql = Prisma.sql
/** The issue key receivers report when a tile runs too hot. */
export const TEMPERATURE_ISSUE_KEY = 'recv.tempHigh'
/** Lists in the report (downloads, API) stop here; the counts stay exact. */
const LIST_LIMIT = 500
/**
 * Lists on the web page stop here (decision 087): a parent project of 2,300 agents of the
 * 100,000-agent bench made a 1.75 MB page (5,800 deviation rows, 671 offline agents); the
 * downloads keep LIST_LIMIT.
 */
export const PAGE_LIST_LIMIT = 50

const byVersion = new Intl.Collator('en', { numeric: true })

export type BaselineGroup = {
  /** 'agent' for the agents' own software, otherwise the device component (processor, receiver, ...) */
  component: string
  product: string
  /** the most common version pair of this component and product in the project (see docs/readiness.md) */
  baseline: { software: string; firmware: string; count: number }
  total: number
  /** deviating rows before the list was cut at the report's list limit */
  deviationsTotal: number
  deviations: { systemId: string; systemName: string; agentId: string; agentName: string; software: string; firmware: string; count: number }[]
}

/**
 * The pre-show readiness report of a project and its subprojects: version baseline deviations,
 * open issues by severity, offline agents and tiles over temperature. Needs project.view on the
 * project (the overview's metrics right is not required: a stage manager checking readiness views).
 */
export async function readinessReport(actor: Actor, organizationId: string, projectId: string, now = Date.now(), listLimit = LIST_LIMIT) {
  const scope = await loadFleetScope(actor, organizationId, 'project.view')
  if (!scope.projects.has(projectId)) throw notFound('Project not found')
  if (!scope.access.can('project.view', projectId)) throw accessDenied()
  const projectIds = scope.subtree(projectId)
  const inProjects = sql`s."projectId" IN (${Prisma.join(projectIds)})`
  const [versions, agents, severities, issues, [hotCount]] = await Promise.all([
    prisma.$queryRaw<{ systemId: string; systemName: string; agentId: string; agentName: string; component: string; product: string; software: string; firmware: string; count: bigint | number }[]>(sql`
      SELECT s."id" AS "systemId", COALESCE(NULLIF(s."name", ''), s."key") AS "systemName", a."id" AS "agentId", a."clientName" AS "agentName",
        g."component" AS component, g."product" AS product, g."versionSoftware" AS software, g."versionFirmware" AS firmware, g."count" AS count
      FROM "System" s JOIN "Agent" a ON a."id" = s."agentId" JOIN "DeviceVersionCount" g ON g."systemId" = s."id"
      WHERE ${inProjects} AND g."component" <> 'system'`),
    prisma.$queryRaw<{ id: string; name: string; product: string; version: string; enabled: number | boolean; lastSeen: Date | string | null; systems: bigint | number }[]>(sql`
      SELECT a."id" AS id, a."clientName" AS name, a."product" AS product, a."version" AS version, a."enabled" AS enabled, a."lastSeen" AS "lastSeen", COUNT(*) AS systems
      FROM "Agent" a JOIN "System" s ON s."agentId" = a."id" WHERE ${inProjects}
      GROUP BY a."id", a."clientName", a."product", a."version", a."enabled", a."lastSeen" ORDER BY a."clientName", a."id"`),
    prisma.$queryRaw<{ severity: number; kind: string; total: bigint | number }[]>(sql`
      SELECT i."severity" AS severity, i."kind" AS kind, COUNT(*) AS total FROM "Issue" i JOIN "System" s ON s."id" = i."systemId"
      WHERE ${inProjects} AND ${isTrue('i."isActive"')} GROUP BY i."severity", i."kind"`),
    prisma.$queryRaw<{ id: string; key: string; kind: string; severity: number; message: string; component: string; deviceKey: string | null; latestAt: Date | string; systemName: string; agentName: string; agentId: string }[]>(sql`
      SELECT i."id" AS id, i."key" AS key, i."kind" AS kind, i."severity" AS severity, i."message" AS message, i."component" AS component,
        i."deviceKey" AS "deviceKey", i."latestAt" AS "latestAt", COALESCE(NULLIF(s."name", ''), s."key") AS "systemName", a."clientName" AS "agentName", a."id" AS "agentId"
      FROM "Issue" i JOIN "System" s ON s."id" = i."systemId" JOIN "Agent" a ON a."id" = s."agentId"
      WHERE ${inProjects} AND ${isTrue('i."isActive"')} ORDER BY i."severity", i."latestAt" DESC, i."id" LIMIT ${listLimit}`),
    // counted apart from the list above, which stops at the list limit
    prisma.$queryRaw<{ total: bigint | number }[]>(sql`
      SELECT COUNT(*) AS total FROM "Issue" i JOIN "System" s ON s."id" = i."systemId"
      WHERE i."key" = ${TEMPERATURE_ISSUE_KEY} AND ${isTrue('i."isActive"')} AND ${inProjects}`),
  ])

  const baselines = deviceBaselines(versions.map((v) => ({ ...v, count: Number(v.count) })), listLimit)
  const agentGroups = agentBaselines(agents, listLimit)
  const allGroups = [...agentGroups, ...baselines]
  // the presence rule of the Connected tag and the offline alarm (agents/presence.server.ts)
  const [presence, project] = await Promise.all([
    presenceOf(agents, now),
    prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { offlineAlarmMinutes: true } }),
  ])
  const offline = agents
    .filter((a) => !presence.get(a.id)!.connected)
    .map((a) => ({ id: a.id, name: a.name || a.id, lastSeen: a.lastSeen ? new Date(a.lastSeen).toISOString() : null, systems: Number(a.systems), disabled: !a.enabled, offlineAfterMinutes: presence.get(a.id)!.offlineMinutes }))
  const bySeverity = SEVERITY_ORDER.map((severity) => {
    const rows = severities.filter((r) => r.severity === severity)
    const count = (kind: string) => rows.filter((r) => r.kind === kind).reduce((n, r) => n + Number(r.total), 0)
    return { severity, label: severityLabel(severity), alerts: count('alert'), deviations: count('deviation') }
  })
  const openIssues = issues.map((i) => ({ ...i, severityLabel: severityLabel(i.severity), latestAt: new Date(i.latestAt).toISOString() }))
  const hot = openIssues.filter((i) => i.key === TEMPERATURE_ISSUE_KEY)
  const deviationCount = allGroups.reduce((n, g) => n + g.deviatingDevices, 0)
  const tilesOverTemperature = Number(hotCount?.total ?? 0)
  const criticalOpen = bySeverity.filter((s) => s.severity <= 3).reduce((n, s) => n + s.alerts + s.deviations, 0)
  return {
    organization: { id: organizationId, name: scope.access.organization.name },
    project: { id: projectId, name: scope.projectPath(projectId).map((p) => p.name).join(' / '), subProjects: projectIds.length - 1 },
    generatedAt: new Date(now).toISOString(),
    /** the project's "Offline alarm after" delay: an agent unseen this long is offline (each agent uses the shortest delay of its systems' projects) */
    offlineAfterMinutes: project.offlineAlarmMinutes,
    /** the same value under its former name */
    connectedWindowMinutes: project.offlineAlarmMinutes,
    summary: {
      agents: agents.length,
      agentsOffline: offline.length,
      baselineDeviations: deviationCount,
      openIssues: bySeverity.reduce((n, s) => n + s.alerts + s.deviations, 0),
      criticalOrErrorIssues: criticalOpen,
      tilesOverTemperature,
      /** ready: nothing offline, no critical or error issue, no tile over temperature */
      ready: offline.length === 0 && criticalOpen === 0 && tilesOverTemperature === 0,
    },
    baselines: allGroups.map(({ deviatingDevices: _, ...g }) => g),
    issuesBySeverity: bySeverity,
    openIssues,
    openIssuesTruncated: issues.length >= listLimit,
    /** the first offline agents by name; summary.agentsOffline counts them all */
    offline: offline.slice(0, listLimit),
    tilesOverTemperature: hot,
  }
}
export type ReadinessReport = Awaited<ReturnType<typeof readinessReport>>

type VersionRow = { systemId: string; systemName: string; agentId: string; agentName: string; component: string; product: string; software: string; firmware: string; count: number }

/** Highest count first; a tie goes to the newer version (numeric collation), so the baseline is stable. */
function pickBaseline(totals: Map<string, number>) {
  return [...totals].sort(([a, n], [b, m]) => m - n || byVersion.compare(b, a))[0]
}

/** Per component and product of the project's devices: the most common software/firmware pair, and every system deviating from it. */
function deviceBaselines(rows: VersionRow[], listLimit: number): (BaselineGroup & { deviatingDevices: number })[] {
  const groups = new Map<string, VersionRow[]>()
  for (const r of rows) {
    const key = `${r.component}\u0000${r.product}`
    groups.set(key, [...(groups.get(key) ?? []), r])
  }
  return [...groups.values()]
    .map((list) => {
      const totals = new Map<string, number>()
      for (const r of list) totals.set(`${r.software}\u0000${r.firmware}`, (totals.get(`${r.software}\u0000${r.firmware}`) ?? 0) + r.count)
      const [best, count] = pickBaseline(totals)
      const [software, firmware] = best.split('\u0000')
      const deviating = list.filter((r) => r.software !== software || r.firmware !== firmware)
      return {
        component: list[0].component,
        product: list[0].product,
        baseline: { software, firmware, count },
        total: list.reduce((n, r) => n + r.count, 0),
        deviationsTotal: deviating.length,
        deviatingDevices: deviating.reduce((n, r) => n + r.count, 0),
        deviations: deviating
          .map(({ systemId, systemName, agentId, agentName, software, firmware, count }) => ({ systemId, systemName, agentId, agentName, software, firmware, count }))
          .sort((a, b) => a.agentName.localeCompare(b.agentName) || a.systemName.localeCompare(b.systemName))
          .slice(0, listLimit),
      }
    })
    .sort((a, b) => a.component.localeCompare(b.component) || a.product.localeCompare(b.product))
}

/** The agents' own software: per agent product the most common version. */
function agentBaselines(agents: { id: string; name: string; product: string; version: string }[], listLimit: number): (BaselineGroup & { deviatingDevices: number })[] {
  const products = new Map<string, typeof agents>()
  for (const a of agents) if (a.version) products.set(a.product, [...(products.get(a.product) ?? []), a])
  return [...products.values()].map((list) => {
    const totals = new Map<string, number>()
    for (const a of list) totals.set(a.version, (totals.get(a.version) ?? 0) + 1)
    const [software, count] = pickBaseline(totals)
    const deviating = list.filter((a) => a.version !== software)
    return {
      component: 'agent',
      product: list[0].product,
      baseline: { software, firmware: '', count },
      total: list.length,
      deviationsTotal: deviating.length,
      deviatingDevices: deviating.length,
      // the agents come ordered by name (the query)
      deviations: deviating.slice(0, listLimit).map((a) => ({ systemId: '', systemName: '', agentId: a.id, agentName: a.name || a.id, software: a.version, firmware: '', count: 1 })),
    }
  })
}

/** The report as CSV: one section per part, each with its own header line. */
export function readinessCsv(report: ReadinessReport, csvLine: (cells: unknown[]) => string): string {
  const lines: string[] = [csvLine(['Readiness report', report.project.name, report.generatedAt])]
  lines.push('', csvLine(['Section', 'Component', 'Product', 'Agent', 'System', 'Software', 'Firmware', 'Baseline software', 'Baseline firmware', 'Devices']))
  for (const g of report.baselines) for (const d of g.deviations) lines.push(csvLine(['Baseline deviation', g.component, g.product, d.agentName, d.systemName, d.software, d.firmware, g.baseline.software, g.baseline.firmware, d.count]))
  lines.push('', csvLine(['Section', 'Severity', 'Alerts', 'Deviations']))
  for (const s of report.issuesBySeverity) lines.push(csvLine(['Open issues', s.label, s.alerts, s.deviations]))
  lines.push('', csvLine(['Section', 'Severity', 'Kind', 'Key', 'Agent', 'System', 'Component', 'Device', 'Message', 'Latest']))
  for (const i of report.openIssues) lines.push(csvLine([i.key === TEMPERATURE_ISSUE_KEY ? 'Tile over temperature' : 'Open issue', i.severityLabel, i.kind, i.key, i.agentName, i.systemName, i.component, i.deviceKey ?? '', i.message, i.latestAt]))
  lines.push('', csvLine(['Section', 'Agent', 'Last seen', 'Systems', 'Disabled']))
  for (const a of report.offline) lines.push(csvLine(['Agent offline', a.name, a.lastSeen ?? 'Never', a.systems, a.disabled ? 'yes' : 'no']))
  return lines.join('\r\n') + '\r\n'
}
