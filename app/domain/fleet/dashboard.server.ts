import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { prisma } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'
import { containsText, isTrue } from './dialect.server'
import { cachedOrgRead, LARGE_FLEET_ROWS, visibilityKey } from './org-read-cache.server'
import { type FleetScope, loadFleetScope } from './scope.server'

const sql = Prisma.sql

export type MetricsView = 'system' | 'device'
export const METRICS_ROW_LIMIT = 100
/** Systems per page of 'Aggregate by System' (worst first); a page of 1,000 rows was 1.5 MB of HTML. */
export const SYSTEM_PAGE_SIZE = 100

/** Issue counts by severity: critical 2, error 3, warning 4, notice 5, info 6. */
const breakdownColumns = sql`
  SUM(CASE WHEN i."severity" = 2 THEN 1 ELSE 0 END) AS critical,
  SUM(CASE WHEN i."severity" = 3 THEN 1 ELSE 0 END) AS error,
  SUM(CASE WHEN i."severity" = 4 THEN 1 ELSE 0 END) AS warning,
  SUM(CASE WHEN i."severity" = 6 THEN 1 ELSE 0 END) AS info,
  SUM(CASE WHEN i."severity" = 5 THEN 1 ELSE 0 END) AS notice,
  COUNT(i."id") AS "issueCount",
  -- priority: the two worst levels (critical, and error as the spec's 'Severe')
  SUM(CASE WHEN i."severity" IN (2, 3) THEN 1 ELSE 0 END) AS "priorityIssueCount"`

type BreakdownRow = { critical: bigint | null; error: bigint | null; warning: bigint | null; info: bigint | null; notice: bigint | null; issueCount: bigint; priorityIssueCount: bigint | null }
const n = (v: bigint | number | null | undefined) => Number(v ?? 0)
const breakdown = (r: BreakdownRow) => ({
  issueCount: n(r.issueCount),
  priorityIssueCount: n(r.priorityIssueCount),
  issueBreakdown: { critical: n(r.critical), error: n(r.error), warning: n(r.warning), info: n(r.info), notice: n(r.notice) },
})

/** Visible systems of the organization: System s joined to Agent a, and the condition to put in WHERE. */
const SYSTEMS = sql`"System" s JOIN "Agent" a ON a."id" = s."agentId"`
const visibleSystems = (scope: FleetScope) => sql`a."organizationId" = ${scope.organizationId} AND ${scope.visibleSystemSql('s')}`

/**
 * 'Aggregate by System': every reporting system the viewer sees (spec 02 section 2), issues or not,
 * worst first; issues are joined in the ON clause so a system without active issues still has its row.
 * The unary + keeps SQLite off the (isActive, severity) index for that join: with it, every system
 * scanned every active issue of the database (130 s for 33,000 systems instead of well under one).
 */
async function metricsBySystem(scope: FleetScope, requestedPage: number) {
  const pageRows = (page: number) =>
    // the total comes with the page (a window over the grouped rows): a separate COUNT was one more pass over the fleet
    prisma.$queryRaw<(BreakdownRow & { id: string; key: string; name: string; agentId: string; agentName: string; projectId: string | null; total: bigint })[]>(sql`
    SELECT s."id" AS id, s."key" AS key, s."name" AS name, a."id" AS "agentId", a."clientName" AS "agentName", s."projectId" AS "projectId", ${breakdownColumns},
      COUNT(*) OVER () AS total
    FROM ${SYSTEMS} LEFT JOIN "Issue" i ON i."systemId" = s."id" AND ${isTrue('i."isActive"', { noIndex: true })}
    WHERE ${visibleSystems(scope)}
    GROUP BY s."id", a."id" ORDER BY "priorityIssueCount" DESC, "issueCount" DESC, a."clientName", s."key", s."id"
    LIMIT ${SYSTEM_PAGE_SIZE} OFFSET ${(page - 1) * SYSTEM_PAGE_SIZE}`)
  let page = Math.max(1, Math.floor(requestedPage) || 1)
  let rows = await pageRows(page)
  // past the last page: no row carries the total, so count once and ask for the last page
  if (!rows.length && page > 1) {
    const [{ total: count }] = await prisma.$queryRaw<{ total: bigint }[]>(sql`SELECT COUNT(*) AS total FROM ${SYSTEMS} WHERE ${visibleSystems(scope)}`)
    page = Math.max(1, Math.ceil(n(count) / SYSTEM_PAGE_SIZE))
    rows = await pageRows(page)
  }
  const total = n(rows[0]?.total)
  const pageCount = Math.max(1, Math.ceil(total / SYSTEM_PAGE_SIZE))
  // device counts of this page's systems only (per system over every system it was 10,000 sub-queries)
  const devices = rows.length
    ? await prisma.$queryRaw<{ systemId: string; total: bigint | null }[]>(sql`
      SELECT d."systemId" AS "systemId", SUM(d."count") AS total FROM "Device" d WHERE d."systemId" IN (${Prisma.join(rows.map((r) => r.id))}) GROUP BY d."systemId"`)
    : []
  const deviceCount = new Map(devices.map((d) => [d.systemId, n(d.total)]))
  const metrics = rows.map((r) => ({
    id: r.id,
    key: r.key,
    label: r.name || r.key,
    type: 'other' as const,
    componentType: 'system',
    agent: r.agentId,
    agentName: r.agentName || r.agentId,
    project: r.projectId,
    projectName: r.projectId ? (scope.projects.get(r.projectId)?.name ?? '') : '',
    organization: scope.organizationId,
    organizationName: scope.access.organization.name,
    deviceCount: deviceCount.get(r.id) ?? 0,
    ...breakdown(r),
  }))
  return { metrics, total, page, pageCount, pageSize: SYSTEM_PAGE_SIZE }
}

async function metricsByDevice(scope: FleetScope) {
  const rows = await prisma.$queryRaw<(BreakdownRow & { systemId: string; deviceKey: string | null; component: string; label: string | null; agentId: string; agentName: string; projectId: string | null; deviceCount: bigint | null })[]>(sql`
    SELECT s."id" AS "systemId", MIN(i."deviceKey") AS "deviceKey", MIN(i."component") AS component, MIN(d."name") AS label, MIN(d."count") AS "deviceCount",
      a."id" AS "agentId", a."clientName" AS "agentName", s."projectId" AS "projectId", ${breakdownColumns}
    FROM ${SYSTEMS} JOIN "Issue" i ON i."systemId" = s."id" AND ${isTrue('i."isActive"')}
    LEFT JOIN "Device" d ON d."systemId" = s."id" AND d."key" = i."deviceKey"
    WHERE ${visibleSystems(scope)}
    GROUP BY s."id", a."id", COALESCE(i."deviceKey", i."component")
    ORDER BY "priorityIssueCount" DESC, "issueCount" DESC LIMIT ${METRICS_ROW_LIMIT}`)
  const metrics = rows.map((r) => ({
    id: `${r.systemId}/${r.deviceKey ?? r.component}`,
    key: r.deviceKey ?? r.component,
    label: r.label || r.deviceKey || r.component,
    type: r.deviceKey ? ('component' as const) : ('other' as const),
    componentType: r.component,
    agent: r.agentId,
    agentName: r.agentName || r.agentId,
    project: r.projectId,
    projectName: r.projectId ? (scope.projects.get(r.projectId)?.name ?? '') : '',
    organization: scope.organizationId,
    organizationName: scope.access.organization.name,
    deviceCount: n(r.deviceCount ?? 1),
    ...breakdown(r),
  }))
  return { metrics, total: metrics.length, page: 1, pageCount: 1, pageSize: METRICS_ROW_LIMIT }
}

/**
 * Organization dashboard (spec 02 section 2): the metrics table ('Aggregate by System' or
 * 'Reporting Devices'), fleet software/firmware versions and 'Tiles Over Temp'. Needs org.metrics.view.
 */
export async function dashboard(actor: Actor, organizationId: string, view: MetricsView, page = 1) {
  const scope = await loadFleetScope(actor, organizationId, 'org.metrics.view')
  scope.access.require('org.metrics.view')
  // the same for every viewer who sees the same systems: aggregates over the whole fleet, shared briefly
  // answered from the last figures while an expired entry loads again (decision 062): a load is seconds on 20,000 agents
  // and, for a large fleet, from them once more after an alarm or a report while they load again (decision 086)
  return cachedOrgRead(scope.organizationId, `dashboard:${view}:${Math.floor(page) || 1}:${visibilityKey(scope)}`, () => loadDashboard(scope, view, page), Date.now(), {
    refreshInBackground: true,
    staleOnMachineChange: (d) => (d.view === 'system' ? d.metricsTotal >= LARGE_FLEET_ROWS : d.metricsTotal >= METRICS_ROW_LIMIT),
  })
}

async function loadDashboard(scope: FleetScope, view: MetricsView, page: number) {
  const [{ metrics, total: metricsTotal, ...metricsPage }, devices, hot] = await Promise.all([
    view === 'device' ? metricsByDevice(scope) : metricsBySystem(scope, page),
    // one pass over the systems' device counts (DeviceVersionCount: ~4 rows per system, not ~20 devices)
    // for the versions panel and the tile total
    prisma.$queryRaw<{ component: string; product: string; software: string; firmware: string; count: bigint }[]>(sql`
      SELECT g."component" AS component, g."product" AS product, g."versionSoftware" AS software, g."versionFirmware" AS firmware, SUM(g."count") AS count
      FROM ${SYSTEMS} JOIN "DeviceVersionCount" g ON g."systemId" = s."id"
      WHERE ${visibleSystems(scope)}
      GROUP BY g."component", g."product", g."versionSoftware", g."versionFirmware"`),
    // from the active over-temperature issues (a few per hundred systems) through their (kind, key, isActive)
    // index, both kinds named so it can lead, rather than from each of the organization's systems
    prisma.$queryRaw<{ high: bigint | null }[]>(sql`
      SELECT SUM(i."latestCount") AS high FROM "Issue" i JOIN "System" s ON s."id" = i."systemId" JOIN "Agent" a ON a."id" = s."agentId"
      WHERE i."kind" IN ('alert', 'deviation') AND i."key" = 'recv.tempHigh' AND ${isTrue('i."isActive"')} AND ${visibleSystems(scope)}`),
  ])
  const group = (kind: 'software' | 'firmware') => {
    const map = new Map<string, { type: string; product: string; version: string; count: number }>()
    for (const r of devices) {
      const version = r[kind]
      if (!version) continue
      const key = `${r.component}\u0000${r.product}\u0000${version}`
      const entry = map.get(key) ?? { type: r.component, product: r.product, version, count: 0 }
      entry.count += n(r.count)
      map.set(key, entry)
    }
    return [...map.values()].sort((a, b) => a.type.localeCompare(b.type) || a.product.localeCompare(b.product) || b.count - a.count)
  }
  const receivers = devices.filter((r) => r.component === 'receiver').reduce((sum, r) => sum + n(r.count), 0)
  const high = Math.min(receivers, n(hot[0]?.high))
  const description = (await prisma.organization.findUnique({ where: { id: scope.organizationId }, select: { description: true } }))?.description ?? ''
  return {
    organization: { id: scope.organizationId, name: scope.access.organization.name, description },
    view,
    metrics,
    metricsTotal,
    metricsPage,
    versions: { software: group('software'), firmware: group('firmware') },
    tilesOverTemp: [
      { key: 'Normal', count: receivers - high },
      { key: 'High', count: high },
    ],
  }
}

export type SearchResult = { type: 'organization' | 'project' | 'system'; id: string; label: string; detail: string; to: string }

/**
 * Dashboard live search: case-insensitive substring over the organization name, viewable projects
 * (without projects that only hold sub-projects and no agents) and visible systems.
 */
export async function fleetSearch(actor: Actor, organizationId: string, text: string): Promise<SearchResult[]> {
  const scope = await loadFleetScope(actor, organizationId, 'org.metrics.view')
  const q = text.trim().toLowerCase()
  if (!q) return []
  const base = `/organization/${organizationId}`
  const results: SearchResult[] = []
  const org = scope.access.organization
  if (org.name.toLowerCase().includes(q)) results.push({ type: 'organization', id: org.id, label: org.name, detail: 'Organization', to: `${base}/projects` })
  const matching = scope.viewableProjectIds.filter((id) => scope.projects.get(id)!.name.toLowerCase().includes(q))
  const withSystems = new Set(
    // by chunks: a search may match more projects than one groupBy binds
    (await inChunks(matching, (chunk) => prisma.system.groupBy({ by: ['projectId'], where: { projectId: { in: chunk } } }))).map((r) => r.projectId),
  )
  for (const id of matching) {
    const hasChildren = [...scope.projects.values()].some((p) => p.parentId === id)
    if (hasChildren && !withSystems.has(id)) continue
    const path = scope.projectPath(id)
    results.push({ type: 'project', id, label: path.at(-1)!.name, detail: path.length > 1 ? path.slice(0, -1).map((p) => p.name).join(' / ') : 'Project', to: `${base}/projects/${id}` })
  }
  const systems = await prisma.$queryRaw<{ id: string; key: string; name: string; agentId: string; agentName: string; projectId: string | null }[]>(sql`
    SELECT s."id" AS id, s."key" AS key, s."name" AS name, a."id" AS "agentId", a."clientName" AS "agentName", s."projectId" AS "projectId"
    FROM ${SYSTEMS} WHERE ${visibleSystems(scope)} AND (${containsText('s."name"', q)} OR ${containsText('s."key"', q)})
    ORDER BY s."name" LIMIT 20`)
  for (const s of systems) {
    results.push({ type: 'system', id: s.id, label: s.name || s.key, detail: `${s.agentName || s.agentId}${s.projectId ? ` · ${scope.projects.get(s.projectId)?.name ?? ''}` : ''}`, to: `${base}/agents/${s.agentId}` })
  }
  return results.slice(0, 40)
}
