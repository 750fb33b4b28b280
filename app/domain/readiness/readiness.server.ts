import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { SEVERITY_ORDER, severityLabel } from '../agents/derived'
import { offlineMinutesOf, presenceSql } from '../agents/presence.server'
import { isTrue, nocase } from '../fleet/dialect.server'
import { cachedOrgRead, visibilityKey } from '../fleet/org-read-cache.server'
import { projectScope } from '../fleet/project.server'
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
/**
 * Deviations per baseline group on the web page (decision 106): the 14 groups of a 1,200-agent project
 * made 700 of the page's 870 rows at 50 each. The page offers PAGE_LIST_LIMIT per group on request.
 */
export const PAGE_DEVIATION_LIMITS = [10, PAGE_LIST_LIMIT] as const

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
 *
 * The database counts and cuts (decision 106): totals per version pair, per agent version and of the
 * offline agents are grouped in SQL, and only the listed rows (the first `listLimit` of each list,
 * by name) come back, so a project of 1,200 agents and 4,700 version rows reads a few hundred rows.
 */
export async function readinessReport(actor: Actor, organizationId: string, projectId: string, now = Date.now(), listLimit = LIST_LIMIT, deviationLimit = listLimit) {
  return buildReport(await projectScope(actor, organizationId, projectId, 'project.view'), projectId, now, listLimit, deviationLimit)
}

/**
 * The report of the web page: its shorter lists (PAGE_LIST_LIMIT, and `deviationLimit` per baseline
 * group), shared for ORG_READ_CACHE_MS by the viewers who see the same projects, like the dashboard
 * beside it: a person's change drops it at once, an agent's report does not (offline agents may show
 * a few seconds late; the alarm that clears with a reconnection drops it).
 */
export async function readinessPage(actor: Actor, organizationId: string, projectId: string, moreDeviations = false) {
  const project = await projectScope(actor, organizationId, projectId, 'project.view')
  const deviationLimit = PAGE_DEVIATION_LIMITS[moreDeviations ? 1 : 0]
  return cachedOrgRead(project.scope.organizationId, `readiness:${projectId}:${deviationLimit}:${visibilityKey(project.scope)}`, () =>
    buildReport(project, projectId, Date.now(), PAGE_LIST_LIMIT, deviationLimit),
  )
}

async function buildReport({ scope, projectIds, inProjects }: Awaited<ReturnType<typeof projectScope>>, projectId: string, now: number, listLimit: number, deviationLimit: number) {
  const organizationId = scope.organizationId
  const agentsInProjects = sql`a."id" IN (SELECT s."agentId" FROM "System" s WHERE ${inProjects})`
  const offlineSql = sql`NOT ${await presenceSql(organizationId, now)}`
  const [pairs, agentVersions, [offlineCount], offlineRows, severities, issues, [hotCount], project] = await Promise.all([
    prisma.$queryRaw<{ component: string; product: string; software: string; firmware: string; devices: bigint | number; systems: bigint | number }[]>(sql`
      SELECT g."component" AS component, g."product" AS product, g."versionSoftware" AS software, g."versionFirmware" AS firmware, SUM(g."count") AS devices, COUNT(*) AS systems
      FROM "System" s JOIN "DeviceVersionCount" g ON g."systemId" = s."id"
      WHERE ${inProjects} AND g."component" <> 'system'
      GROUP BY g."component", g."product", g."versionSoftware", g."versionFirmware"`),
    prisma.$queryRaw<{ product: string; version: string; agents: bigint | number }[]>(sql`
      SELECT a."product" AS product, a."version" AS version, COUNT(*) AS agents FROM "Agent" a WHERE ${agentsInProjects} GROUP BY a."product", a."version"`),
    prisma.$queryRaw<{ total: bigint | number }[]>(sql`SELECT COUNT(*) AS total FROM "Agent" a WHERE ${agentsInProjects} AND ${offlineSql}`),
    prisma.$queryRaw<{ id: string; name: string; enabled: number | boolean; lastSeen: Date | string | null; systems: bigint | number }[]>(sql`
      SELECT a."id" AS id, a."clientName" AS name, a."enabled" AS enabled, a."lastSeen" AS "lastSeen",
        (SELECT COUNT(*) FROM "System" s WHERE s."agentId" = a."id" AND ${inProjects}) AS systems
      FROM "Agent" a WHERE ${agentsInProjects} AND ${offlineSql}
      ORDER BY ${nocase('a."clientName"')}, a."id" LIMIT ${listLimit}`),
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
    prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { offlineAlarmMinutes: true } }),
  ])

  const deviceGroups = deviceBaselines(pairs.map((p) => ({ ...p, devices: Number(p.devices), systems: Number(p.systems) })))
  const agentGroups = agentBaselines(agentVersions.map((v) => ({ ...v, agents: Number(v.agents) })))
  const [deviceDeviations, agentDeviations, offlineMinutes] = await Promise.all([
    listDeviceDeviations(inProjects, deviceGroups, deviationLimit),
    listAgentDeviations(agentsInProjects, agentGroups, deviationLimit),
    offlineMinutesOf(offlineRows.map((a) => a.id)),
  ])
  const allGroups = [
    ...agentGroups.map((g) => ({ ...g, deviations: agentDeviations.get(g.product) ?? [] })),
    ...deviceGroups.map((g) => ({ ...g, deviations: deviceDeviations.get(groupKey(g.component, g.product)) ?? [] })),
  ]
  const offline = offlineRows.map((a) => ({
    id: a.id,
    name: a.name || a.id,
    lastSeen: a.lastSeen ? new Date(a.lastSeen).toISOString() : null,
    systems: Number(a.systems),
    disabled: !a.enabled,
    offlineAfterMinutes: offlineMinutes.get(a.id)!,
  }))
  const agentsOffline = Number(offlineCount?.total ?? 0)
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
      agents: agentVersions.reduce((n, v) => n + Number(v.agents), 0),
      agentsOffline,
      baselineDeviations: deviationCount,
      openIssues: bySeverity.reduce((n, s) => n + s.alerts + s.deviations, 0),
      criticalOrErrorIssues: criticalOpen,
      tilesOverTemperature,
      /** ready: nothing offline, no critical or error issue, no tile over temperature */
      ready: agentsOffline === 0 && criticalOpen === 0 && tilesOverTemperature === 0,
    },
    baselines: allGroups.map(({ deviatingDevices: _, ...g }) => g),
    issuesBySeverity: bySeverity,
    openIssues,
    openIssuesTruncated: issues.length >= listLimit,
    /** the first offline agents by name; summary.agentsOffline counts them all */
    offline,
    tilesOverTemperature: hot,
  }
}
export type ReadinessReport = Awaited<ReturnType<typeof buildReport>>

type Deviation = BaselineGroup['deviations'][number]
type GroupTotals = Omit<BaselineGroup, 'deviations'> & { deviatingDevices: number }
const groupKey = (component: string, product: string) => `${component}\u0000${product}`

/** Highest count first; a tie goes to the newer version (numeric collation), so the baseline is stable. */
function pickBaseline(totals: Map<string, number>) {
  return [...totals].sort(([a, n], [b, m]) => m - n || byVersion.compare(b, a))[0]
}

/** Per component and product of the project's devices: the most common software/firmware pair, from the totals per version pair. */
function deviceBaselines(pairs: { component: string; product: string; software: string; firmware: string; devices: number; systems: number }[]): GroupTotals[] {
  const groups = new Map<string, typeof pairs>()
  for (const p of pairs) {
    const key = groupKey(p.component, p.product)
    const list = groups.get(key)
    if (list) list.push(p)
    else groups.set(key, [p])
  }
  return [...groups.values()]
    .map((list) => {
      const [best, count] = pickBaseline(new Map(list.map((p) => [`${p.software}\u0000${p.firmware}`, p.devices])))
      const [software, firmware] = best.split('\u0000')
      const deviating = list.filter((p) => p.software !== software || p.firmware !== firmware)
      return {
        component: list[0].component,
        product: list[0].product,
        baseline: { software, firmware, count },
        total: list.reduce((n, p) => n + p.devices, 0),
        // a deviation row is one system's devices of one version pair
        deviationsTotal: deviating.reduce((n, p) => n + p.systems, 0),
        deviatingDevices: deviating.reduce((n, p) => n + p.devices, 0),
      }
    })
    .sort((a, b) => a.component.localeCompare(b.component) || a.product.localeCompare(b.product))
}

/** The agents' own software: per agent product the most common version (agents reporting no version are left out). */
function agentBaselines(versions: { product: string; version: string; agents: number }[]): GroupTotals[] {
  const products = new Map<string, typeof versions>()
  for (const v of versions) {
    if (!v.version) continue
    const list = products.get(v.product)
    if (list) list.push(v)
    else products.set(v.product, [v])
  }
  return [...products.values()].map((list) => {
    const [software, count] = pickBaseline(new Map(list.map((v) => [v.version, v.agents])))
    const total = list.reduce((n, v) => n + v.agents, 0)
    return { component: 'agent', product: list[0].product, baseline: { software, firmware: '', count }, total, deviationsTotal: total - count, deviatingDevices: total - count }
  })
}

/** The first `limit` deviating systems of each device group, by agent and system name. */
async function listDeviceDeviations(inProjects: Prisma.Sql, groups: GroupTotals[], limit: number) {
  const byGroup = new Map<string, Deviation[]>()
  const deviating = groups.filter((g) => g.deviationsTotal > 0)
  if (!deviating.length || limit <= 0) return byGroup
  const baseline = Prisma.join(
    deviating.map((g) => sql`(g."component" = ${g.component} AND g."product" = ${g.product} AND g."versionSoftware" = ${g.baseline.software} AND g."versionFirmware" = ${g.baseline.firmware})`),
    ' OR ',
  )
  const groupIn = Prisma.join(deviating.map((g) => sql`(g."component" = ${g.component} AND g."product" = ${g.product})`), ' OR ')
  const systemName = 'COALESCE(NULLIF(s."name", \'\'), s."key")'
  const rows = await prisma.$queryRaw<(Deviation & { component: string; product: string; count: bigint | number })[]>(sql`
    SELECT * FROM (
      SELECT s."id" AS "systemId", ${Prisma.raw(systemName)} AS "systemName", a."id" AS "agentId", a."clientName" AS "agentName",
        g."component" AS component, g."product" AS product, g."versionSoftware" AS software, g."versionFirmware" AS firmware, g."count" AS count,
        ROW_NUMBER() OVER (PARTITION BY g."component", g."product" ORDER BY ${nocase('a."clientName"')}, ${nocase(systemName)}, s."id", g."versionSoftware", g."versionFirmware") AS rn
      FROM "System" s JOIN "Agent" a ON a."id" = s."agentId" JOIN "DeviceVersionCount" g ON g."systemId" = s."id"
      WHERE ${inProjects} AND (${groupIn}) AND NOT (${baseline})
    ) t WHERE t.rn <= ${limit} ORDER BY t.rn`)
  for (const { component, product, count, systemId, systemName: name, agentId, agentName, software, firmware } of rows) {
    const key = groupKey(component, product)
    const list = byGroup.get(key) ?? []
    list.push({ systemId, systemName: name, agentId, agentName, software, firmware, count: Number(count) })
    byGroup.set(key, list)
  }
  return byGroup
}

/** The first `limit` agents of each agent product not on its baseline version, by name. */
async function listAgentDeviations(agentsInProjects: Prisma.Sql, groups: GroupTotals[], limit: number) {
  const byProduct = new Map<string, Deviation[]>()
  const deviating = groups.filter((g) => g.deviationsTotal > 0)
  if (!deviating.length || limit <= 0) return byProduct
  const offBaseline = Prisma.join(deviating.map((g) => sql`(a."product" = ${g.product} AND a."version" <> ${g.baseline.software})`), ' OR ')
  const rows = await prisma.$queryRaw<{ id: string; name: string; product: string; version: string }[]>(sql`
    SELECT * FROM (
      SELECT a."id" AS id, a."clientName" AS name, a."product" AS product, a."version" AS version,
        ROW_NUMBER() OVER (PARTITION BY a."product" ORDER BY ${nocase('a."clientName"')}, a."id") AS rn
      FROM "Agent" a WHERE ${agentsInProjects} AND a."version" <> '' AND (${offBaseline})
    ) t WHERE t.rn <= ${limit} ORDER BY t.rn`)
  for (const a of rows) {
    const list = byProduct.get(a.product) ?? []
    list.push({ systemId: '', systemName: '', agentId: a.id, agentName: a.name || a.id, software: a.version, firmware: '', count: 1 })
    byProduct.set(a.product, list)
  }
  return byProduct
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
