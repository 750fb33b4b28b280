/**
 * The fleet query layer against a small organization built directly in the database: the agents
 * list filters, sorts and pages in SQL; facets count; the project, detail and dashboard queries
 * only return what the viewer may see.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { DomainError } from '~/domain/errors'
import { agentDetail } from '~/domain/fleet/agent-detail.server'
import { agentFacets, agentsTable } from '~/domain/fleet/agents-table.server'
import { type AgentFilters, type AgentTableQuery, encodeState, parseAgentTableQuery } from '~/domain/fleet/agents-table-state'
import { dashboard, fleetSearch } from '~/domain/fleet/dashboard.server'
import { projectDevices, projectIssues, projectOverview } from '~/domain/fleet/project.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

const noFilters: AgentFilters = { name: '', product: [], version: [], connected: [], input: [] }
const query = (q: Partial<Omit<AgentTableQuery, 'filters'>> & { filters?: Partial<AgentFilters> } = {}): AgentTableQuery => ({
  page: q.page ?? 1,
  limit: q.limit ?? 25,
  sorting: q.sorting ?? [],
  filters: { ...noFilters, ...q.filters },
})

let orgId: string
let stageId: string
let volumeId: string
let owner: UserActor
let stageViewer: UserActor
let outsider: UserActor
let noAgentList: UserActor
const agentIds: Record<string, string> = {}

beforeAll(async () => {
  const mk = (key: string) => prisma.user.create({ data: { email: `${key}@fleet-agents.test`, name: key, emailVerified: true } })
  const [o, v, x, n] = await Promise.all([mk('owner'), mk('viewer'), mk('outsider'), mk('notes-only')])
  const org = await prisma.organization.create({ data: { name: 'Fleet Org', ownerId: o.id } })
  const other = await prisma.organization.create({ data: { name: 'Other Org', ownerId: x.id } })
  orgId = org.id
  stageId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  volumeId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Volume' } })).id
  const notesRole = await prisma.role.create({ data: { name: 'Notes only', organizationId: orgId, orgRef: orgId, resourceType: 1, permissions: '["org.view","note.list"]' } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: o.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: v.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId: stageId } })
    await tx.accessRight.create({ data: { userId: n.id, roleId: notesRole.id, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: x.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: other.id } })
    for (const u of [o, v, n]) await compileUserAcls(tx, u.id, orgId)
    await compileUserAcls(tx, x.id, other.id)
  })
  owner = actorFor(o)
  stageViewer = actorFor(v)
  outsider = actorFor(x)
  noAgentList = actorFor(n)

  const now = Date.now()
  // 30 agents: names Agent 01..30, products alternate, every third disconnected, inputs by parity
  for (let i = 1; i <= 30; i++) {
    const name = `Agent ${String(i).padStart(2, '0')}`
    const agent = await prisma.agent.create({
      data: {
        clientName: name,
        secretHash: 'x',
        organizationId: orgId,
        product: i % 2 ? 'Helios' : 'Tessera',
        version: i <= 10 ? '1.0' : '2.0',
        serial: `SN-${i}`,
        lastSeen: i % 3 === 0 ? new Date(now - 2 * 3_600_000) : new Date(now - i * 1000),
        tunnelStatus: 'true',
      },
    })
    agentIds[name] = agent.id
    // agents 1-10 report to Stage, 11-20 to Volume, 21-30 are unassigned; agent 05 has a second, unassigned system
    const projectId = i <= 10 ? stageId : i <= 20 ? volumeId : null
    const system = await prisma.system.create({ data: { agentId: agent.id, key: 'sys-1', name: `Wall ${i}`, projectId } })
    if (i === 5) await prisma.system.create({ data: { agentId: agent.id, key: 'sys-2', name: 'Spare wall', projectId: null } })
    await prisma.device.create({ data: { systemId: system.id, key: 'proc', component: 'processor', product: 'P1', versionSoftware: '4.2', properties: JSON.stringify({ inputSource: i % 2 ? 'HDMI 1' : 'SDI 1', inputFormat: '1080p50', genlockFrequency: 50, tilesInfo: { tiles: 12 } }) } })
    await prisma.device.create({ data: { systemId: system.id, key: 'tiles', component: 'receiver', product: 'T1', parentKey: 'proc', versionFirmware: '1.1', count: 12 } })
    if (i === 2) {
      const issue = await prisma.issue.create({
        data: { systemId: system.id, kind: 'alert', key: 'recv.tempHigh', component: 'receiver', deviceKey: 'tiles', message: 'Tile too hot', severity: 2, latestCount: 3, latestAt: new Date(), isActive: true },
      })
      await prisma.issueHistory.create({ data: { issueId: issue.id, timestamp: new Date(), count: 3 } })
    }
  }
})

describe('agents table', () => {
  it('pages in the database with a total and clamps a page past the end', async () => {
    const first = await agentsTable(owner, orgId, query({ limit: 10 }))
    expect(first.total).toBe(30)
    expect(first.pageCount).toBe(3)
    expect(first.rows.map((r) => r.name)).toEqual(Array.from({ length: 10 }, (_, i) => `Agent ${String(i + 1).padStart(2, '0')}`))
    const third = await agentsTable(owner, orgId, query({ limit: 10, page: 3 }))
    expect(third.rows[0].name).toBe('Agent 21')
    const beyond = await agentsTable(owner, orgId, query({ limit: 10, page: 99 }))
    expect(beyond.page).toBe(3)
    expect(beyond.rows[0].name).toBe('Agent 21')
  })

  it('filters by name substring case-insensitively, and by product, version, connected and input', async () => {
    expect((await agentsTable(owner, orgId, query({ filters: { name: 'agent 1' } }))).rows.map((r) => r.name)).toEqual(
      ['Agent 10', 'Agent 11', 'Agent 12', 'Agent 13', 'Agent 14', 'Agent 15', 'Agent 16', 'Agent 17', 'Agent 18', 'Agent 19'],
    )
    expect((await agentsTable(owner, orgId, query({ filters: { name: '%' } }))).total).toBe(0)
    expect((await agentsTable(owner, orgId, query({ filters: { product: ['Tessera'] } }))).total).toBe(15)
    expect((await agentsTable(owner, orgId, query({ filters: { product: ['Tessera'], version: ['1.0'] } }))).total).toBe(5)
    const disconnected = await agentsTable(owner, orgId, query({ filters: { connected: ['Disconnected'] } }))
    expect(disconnected.total).toBe(10)
    expect(disconnected.rows.every((r) => !r.isConnected)).toBe(true)
    expect((await agentsTable(owner, orgId, query({ filters: { connected: ['Connected', 'Disconnected'] } }))).total).toBe(30)
    const sdi = await agentsTable(owner, orgId, query({ filters: { input: ['SDI 1'] } }))
    expect(sdi.total).toBe(15)
    expect(sdi.rows.every((r) => r.processorInput === 'SDI 1')).toBe(true)
  })

  it('sorts by several columns, computed ones included', async () => {
    const byProduct = await agentsTable(owner, orgId, query({ sorting: [{ id: 'product', desc: true }, { id: 'name', desc: true }], limit: 3 }))
    expect(byProduct.rows.map((r) => r.name)).toEqual(['Agent 30', 'Agent 28', 'Agent 26'])
    const bySystems = await agentsTable(owner, orgId, query({ sorting: [{ id: 'systemsTotal', desc: true }], limit: 1 }))
    expect(bySystems.rows[0].name).toBe('Agent 05')
    expect(bySystems.rows[0].systemsCount).toBe(2)
    expect(bySystems.rows[0].systemsAssigned).toBe(1)
    const byConnected = await agentsTable(owner, orgId, query({ sorting: [{ id: 'connected', desc: false }, { id: 'name', desc: false }], limit: 2 }))
    expect(byConnected.rows.map((r) => r.name)).toEqual(['Agent 03', 'Agent 06'])
    const byLastSeen = await agentsTable(owner, orgId, query({ sorting: [{ id: 'lastSeen', desc: true }], limit: 1 }))
    expect(byLastSeen.rows[0].name).toBe('Agent 01')
  })

  it('sorts by the weighted alerts score in SQL, the same formula as the Health column', async () => {
    // [agent, alertsCount, alertsSeverity, deviationsCount, deviationsSeverity] -> 3^4=81; 5^3=125; 10^2+1=101; 2^4+2^1=18; 7^0=1
    const fixtures: [string, number, number, number, number][] = [
      ['Agent 11', 3, 2, 0, -1],
      ['Agent 12', 5, 3, 0, -1],
      ['Agent 13', 10, 4, 1, 6],
      ['Agent 14', 2, 2, 2, 5],
      ['Agent 15', 7, 6, 0, -1],
    ]
    for (const [name, alertsCount, alertsSeverity, deviationsCount, deviationsSeverity] of fixtures) {
      await prisma.agent.update({ where: { id: agentIds[name] }, data: { alertsCount, alertsSeverity, deviationsCount, deviationsSeverity } })
    }
    try {
      const worst = await agentsTable(owner, orgId, query({ sorting: [{ id: 'health', desc: true }], limit: 6 }))
      expect(worst.rows[5]!.weightedAlertsScore).toBe(0)
      worst.rows.pop()
      expect(worst.rows.map((r) => [r.name, r.weightedAlertsScore])).toEqual([
        ['Agent 12', 125],
        ['Agent 13', 101],
        ['Agent 11', 81],
        ['Agent 14', 18],
        ['Agent 15', 1],
      ])
      const best = await agentsTable(owner, orgId, query({ sorting: [{ id: 'health', desc: false }], limit: 30 }))
      expect(best.rows.at(-1)!.name).toBe('Agent 12')
      expect(best.rows.map((r) => r.weightedAlertsScore)).toEqual([...best.rows.map((r) => r.weightedAlertsScore)].sort((a, b) => a - b))
    } finally {
      await prisma.agent.updateMany({ where: { id: { in: fixtures.map(([name]) => agentIds[name]) } }, data: { alertsCount: 0, alertsSeverity: -1, deviationsCount: 0, deviationsSeverity: -1 } })
    }
  })

  it('counts the facets', async () => {
    const facets = await agentFacets(owner, orgId)
    expect(facets.product).toEqual([{ value: 'Helios', count: 15 }, { value: 'Tessera', count: 15 }])
    expect(facets.connected).toEqual([{ value: 'Connected', count: 20 }, { value: 'Disconnected', count: 10 }])
    expect(facets.input).toEqual([{ value: 'HDMI 1', count: 15 }, { value: 'SDI 1', count: 15 }])
  })

  it('reads the table state from the URL and ignores invalid parts', () => {
    const params = new URLSearchParams({
      page: '2',
      limit: '50',
      filters: encodeState([{ id: 'product', value: ['Helios'] }, { id: 'bogus', value: 1 }]),
      sorting: encodeState([{ id: 'name', desc: true }]),
    })
    expect(parseAgentTableQuery(params)).toEqual({ page: 2, limit: 50, filters: { ...noFilters, product: ['Helios'] }, sorting: [{ id: 'name', desc: true }] })
    const broken = parseAgentTableQuery(new URLSearchParams({ page: '-3', limit: '7', filters: 'not base64!', sorting: encodeState([{ id: 'password', desc: true }]) }))
    expect(broken).toEqual({ page: 1, limit: 25, filters: noFilters, sorting: [] })
  })
})

describe('permission gating', () => {
  it('lists only agents with systems in a project the viewer may see, hiding unassigned systems', async () => {
    const table = await agentsTable(stageViewer, orgId, query())
    expect(table.total).toBe(10)
    const agent5 = table.rows.find((r) => r.name === 'Agent 05')!
    expect(agent5.systems.map((s) => s.name)).toEqual(['Wall 5'])
    expect((await agentFacets(stageViewer, orgId)).product.reduce((n, o) => n + o.count, 0)).toBe(10)
    const detail = await agentDetail(stageViewer, orgId, agentIds['Agent 05'])
    expect(detail.systems.map((s) => s.name)).toEqual(['Wall 5'])
    expect(detail.unassignedCount).toBe(0)
    await expect(agentDetail(stageViewer, orgId, agentIds['Agent 15'])).rejects.toMatchObject({ status: 404 })
    await expect(projectOverview(stageViewer, orgId, volumeId)).rejects.toMatchObject({ status: 403 })
  })

  it('refuses members without agent.list and non-members', async () => {
    await expect(agentsTable(noAgentList, orgId, query())).rejects.toBeInstanceOf(DomainError)
    await expect(agentsTable(noAgentList, orgId, query())).rejects.toMatchObject({ status: 403 })
    await expect(agentsTable(outsider, orgId, query())).rejects.toMatchObject({ status: 403 })
    await expect(dashboard(outsider, orgId, 'system')).rejects.toMatchObject({ status: 403 })
    await expect(dashboard(stageViewer, orgId, 'system')).rejects.toMatchObject({ status: 403 })
  })

  it('shows organization-level viewers the unassigned systems and the warning count', async () => {
    const detail = await agentDetail(owner, orgId, agentIds['Agent 05'])
    expect(detail.systems.map((s) => s.name)).toEqual(['Wall 5', 'Spare wall'])
    expect(detail.unassignedCount).toBe(1)
    expect(detail.agent.processorInput).toBe('HDMI 1')
    expect(detail.agent.processorTiles).toBe(12)
  })
})

describe('project and dashboard queries', () => {
  it('overview counts systems, issues by severity and devices', async () => {
    const overview = await projectOverview(owner, orgId, stageId)
    expect(overview.cards.systems).toEqual({ total: 10, connected: 7 })
    expect(overview.cards.issues).toEqual({ reported: 1, alerts: 1, deviations: 0 })
    expect(overview.charts.issuesBySeverity).toEqual([
      { key: 'Invalid', count: 0 },
      { key: 'Critical', count: 1 },
      { key: 'Error', count: 0 },
      { key: 'Warning', count: 0 },
      { key: 'Notice', count: 0 },
    ])
    expect(overview.charts.issuesByType).toEqual([{ key: 'recv.tempHigh', count: 1, message: 'Tile too hot' }])
    expect(overview.charts.devicesByComponent).toEqual([{ key: 'receiver', count: 120 }, { key: 'processor', count: 10 }])
  })

  it('issues tab has ten days of history and the counts sorted by severity; devices tab nests tiles under the processor', async () => {
    const issues = await projectIssues(owner, orgId, stageId)
    expect(issues.history).toHaveLength(10)
    expect(issues.history.at(-1)).toMatchObject({ critical: 3 })
    expect(issues.counts).toMatchObject([{ count: 3, severity: 2, component: 'receiver', message: 'Tile too hot' }])
    const devices = await projectDevices(owner, orgId, stageId)
    expect(devices.systems).toHaveLength(10)
    expect(devices.systems[0].tree).toMatchObject([{ key: 'proc', children: [{ key: 'tiles', count: 12 }] }])
  })

  it('dashboard: versions, tiles over temp and search', async () => {
    const dash = await dashboard(owner, orgId, 'system')
    // Every reporting system the viewer sees (30 walls and the spare), worst first, with its key, names and device count.
    expect(dash.metrics).toHaveLength(31)
    expect(dash.metricsTotal).toBe(31)
    expect(dash.metrics[0]).toMatchObject({
      key: 'sys-1',
      label: 'Wall 2',
      type: 'other',
      componentType: 'system',
      agent: agentIds['Agent 02'],
      agentName: 'Agent 02',
      project: stageId,
      projectName: 'Stage',
      organization: orgId,
      organizationName: 'Fleet Org',
      deviceCount: 13,
      issueCount: 1,
      priorityIssueCount: 1,
      issueBreakdown: { critical: 1, error: 0, warning: 0, info: 0, notice: 0 },
    })
    expect(dash.metrics.find((m) => m.label === 'Spare wall')).toMatchObject({ key: 'sys-2', project: null, projectName: '', deviceCount: 0, issueCount: 0, priorityIssueCount: 0 })
    expect(dash.metrics.filter((m) => m.issueCount === 0)).toHaveLength(30)
    expect(dash.versions.software).toEqual([{ type: 'processor', product: 'P1', version: '4.2', count: 30 }])
    expect(dash.versions.firmware).toEqual([{ type: 'receiver', product: 'T1', version: '1.1', count: 360 }])
    expect(dash.tilesOverTemp).toEqual([{ key: 'Normal', count: 357 }, { key: 'High', count: 3 }])
    const found = await fleetSearch(owner, orgId, 'wall 1')
    expect(found.filter((r) => r.type === 'system').map((r) => r.label)).toContain('Wall 10')
    expect((await fleetSearch(owner, orgId, 'STAGE')).map((r) => r.label)).toEqual(['Stage'])
  })

  it('search leaves out projects that have only sub-projects and no agents', async () => {
    const tour = await prisma.project.create({ data: { organizationId: orgId, name: 'Tour' } })
    const leg = await prisma.project.create({ data: { organizationId: orgId, name: 'Tour Leg', parentId: tour.id } })
    const rigs = await prisma.project.create({ data: { organizationId: orgId, name: 'Tour Rigs' } })
    await prisma.project.create({ data: { organizationId: orgId, name: 'Tour Rigs East', parentId: rigs.id } })
    // Tour Rigs has a sub-project and an agent of its own: it stays.
    await prisma.system.create({ data: { agentId: agentIds['Agent 21'], key: 'sys-rig', name: 'Rig', projectId: rigs.id } })
    const projects = (await fleetSearch(owner, orgId, 'tour')).filter((r) => r.type === 'project')
    expect(projects.map((r) => r.label).sort()).toEqual(['Tour Leg', 'Tour Rigs', 'Tour Rigs East'])
    expect(projects.find((r) => r.label === 'Tour Leg')).toMatchObject({ id: leg.id, detail: 'Tour' })
  })
})
