import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { SCORE_EXPONENTS } from '../agents/derived'
import { presenceSql } from '../agents/presence.server'
import { prisma } from '~/utils/db.server'
import { agentCore, agentSelect, canConnect, loadAgentExtras } from './agent-summary.server'
import { type AgentFilters, type AgentTableQuery, type SortableColumn, CONNECTED_VALUES } from './agents-table-state'
import { containsText, jsonText, nocase } from './dialect.server'
import { cachedOrgRead, LARGE_FLEET_ROWS, userKey } from './org-read-cache.server'
import { type FleetScope, loadFleetScope } from './scope.server'
import { byName } from '~/utils/name-order'

const sql = Prisma.sql

/** weightedPart() of derived.ts as SQL: count^(info - severity) by repeated multiplication (no pow() needed). */
function weightedPartSql(count: string, severity: string): Prisma.Sql {
  const c = `a."${count}"`
  const cases = SCORE_EXPONENTS.map(({ severity: level, exponent }) => `WHEN ${level} THEN ${exponent === 0 ? '1' : Array(exponent).fill(c).join(' * ')}`)
  return Prisma.raw(`(CASE WHEN ${c} > 0 THEN (CASE a."${severity}" ${cases.join(' ')} ELSE 0 END) ELSE 0 END)`)
}
const healthSql = sql`(${weightedPartSql('alertsCount', 'alertsSeverity')} + ${weightedPartSql('deviationsCount', 'deviationsSeverity')})`

/** SQL expressions of the sortable columns on Agent `a`; counts are correlated sub-queries on System's (agentId, key) index. */
function sortExpressions(scope: FleetScope, connected: Prisma.Sql): Record<SortableColumn, Prisma.Sql> {
  const count = (condition: Prisma.Sql) => sql`(SELECT COUNT(*) FROM "System" s WHERE s."agentId" = a."id" AND ${condition})`
  return {
    id: sql`a."id"`,
    connected,
    name: nocase('a."clientName"'),
    serial: nocase('a."serial"'),
    systemsCount: count(scope.visibleSystemSql('s')),
    systemsTotal: count(sql`TRUE`),
    systemsAssigned: count(sql`s."projectId" IS NOT NULL`),
    systemsAvailable: count(sql`s."projectId" IS NULL`),
    product: nocase('a."product"'),
    version: sql`a."version"`,
    lastSeen: sql`a."lastSeen"`,
    health: healthSql,
    // Connected first, then agent-side disabled, unavailable, unknown, not connected
    remoteConnect: sql`CASE WHEN NOT ${connected} THEN 4 WHEN a."tunnelStatus" = 'true' THEN 0 WHEN a."tunnelStatus" = 'false' THEN 1 WHEN a."tunnelStatus" IS NULL THEN 3 ELSE 2 END`,
  }
}

/** The processor input of an agent, as SQL on its processor devices. */
const inputSubquery = sql`SELECT s."agentId" FROM "System" s JOIN "Device" d ON d."systemId" = s."id" WHERE d."component" = 'processor'`

function whereSql(scope: FleetScope, filters: AgentFilters, connected: Prisma.Sql): Prisma.Sql {
  const parts: Prisma.Sql[] = [scope.visibleAgentSql('a')]
  if (filters.name) {
    parts.push(containsText('a."clientName"', filters.name))
  }
  if (filters.product.length) parts.push(sql`a."product" IN (${Prisma.join(filters.product)})`)
  if (filters.version.length) parts.push(sql`a."version" IN (${Prisma.join(filters.version)})`)
  const wantConnected = filters.connected.includes(CONNECTED_VALUES[0])
  const wantDisconnected = filters.connected.includes(CONNECTED_VALUES[1])
  if (wantConnected !== wantDisconnected) parts.push(wantConnected ? connected : sql`NOT ${connected}`)
  if (filters.input.length) {
    parts.push(sql`a."id" IN (${inputSubquery} AND ${jsonText('d."properties"', 'inputSource')} IN (${Prisma.join(filters.input)}))`)
  }
  return Prisma.join(parts, ' AND ')
}

function orderSql(scope: FleetScope, sorting: AgentTableQuery['sorting'], connected: Prisma.Sql): Prisma.Sql {
  const expressions = sortExpressions(scope, connected)
  const terms = sorting.map((s) => sql`${expressions[s.id]} ${Prisma.raw(s.desc ? 'DESC' : 'ASC')}`)
  if (!sorting.length) terms.push(sql`${nocase('a."clientName"')} ASC`)
  // ties broken by id so paging is stable
  terms.push(sql`a."id" ASC`)
  return Prisma.join(terms, ', ')
}

/** One page of matching agent ids plus the total, filtered, sorted and paged by the database. */
export async function queryAgentIds(scope: FleetScope, query: Omit<AgentTableQuery, 'page'>, offset: number, now = Date.now()) {
  const connected = await presenceSql(scope.organizationId, now)
  const where = whereSql(scope, query.filters, connected)
  const [[{ total }], rows] = await Promise.all([
    prisma.$queryRaw<{ total: bigint }[]>(sql`SELECT COUNT(*) AS total FROM "Agent" a WHERE ${where}`),
    prisma.$queryRaw<{ id: string }[]>(sql`
      SELECT a."id" FROM "Agent" a WHERE ${where}
      ORDER BY ${orderSql(scope, query.sorting, connected)}
      LIMIT ${query.limit} OFFSET ${offset}`),
  ])
  return { total: Number(total), ids: rows.map((r) => r.id) }
}

export type AgentTableRow = Awaited<ReturnType<typeof loadAgentRows>>[number]

/** Full rows for a list of agent ids, in that order. */
export async function loadAgentRows(scope: FleetScope, ids: string[], now = Date.now()) {
  const [agents, extras] = await Promise.all([prisma.agent.findMany({ where: { id: { in: ids } }, select: agentSelect }), loadAgentExtras(scope, ids)])
  const byId = new Map(agents.map((a) => [a.id, a]))
  return ids.flatMap((id) => {
    const agent = byId.get(id)
    if (!agent) return []
    const extra = extras.get(id)!
    const { systemsTotal: total, systemsAssigned: assigned } = extra
    return [
      {
        ...agentCore(agent, now, extra.offlineMinutes),
        systems: extra.systems,
        systemsCount: extra.systems.length,
        systemsTotal: total,
        systemsAssigned: assigned,
        systemsAvailable: total - assigned,
        ...extra.summary,
        canConnect: canConnect(scope, extra.systems),
      },
    ]
  })
}

/**
 * The agents list (spec 02 section 2): needs agent.list. Filtering, sorting and paging run in the
 * database; a page past the end is clamped to the last page.
 */
export async function agentsTable(actor: Actor, organizationId: string, query: AgentTableQuery) {
  const scope = await loadFleetScope(actor, organizationId, 'agent.list')
  // per user (rows carry what this user may do) and table state; dropped by every change, agent
  // reports included. An expired entry no change dropped answers while one load behind it replaces
  // it (decision 062): on 20,000 agents a load is 0.1-0.7 s at load 18, which every 5 s one viewer
  // waited for (the page's single-user p95)
  const user = userKey(actor)
  if (!user) return loadAgentsTable(scope, query)
  // a large fleet's reports (several a second) mark it stale instead, answered once more while it loads again (decision 086)
  return cachedOrgRead(scope.organizationId, `agents-table:${user}:${JSON.stringify(query)}`, () => loadAgentsTable(scope, query), Date.now(), {
    dropOnReport: true,
    refreshInBackground: true,
    staleOnMachineChange: (t) => t.total >= LARGE_FLEET_ROWS,
  })
}

async function loadAgentsTable(scope: FleetScope, query: AgentTableQuery) {
  const now = Date.now()
  let page = query.page
  let result = await queryAgentIds(scope, query, (page - 1) * query.limit, now)
  const pageCount = Math.max(1, Math.ceil(result.total / query.limit))
  if (page > pageCount) {
    page = pageCount
    result = await queryAgentIds(scope, query, (page - 1) * query.limit, now)
  }
  const projects = scope.viewableProjectIds
    .filter((id) => scope.access.can('agent.assignToProject', id))
    .map((id) => ({ id, name: scope.projectPath(id).map((p) => p.name).join(' / ') }))
    .sort(byName)
  return {
    rows: await loadAgentRows(scope, result.ids, now),
    total: result.total,
    page,
    pageCount,
    limit: query.limit,
    /** projects the viewer may assign systems to (the expanded row's picker) */
    assignableProjects: projects,
    /** '(None)' is offered only with organization-level assignment rights */
    canUnassign: scope.access.can('agent.assignToProject'),
  }
}

/** Every matching agent (CSV export), in table order; capped so one request stays bounded. */
export async function agentsForExport(actor: Actor, organizationId: string, query: Omit<AgentTableQuery, 'page' | 'limit'>, cap = 20_000) {
  const scope = await loadFleetScope(actor, organizationId, 'agent.list')
  const { ids } = await queryAgentIds(scope, { ...query, limit: cap }, 0)
  const result: AgentTableRow[] = []
  for (let i = 0; i < ids.length; i += 500) result.push(...(await loadAgentRows(scope, ids.slice(i, i + 500))))
  return { organizationName: scope.access.organization.name, rows: result }
}

export type FacetOption = { value: string; count: number }

/** Options and counts of the faceted filters, over every agent the viewer may list. */
export async function agentFacets(actor: Actor, organizationId: string) {
  const scope = await loadFleetScope(actor, organizationId, 'agent.list')
  const visible = scope.visibleAgentSql('a')
  const connected = await presenceSql(scope.organizationId)
  const group = async (column: 'product' | 'version') =>
    (await prisma.$queryRaw<{ value: string; count: bigint }[]>(sql`
      SELECT a.${Prisma.raw(`"${column}"`)} AS value, COUNT(*) AS count FROM "Agent" a WHERE ${visible}
      GROUP BY value ORDER BY value`)).map((r) => ({ value: r.value, count: Number(r.count) }))
  const [product, version, connectedRows, input] = await Promise.all([
    group('product'),
    group('version'),
    prisma.$queryRaw<{ connected: bigint; total: bigint }[]>(sql`SELECT SUM(CASE WHEN ${connected} THEN 1 ELSE 0 END) AS connected, COUNT(*) AS total FROM "Agent" a WHERE ${visible}`),
    prisma.$queryRaw<{ value: string | null; count: bigint }[]>(sql`
      SELECT ${jsonText('d."properties"', 'inputSource')} AS value, COUNT(DISTINCT s."agentId") AS count
      FROM "Device" d JOIN "System" s ON s."id" = d."systemId" JOIN "Agent" a ON a."id" = s."agentId"
      WHERE d."component" = 'processor' AND ${visible}
      GROUP BY value ORDER BY value`),
  ])
  const c = Number(connectedRows[0]?.connected ?? 0)
  const total = Number(connectedRows[0]?.total ?? 0)
  const facets: Record<'product' | 'version' | 'connected' | 'input', FacetOption[]> = {
    product: product.filter((o) => o.value !== ''),
    version: version.filter((o) => o.value !== ''),
    connected: [
      { value: CONNECTED_VALUES[0], count: c },
      { value: CONNECTED_VALUES[1], count: total - c },
    ],
    input: input.flatMap((r) => (r.value ? [{ value: String(r.value), count: Number(r.count) }] : [])),
  }
  return facets
}
