import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { ISSUE_HISTORY_WINDOW_MS } from '../agents/derived'
import { presenceOf, presenceSql } from '../agents/presence.server'
import { accessDenied, notFound } from '../errors'
import { type Permission } from '../access/catalogue'
import { prisma } from '~/utils/db.server'
import { agentCore, agentSelect, canConnect, loadAgentExtras } from './agent-summary.server'
import { type ChartDatum, HISTORY_SEVERITIES, SEVERITY_STEPS, severityStep } from './labels'
import { isTrue, utcDay } from './dialect.server'
import { cachedOrgRead, userKey } from './org-read-cache.server'
import { type FleetScope, loadFleetScope } from './scope.server'
import { compareNames } from '~/utils/name-order'

const sql = Prisma.sql
const DAY_MS = 86_400_000

/** The viewer's scope and the project's subtree; 404 for a project they cannot see, 403 without `permission` on it. */
export async function projectScope(actor: Actor, organizationId: string, projectId: string, permission: Permission) {
  const scope = await loadFleetScope(actor, organizationId, permission)
  if (!scope.projects.has(projectId)) throw notFound('Project not found')
  if (!scope.access.can(permission, projectId)) throw accessDenied()
  // every project below a viewable project inherits its view right
  const projectIds = scope.subtree(projectId)
  return { scope, projectIds, inProjects: sql`s."projectId" IN (${Prisma.join(projectIds)})` }
}

const toCount = (rows: { label: string | null; total: bigint | number; message?: string | null }[]): ChartDatum[] =>
  rows.map((r) => ({ key: r.label ?? '(none)', count: Number(r.total), ...(r.message ? { message: r.message } : {}) }))

/** Project overview (spec 02 section 2): three cards, seven chart datasets and the extra info. Needs project.metrics.view. */
export async function projectOverview(actor: Actor, organizationId: string, projectId: string) {
  const { scope, projectIds, inProjects } = await projectScope(actor, organizationId, projectId, 'project.metrics.view')
  // the same for every viewer allowed to see it (the project's whole subtree), so shared briefly
  return cachedOrgRead(scope.organizationId, `overview:${projectId}`, () => loadOverview(scope, projectId, projectIds, inProjects))
}

async function loadOverview(scope: FleetScope, projectId: string, projectIds: string[], inProjects: Prisma.Sql) {
  const connected = await presenceSql(scope.organizationId)
  const historyStart = new Date(Date.now() - ISSUE_HISTORY_WINDOW_MS)
  const issueBase = sql`FROM "Issue" i JOIN "System" s ON s."id" = i."systemId" WHERE ${inProjects} AND ${isTrue('i."isActive"')}`
  const [systems, issueTotals, bySeverity, byType, byComponent, deviceGroups, history, perProject] = await Promise.all([
    prisma.$queryRaw<{ total: bigint; connected: bigint | null }[]>(sql`
      SELECT COUNT(*) AS total, SUM(CASE WHEN ${connected} THEN 1 ELSE 0 END) AS connected
      FROM "System" s JOIN "Agent" a ON a."id" = s."agentId" WHERE ${inProjects}`),
    prisma.$queryRaw<{ kind: string; total: bigint }[]>(sql`SELECT i."kind" AS kind, COUNT(*) AS total ${issueBase} GROUP BY i."kind"`),
    prisma.$queryRaw<{ severity: number; total: bigint }[]>(sql`SELECT i."severity" AS severity, COUNT(*) AS total ${issueBase} GROUP BY i."severity"`),
    prisma.$queryRaw<{ label: string; total: bigint; message: string | null }[]>(
      sql`SELECT i."key" AS label, COUNT(*) AS total, MAX(i."message") AS message ${issueBase} GROUP BY i."key" ORDER BY total DESC, label LIMIT 50`,
    ),
    prisma.$queryRaw<{ label: string; total: bigint }[]>(sql`SELECT i."component" AS label, COUNT(*) AS total ${issueBase} GROUP BY label ORDER BY total DESC, label`),
    // one pass over the systems' device counts (DeviceVersionCount, ~4 rows per system); the four device
    // charts and the card come from it. Versions are '' when unknown.
    prisma.$queryRaw<{ component: string; product: string; software: string; firmware: string; connected: number; total: bigint }[]>(sql`
      SELECT g."component" AS component, g."product" AS product, g."versionSoftware" AS software, g."versionFirmware" AS firmware,
        (CASE WHEN ${connected} THEN 1 ELSE 0 END) AS connected, SUM(g."count") AS total
      FROM "System" s JOIN "Agent" a ON a."id" = s."agentId" JOIN "DeviceVersionCount" g ON g."systemId" = s."id"
      WHERE ${inProjects} GROUP BY 1, 2, 3, 4, 5`),
    prisma.$queryRaw<{ day: string; total: bigint }[]>(sql`
      SELECT ${utcDay('h."timestamp"')} AS day, SUM(h."count") AS total
      FROM "IssueHistory" h JOIN "Issue" i ON i."id" = h."issueId" JOIN "System" s ON s."id" = i."systemId"
      WHERE ${inProjects} AND h."timestamp" >= ${historyStart} GROUP BY day ORDER BY day`),
    prisma.$queryRaw<{ id: string; total: bigint }[]>(sql`SELECT s."projectId" AS id, COUNT(*) AS total ${issueBase} GROUP BY s."projectId" ORDER BY total DESC`),
  ])
  const severityCounts = new Map<string, number>(SEVERITY_STEPS.map((s) => [s, 0]))
  for (const r of bySeverity) severityCounts.set(severityStep(r.severity), severityCounts.get(severityStep(r.severity))! + Number(r.total))
  const kindCount = (kind: string) => Number(issueTotals.find((r) => r.kind === kind)?.total ?? 0)
  const deviceChart = (label: (r: (typeof deviceGroups)[number]) => string | null) => {
    const totals = new Map<string, number>()
    for (const r of deviceGroups) {
      const key = label(r) ?? '(none)'
      totals.set(key, (totals.get(key) ?? 0) + Number(r.total))
    }
    return [...totals].map(([key, count]) => ({ key, count })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)).slice(0, 50)
  }
  const devicesTotal = deviceGroups.reduce((n, r) => n + Number(r.total), 0)
  const devicesConnected = deviceGroups.reduce((n, r) => n + (r.connected ? Number(r.total) : 0), 0)
  return {
    project: { id: projectId, name: scope.projects.get(projectId)!.name, subProjects: projectIds.length - 1 },
    cards: {
      systems: { total: Number(systems[0]?.total ?? 0), connected: Number(systems[0]?.connected ?? 0) },
      issues: { reported: kindCount('alert') + kindCount('deviation'), alerts: kindCount('alert'), deviations: kindCount('deviation') },
      /** devices reported through a connected agent; null (shown as 'Unknown') when none were ever reported */
      devices: { connected: devicesTotal > 0 ? devicesConnected : null, total: devicesTotal },
    },
    charts: {
      issuesBySeverity: SEVERITY_STEPS.map((key) => ({ key, count: severityCounts.get(key)! })),
      issuesByType: toCount(byType),
      issuesByComponent: toCount(byComponent),
      devicesByComponent: deviceChart((r) => r.component),
      devicesByProduct: deviceChart((r) => r.product || null),
      devicesByVersionSoftware: deviceChart((r) => r.software || null),
      devicesByVersionFirmware: deviceChart((r) => r.firmware || null),
    },
    extraInfo: {
      history: history.map((r) => ({ date: r.day, count: Number(r.total) })),
      projects: perProject.map((r) => ({ id: r.id, name: scope.projects.get(r.id)?.name ?? r.id, count: Number(r.total) })),
    },
  }
}

/** Rows per page of the Agents tab (each row carries a device summary). */
export const PROJECT_AGENTS_PAGE_SIZE = 25
/** Systems per page of the Devices tab (each with its device tree, ~20 devices in a typical wall). */
export const PROJECT_DEVICE_SYSTEMS_PAGE_SIZE = 25

/** Rows per page of the Issues tab's 'Issue Counts' table. */
export const PROJECT_ISSUES_PAGE_SIZE = 100

const pageOf = (page: number, total: number, size: number) => Math.min(Math.max(1, page), Math.max(1, Math.ceil(total / size)))

/**
 * Agents tab: agents with systems in the project (or below), each with a device summary, one page
 * at a time (ordered by name). `focus` (an agent id, from the projects list's system tags) picks the
 * page holding that agent. Needs project.view. Parameters stay bounded: the agent list is a
 * sub-query, only one page of ids is ever bound.
 */
export async function projectAgents(actor: Actor, organizationId: string, projectId: string, options: { page?: number; focus?: string | null } = {}) {
  const { scope, projectIds, inProjects } = await projectScope(actor, organizationId, projectId, 'project.view')
  // per user (rows carry what this user may do) and page; dropped by every change, agent reports included
  const load = () => loadProjectAgents(scope, organizationId, projectIds, inProjects, options)
  const user = userKey(actor)
  return user ? cachedOrgRead(scope.organizationId, `project-agents:${projectId}:${user}:${options.page ?? 1}:${options.focus ?? ''}`, load, Date.now(), { dropOnReport: true }) : load()
}

async function loadProjectAgents(scope: FleetScope, organizationId: string, projectIds: string[], inProjects: Prisma.Sql, options: { page?: number; focus?: string | null }) {
  const now = Date.now()
  const inScope = sql`a."organizationId" = ${organizationId} AND EXISTS (SELECT 1 FROM "System" s WHERE s."agentId" = a."id" AND ${inProjects})`
  // counted from the project's systems (System.projectId index): EXISTS probed every agent of the organization
  const [{ total }] = await prisma.$queryRaw<{ total: bigint }[]>(
    sql`SELECT COUNT(*) AS total FROM "Agent" a WHERE a."organizationId" = ${organizationId} AND a."id" IN (SELECT s."agentId" FROM "System" s WHERE ${inProjects})`,
  )
  const count = Number(total)
  let page = options.page ?? 1
  if (options.focus) {
    const [rank] = await prisma.$queryRaw<{ before: bigint }[]>(sql`
      SELECT (SELECT COUNT(*) FROM "Agent" a WHERE ${inScope} AND (a."clientName" < f."clientName" OR (a."clientName" = f."clientName" AND a."id" < f."id"))) AS before
      FROM "Agent" f WHERE f."id" = ${options.focus} AND f."organizationId" = ${organizationId}`)
    if (rank) page = Math.floor(Number(rank.before) / PROJECT_AGENTS_PAGE_SIZE) + 1
  }
  page = pageOf(page, count, PROJECT_AGENTS_PAGE_SIZE)
  const idRows = await prisma.$queryRaw<{ id: string }[]>(sql`
    SELECT a."id" AS id FROM "Agent" a WHERE ${inScope} ORDER BY a."clientName", a."id" LIMIT ${PROJECT_AGENTS_PAGE_SIZE} OFFSET ${(page - 1) * PROJECT_AGENTS_PAGE_SIZE}`)
  const ids = idRows.map((r) => r.id)
  const [agents, extras, deviceCounts] = await Promise.all([
    prisma.agent.findMany({ where: { id: { in: ids } }, select: agentSelect }),
    loadAgentExtras(scope, ids),
    ids.length
      ? prisma.$queryRaw<{ agentId: string; component: string; count: bigint }[]>(sql`
      SELECT s."agentId" AS "agentId", g."component" AS component, SUM(g."count") AS count
      FROM "DeviceVersionCount" g JOIN "System" s ON s."id" = g."systemId"
      WHERE s."agentId" IN (${Prisma.join(ids)}) AND ${inProjects} GROUP BY s."agentId", g."component"`)
      : [],
  ])
  const byId = new Map(agents.map((a) => [a.id, a]))
  const devicesByAgent = new Map<string, { component: string; count: number }[]>()
  for (const r of deviceCounts) devicesByAgent.set(r.agentId, [...(devicesByAgent.get(r.agentId) ?? []), { component: r.component, count: Number(r.count) }])
  return {
    rows: ids.flatMap((id) => {
      const a = byId.get(id)
      if (!a) return []
      const extra = extras.get(a.id)!
      const systems = extra.systems.filter((s) => s.projectId && projectIds.includes(s.projectId))
      return [{ ...agentCore(a, now, extra.offlineMinutes), ...extra.summary, systems, devices: devicesByAgent.get(a.id) ?? [], canConnect: canConnect(scope, systems) }]
    }),
    page,
    pageSize: PROJECT_AGENTS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(count / PROJECT_AGENTS_PAGE_SIZE)),
    total: count,
    canDelete: scope.access.can('agent.delete'),
  }
}

export type DeviceNode = { id: string; key: string; name: string; component: string; product: string; serial: string; versionSoftware: string | null; versionFirmware: string | null; count: number; children: DeviceNode[] }

/** Devices tab: per system (one page of systems, by agent name), the devices as a tree grouped by parent. Needs project.view. */
export async function projectDevices(actor: Actor, organizationId: string, projectId: string, options: { page?: number } = {}) {
  const { scope, projectIds } = await projectScope(actor, organizationId, projectId, 'project.view')
  // the same for every viewer allowed to see the project; shows connection state, so agent reports drop it too
  return cachedOrgRead(scope.organizationId, `project-devices:${projectId}:${options.page ?? 1}`, () => loadProjectDevices(scope, projectIds, options), Date.now(), { dropOnReport: true })
}

async function loadProjectDevices(scope: FleetScope, projectIds: string[], options: { page?: number }) {
  const where = scope.systemsInProjects(projectIds)
  const total = await prisma.system.count({ where })
  const page = pageOf(options.page ?? 1, total, PROJECT_DEVICE_SYSTEMS_PAGE_SIZE)
  const systems = await prisma.system.findMany({
    where,
    select: { id: true, key: true, name: true, projectId: true, agent: { select: { id: true, clientName: true, enabled: true, lastSeen: true } } },
    orderBy: [{ agent: { clientName: 'asc' } }, { key: 'asc' }, { id: 'asc' }],
    skip: (page - 1) * PROJECT_DEVICE_SYSTEMS_PAGE_SIZE,
    take: PROJECT_DEVICE_SYSTEMS_PAGE_SIZE,
  })
  // one page of systems: the id list is bounded by the page size
  const devices = await prisma.device.findMany({
    where: { systemId: { in: systems.map((s) => s.id) } },
    select: { id: true, systemId: true, key: true, name: true, component: true, product: true, serial: true, parentKey: true, versionSoftware: true, versionFirmware: true, count: true },
    orderBy: [{ systemId: 'asc' }, { key: 'asc' }],
  })
  const bySystem = new Map<string, typeof devices>()
  for (const d of devices) bySystem.set(d.systemId, [...(bySystem.get(d.systemId) ?? []), d])
  const presence = await presenceOf(systems.map((s) => s.agent))
  return {
    page,
    pageSize: PROJECT_DEVICE_SYSTEMS_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / PROJECT_DEVICE_SYSTEMS_PAGE_SIZE)),
    total,
    systems: systems.map((s) => ({
      id: s.id,
      key: s.key,
      name: s.name || s.key,
      projectName: s.projectId ? (scope.projects.get(s.projectId)?.name ?? '') : '',
      agent: { id: s.agent.id, name: s.agent.clientName || s.agent.id, isConnected: presence.get(s.agent.id)!.connected },
      tree: deviceTree(bySystem.get(s.id) ?? []),
    })),
  }
}

/** Nests devices under their parent key; a device whose parent is missing becomes a root. */
export function deviceTree(devices: { id: string; key: string; name: string; component: string; product: string; serial: string; parentKey: string | null; versionSoftware: string | null; versionFirmware: string | null; count: number }[]): DeviceNode[] {
  const nodes = new Map<string, DeviceNode>(
    devices.map((d) => [d.key, { id: d.id, key: d.key, name: d.name || d.key, component: d.component, product: d.product, serial: d.serial, versionSoftware: d.versionSoftware, versionFirmware: d.versionFirmware, count: d.count, children: [] }]),
  )
  const roots: DeviceNode[] = []
  // one shared collator: localeCompare with options built one per comparison (thousands of devices)
  const natural = (a: { key: string }, b: { key: string }) => compareNames(a.key, b.key)
  for (const d of [...devices].sort(natural)) {
    const parent = d.parentKey && d.parentKey !== d.key ? nodes.get(d.parentKey) : undefined
    if (parent) parent.children.push(nodes.get(d.key)!)
    else roots.push(nodes.get(d.key)!)
  }
  return roots
}

/**
 * Issues tab: 'Issue History', per day and severity over the last 10 days (one grouped query; the
 * tab's issue list comes from the alarm lifecycle). Needs project.view.
 */
export async function projectIssueHistory(actor: Actor, organizationId: string, projectId: string, now = Date.now()) {
  const { scope, inProjects } = await projectScope(actor, organizationId, projectId, 'project.view')
  // the same for every viewer allowed to see the project; a new day starts a new entry
  const day = Math.floor(now / DAY_MS)
  return cachedOrgRead(scope.organizationId, `issue-history:${projectId}:${day}`, () => issueHistoryOf(inProjects, now))
}

async function issueHistoryOf(inProjects: Prisma.Sql, now: number) {
  const firstDay = Math.floor(now / DAY_MS) * DAY_MS - 9 * DAY_MS
  const history = await prisma.$queryRaw<{ day: string; severity: number; count: bigint }[]>(sql`
    SELECT ${utcDay('h."timestamp"')} AS day, i."severity" AS severity, SUM(h."count") AS count
    FROM "IssueHistory" h JOIN "Issue" i ON i."id" = h."issueId" JOIN "System" s ON s."id" = i."systemId"
    WHERE ${inProjects} AND h."timestamp" >= ${new Date(firstDay)} GROUP BY day, i."severity"`)
  const days = Array.from({ length: 10 }, (_, i) => new Date(firstDay + i * DAY_MS).toISOString().slice(0, 10))
  const chart = days.map((day) => {
    const entry: Record<string, number | string> = { day: day.slice(5) }
    for (const name of HISTORY_SEVERITIES) entry[name] = 0
    for (const r of history) {
      if (r.day !== day) continue
      const step = severityStep(r.severity).toLowerCase()
      if ((HISTORY_SEVERITIES as readonly string[]).includes(step)) entry[step] = (entry[step] as number) + Number(r.count)
    }
    return entry
  })
  return chart
}

/** 'Issue History' and one page of active issues ('Issue Counts'). Needs project.view. */
export async function projectIssues(actor: Actor, organizationId: string, projectId: string, now = Date.now(), options: { page?: number } = {}) {
  const { scope, inProjects, projectIds } = await projectScope(actor, organizationId, projectId, 'project.view')
  const issueWhere = { isActive: true, system: scope.systemsInProjects(projectIds) }
  const total = await prisma.issue.count({ where: issueWhere })
  const page = pageOf(options.page ?? 1, total, PROJECT_ISSUES_PAGE_SIZE)
  const [chart, counts] = await Promise.all([
    issueHistoryOf(inProjects, now),
    prisma.issue.findMany({
      where: issueWhere,
      select: { id: true, kind: true, key: true, severity: true, component: true, message: true, latestCount: true, system: { select: { key: true, name: true, agent: { select: { clientName: true } } } } },
      orderBy: [{ severity: 'asc' }, { latestCount: 'desc' }, { id: 'asc' }],
      skip: (page - 1) * PROJECT_ISSUES_PAGE_SIZE,
      take: PROJECT_ISSUES_PAGE_SIZE,
    }),
  ])
  return {
    history: chart,
    page,
    pageSize: PROJECT_ISSUES_PAGE_SIZE,
    pageCount: Math.max(1, Math.ceil(total / PROJECT_ISSUES_PAGE_SIZE)),
    total,
    counts: counts.map((i) => ({
      id: i.id,
      kind: i.kind,
      key: i.key,
      count: i.latestCount,
      severity: i.severity,
      component: i.component,
      message: i.message || i.key,
      system: i.system.name || i.system.key,
      agent: i.system.agent.clientName,
    })),
  }
}
