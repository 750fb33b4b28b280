import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { CONNECTED_WINDOW_MS, ISSUE_HISTORY_WINDOW_MS, isConnected } from '../agents/derived'
import { accessDenied, notFound } from '../errors'
import { type Permission } from '../access/catalogue'
import { prisma } from '~/utils/db.server'
import { agentCore, agentSelect, canConnect, loadAgentExtras } from './agent-summary.server'
import { type ChartDatum, HISTORY_SEVERITIES, SEVERITY_STEPS, severityStep } from './labels'
import { loadFleetScope } from './scope.server'

const sql = Prisma.sql
const DAY_MS = 86_400_000

/** The viewer's scope and the project's subtree; 403 without `permission` on the project. */
async function projectScope(actor: Actor, organizationId: string, projectId: string, permission: Permission) {
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
  const cutoff = new Date(Date.now() - CONNECTED_WINDOW_MS)
  const historyStart = new Date(Date.now() - ISSUE_HISTORY_WINDOW_MS)
  const issueBase = sql`FROM "Issue" i JOIN "System" s ON s."id" = i."systemId" WHERE ${inProjects} AND i."isActive" = 1`
  const [systems, issueTotals, bySeverity, byType, byComponent, deviceGroups, history, perProject] = await Promise.all([
    prisma.$queryRaw<{ total: bigint; connected: bigint | null }[]>(sql`
      SELECT COUNT(*) AS total, SUM(CASE WHEN a."enabled" = 1 AND a."lastSeen" >= ${cutoff} THEN 1 ELSE 0 END) AS connected
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
        (a."enabled" = 1 AND a."lastSeen" >= ${cutoff}) AS connected, SUM(g."count") AS total
      FROM "System" s JOIN "Agent" a ON a."id" = s."agentId" JOIN "DeviceVersionCount" g ON g."systemId" = s."id"
      WHERE ${inProjects} GROUP BY 1, 2, 3, 4, 5`),
    prisma.$queryRaw<{ day: string; total: bigint }[]>(sql`
      SELECT substr(h."timestamp", 1, 10) AS day, SUM(h."count") AS total
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

/** Agents tab: agents with systems in the project (or below), each with a device summary. Needs project.view. */
export async function projectAgents(actor: Actor, organizationId: string, projectId: string) {
  const { scope, projectIds } = await projectScope(actor, organizationId, projectId, 'project.view')
  const now = Date.now()
  const agents = await prisma.agent.findMany({
    where: { organizationId, systems: { some: { projectId: { in: projectIds } } } },
    select: agentSelect,
    orderBy: { clientName: 'asc' },
    take: 2000,
  })
  const ids = agents.map((a) => a.id)
  const [extras, deviceCounts] = await Promise.all([
    loadAgentExtras(scope, ids),
    prisma.$queryRaw<{ agentId: string; component: string; count: bigint }[]>(sql`
      SELECT s."agentId" AS agentId, d."component" AS component, SUM(d."count") AS count
      FROM "Device" d JOIN "System" s ON s."id" = d."systemId"
      WHERE s."projectId" IN (${Prisma.join(projectIds)}) GROUP BY s."agentId", d."component"`),
  ])
  const devicesByAgent = new Map<string, { component: string; count: number }[]>()
  for (const r of deviceCounts) devicesByAgent.set(r.agentId, [...(devicesByAgent.get(r.agentId) ?? []), { component: r.component, count: Number(r.count) }])
  return {
    rows: agents.map((a) => {
      const extra = extras.get(a.id)!
      const systems = extra.systems.filter((s) => s.projectId && projectIds.includes(s.projectId))
      return { ...agentCore(a, now), ...extra.summary, systems, devices: devicesByAgent.get(a.id) ?? [], canConnect: canConnect(scope, systems) }
    }),
    canDelete: scope.access.can('agent.delete'),
  }
}

export type DeviceNode = { id: string; key: string; name: string; component: string; product: string; serial: string; versionSoftware: string | null; versionFirmware: string | null; count: number; children: DeviceNode[] }

const DEVICE_TREE_CAP = 5000

/** Devices tab: per system, the devices as a tree grouped by parent. Needs project.view. */
export async function projectDevices(actor: Actor, organizationId: string, projectId: string) {
  const { scope, projectIds } = await projectScope(actor, organizationId, projectId, 'project.view')
  const systems = await prisma.system.findMany({
    where: { projectId: { in: projectIds } },
    select: { id: true, key: true, name: true, projectId: true, agent: { select: { id: true, clientName: true, enabled: true, lastSeen: true } } },
    orderBy: [{ agent: { clientName: 'asc' } }, { key: 'asc' }],
  })
  const devices = await prisma.device.findMany({
    where: { systemId: { in: systems.map((s) => s.id) } },
    select: { id: true, systemId: true, key: true, name: true, component: true, product: true, serial: true, parentKey: true, versionSoftware: true, versionFirmware: true, count: true },
    orderBy: [{ systemId: 'asc' }, { key: 'asc' }],
    take: DEVICE_TREE_CAP + 1,
  })
  const bySystem = new Map<string, typeof devices>()
  for (const d of devices.slice(0, DEVICE_TREE_CAP)) bySystem.set(d.systemId, [...(bySystem.get(d.systemId) ?? []), d])
  return {
    truncated: devices.length > DEVICE_TREE_CAP,
    systems: systems.map((s) => ({
      id: s.id,
      key: s.key,
      name: s.name || s.key,
      projectName: s.projectId ? (scope.projects.get(s.projectId)?.name ?? '') : '',
      agent: { id: s.agent.id, name: s.agent.clientName || s.agent.id, isConnected: isConnected(s.agent.enabled, s.agent.lastSeen) },
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
  const natural = (a: { key: string }, b: { key: string }) => a.key.localeCompare(b.key, undefined, { numeric: true })
  for (const d of [...devices].sort(natural)) {
    const parent = d.parentKey && d.parentKey !== d.key ? nodes.get(d.parentKey) : undefined
    if (parent) parent.children.push(nodes.get(d.key)!)
    else roots.push(nodes.get(d.key)!)
  }
  return roots
}

/** Issues tab: 'Issue History' per day and severity over the last 10 days, and 'Issue Counts'. Needs project.view. */
export async function projectIssues(actor: Actor, organizationId: string, projectId: string, now = Date.now()) {
  const { scope, inProjects } = await projectScope(actor, organizationId, projectId, 'project.view')
  const firstDay = Math.floor(now / DAY_MS) * DAY_MS - 9 * DAY_MS
  const [history, counts] = await Promise.all([
    prisma.$queryRaw<{ day: string; severity: number; count: bigint }[]>(sql`
      SELECT substr(h."timestamp", 1, 10) AS day, i."severity" AS severity, SUM(h."count") AS count
      FROM "IssueHistory" h JOIN "Issue" i ON i."id" = h."issueId" JOIN "System" s ON s."id" = i."systemId"
      WHERE ${inProjects} AND h."timestamp" >= ${new Date(firstDay)} GROUP BY day, i."severity"`),
    prisma.issue.findMany({
      where: { isActive: true, system: { projectId: { in: scope.subtree(projectId) } } },
      select: { id: true, kind: true, key: true, severity: true, component: true, message: true, latestCount: true, system: { select: { key: true, name: true, agent: { select: { clientName: true } } } } },
      orderBy: [{ severity: 'asc' }, { latestCount: 'desc' }],
      take: 500,
    }),
  ])
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
  return {
    history: chart,
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
