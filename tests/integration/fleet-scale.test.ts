/**
 * Past SQLite's bound-parameter limit (32,766): 33,000 agents in one project subtree. Every fleet
 * screen of the parent project answers, pages on the server and binds a bounded number of
 * parameters (an IN list with one parameter per row used to fail with "too many SQL variables").
 * Rows go in through a few INSERT ... SELECT statements over a recursive counter (seconds).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { agentsTable } from '~/domain/fleet/agents-table.server'
import { dashboard, SYSTEM_PAGE_SIZE } from '~/domain/fleet/dashboard.server'
import { PROJECT_AGENTS_PAGE_SIZE, PROJECT_DEVICE_SYSTEMS_PAGE_SIZE, PROJECT_ISSUES_PAGE_SIZE, projectAgents, projectDevices, projectIssues, projectOverview } from '~/domain/fleet/project.server'
import { projectSystemTags, SYSTEM_TAGS_PER_PROJECT } from '~/domain/fleet/project-systems.server'
import { isPostgres, prisma } from '~/utils/db.server'

const AGENTS = 33_000
let orgId: string
let parentId: string
let childId: string
let owner: UserActor

beforeAll(async () => {
  const o = await prisma.user.create({ data: { email: 'owner@fleet-scale.test', name: 'Scale Owner', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Scale Org', ownerId: o.id } })).id
  parentId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Arena' } })).id
  childId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Arena East', parentId } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: o.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, o.id, orgId)
  })
  owner = { kind: 'user', userId: o.id, email: o.email, name: o.name, isSiteAdmin: false, ip: '', userAgent: '' }
  const t = new Date().toISOString().replace('Z', '+00:00')
  // zero-padded numbers in either dialect
  const padded = (prefix: string) => (isPostgres() ? `'${prefix} ' || to_char(i, 'FM00000')` : `printf('${prefix} %05d', i)`)
  const counter = `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${AGENTS})`
  // one statement at a time, not one transaction: PostgreSQL's per-row triggers outlast an interactive transaction's timeout
  for (const statement of [
    prisma.$executeRawUnsafe(`${counter} INSERT INTO "Agent" ("id","clientName","enabled","secretHash","product","serial","version","organizationId","enrolledAt","lastSeen","createdAt","updatedAt")
      SELECT 'scale-agent-' || i, ${padded('Agent')}, TRUE, 'x', 'Helios', 'SN' || i, '4.2.0', '${orgId}', '${t}', '${t}', '${t}', '${t}' FROM n`),
    // every agent's system in the child project: the parent's subtree holds all of them
    prisma.$executeRawUnsafe(`${counter} INSERT INTO "System" ("id","agentId","key","name","projectId","createdAt","updatedAt")
      SELECT 'scale-system-' || i, 'scale-agent-' || i, 'sys-1', ${padded('Wall')}, '${childId}', '${t}', '${t}' FROM n`),
    prisma.$executeRawUnsafe(`${counter} INSERT INTO "Device" ("id","systemId","key","component","product","serial","name","versionSoftware","properties","count")
      SELECT 'scale-proc-' || i, 'scale-system-' || i, 'proc', 'processor', 'Helios', 'P' || i, 'proc', '4.2.0', '{"inputSource":"SDI 1"}', 1 FROM n`),
    prisma.$executeRawUnsafe(`${counter} INSERT INTO "Device" ("id","systemId","key","component","product","serial","name","parentKey","versionFirmware","properties","count")
      SELECT 'scale-tiles-' || i, 'scale-system-' || i, 'tiles', 'receiver', 'Ruby', 'T' || i, 'tiles', 'proc', '1.1', '{}', 12 FROM n`),
    prisma.$executeRawUnsafe(`${counter} INSERT INTO "Issue" ("id","systemId","kind","key","component","message","severity","latestCount","latestAt","isActive","createdAt","updatedAt")
      SELECT 'scale-issue-' || i, 'scale-system-' || i, 'alert', 'recv.tempHigh', 'receiver', 'Tile too hot', 2, 1, '${t}', TRUE, '${t}', '${t}' FROM n`),
  ])
    await statement
})

describe(`a project subtree with ${AGENTS.toLocaleString('en-US')} systems`, () => {
  it('Agents tab pages by name, finds the page of a focused agent, and counts them all', async () => {
    const first = await projectAgents(owner, orgId, parentId)
    expect(first.total).toBe(AGENTS)
    expect(first.rows).toHaveLength(PROJECT_AGENTS_PAGE_SIZE)
    expect(first.rows[0]).toMatchObject({ name: 'Agent 00001', devices: [{ component: 'processor', count: 1 }, { component: 'receiver', count: 12 }].sort((a, b) => a.component.localeCompare(b.component)) })
    const last = await projectAgents(owner, orgId, parentId, { page: 10_000 })
    expect(last.page).toBe(Math.ceil(AGENTS / PROJECT_AGENTS_PAGE_SIZE))
    expect(last.rows.at(-1)!.name).toBe(`Agent ${AGENTS}`)
    const focused = await projectAgents(owner, orgId, parentId, { focus: 'scale-agent-20001' })
    expect(focused.page).toBe(Math.floor(20_000 / PROJECT_AGENTS_PAGE_SIZE) + 1)
    expect(focused.rows.map((r) => r.id)).toContain('scale-agent-20001')
  })

  it('Devices and Issues tabs page too; the overview and the projects list count everything', async () => {
    const devices = await projectDevices(owner, orgId, parentId, { page: 2 })
    expect(devices).toMatchObject({ total: AGENTS, page: 2 })
    expect(devices.systems).toHaveLength(PROJECT_DEVICE_SYSTEMS_PAGE_SIZE)
    expect(devices.systems[0].tree).toMatchObject([{ key: 'proc', children: [{ key: 'tiles', count: 12 }] }])
    const issues = await projectIssues(owner, orgId, parentId)
    expect(issues.total).toBe(AGENTS)
    expect(issues.counts).toHaveLength(PROJECT_ISSUES_PAGE_SIZE)
    const overview = await projectOverview(owner, orgId, parentId)
    expect(overview.cards.systems).toEqual({ total: AGENTS, connected: AGENTS })
    expect(overview.cards.devices.total).toBe(AGENTS * 13)
    const tags = await projectSystemTags(owner, orgId)
    expect(tags[childId]).toMatchObject({ total: AGENTS, connected: AGENTS, unknown: 0 })
    expect(tags[childId].tags).toHaveLength(SYSTEM_TAGS_PER_PROJECT)
    expect(tags[childId].tags[0]).toMatchObject({ name: 'Wall 00001', state: 'connected' })
  })

  it('the agents list and the dashboard answer', async () => {
    const table = await agentsTable(owner, orgId, { page: 3, limit: 25, sorting: [{ id: 'name', desc: true }], filters: { name: '', product: [], version: [], connected: [], input: ['SDI 1'] } })
    expect(table.total).toBe(AGENTS)
    expect(table.rows).toHaveLength(25)
    const dash = await dashboard(owner, orgId, 'system')
    expect(dash.versions.software).toEqual([{ type: 'processor', product: 'Helios', version: '4.2.0', count: AGENTS }])
    // the metrics table pages on the server: one page of systems, not a thousand rows (1.5 MB of HTML)
    expect(dash.metricsTotal).toBe(AGENTS)
    expect(dash.metrics).toHaveLength(SYSTEM_PAGE_SIZE)
    expect(dash.metricsPage).toEqual({ page: 1, pageCount: Math.ceil(AGENTS / SYSTEM_PAGE_SIZE), pageSize: SYSTEM_PAGE_SIZE })
    const second = await dashboard(owner, orgId, 'system', 2)
    expect(second.metrics).toHaveLength(SYSTEM_PAGE_SIZE)
    expect(second.metrics.map((m) => m.id).filter((id) => dash.metrics.some((m) => m.id === id))).toEqual([])
    expect(second.metrics[0].deviceCount).toBe(13)
    expect((await dashboard(owner, orgId, 'system', 10_000)).metricsPage.page).toBe(Math.ceil(AGENTS / SYSTEM_PAGE_SIZE))
  })
})
