/**
 * Users' actions over more than a thousand rows: an id list bound beside another condition (or in
 * an update) took one parameter per row, and Prisma took SQLite's limit for 999 (P2029): the action
 * failed. Lists now go by chunks, and Prisma is told SQLite's real limit (app/utils/db.server.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { listAgents } from '~/domain/agents/agents.server'
import { listAgentIssues, listProjectIssues } from '~/domain/alarms/lifecycle.server'
import { agentDetail } from '~/domain/fleet/agent-detail.server'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { usageAggregated } from '~/domain/billing/usage-admin.server'
import { agentsForExport, agentsTable } from '~/domain/fleet/agents-table.server'
import { fleetSearch } from '~/domain/fleet/dashboard.server'
import { projectDevices, projectIssues } from '~/domain/fleet/project.server'
import { projectRootCauses } from '~/domain/rootcause/views.server'
import { bulkAgents } from '~/domain/fleet/bulk.server'
import { deleteOrganization, listTransferCandidates } from '~/domain/organizations/organizations.server'
import { listMembers } from '~/domain/members/members.server'
import { deleteProject } from '~/domain/projects/projects.server'
import { recompileAcls } from '~/domain/roles/roles.server'
import { closeStaleTunnels } from '~/domain/relay/tunnels.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

const MANY = 1_050

/** An organization whose owner is its admin, with projects Stage and Volume. */
async function seedOrganization(key: string) {
  const user = await prisma.user.create({ data: { email: `${key}@large-lists.test`, name: `Owner ${key}`, emailVerified: true } })
  const org = await prisma.organization.create({ data: { name: `Large ${key}`, ownerId: user.id } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await compileUserAcls(tx, user.id, org.id)
  })
  const stage = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
  const volume = await prisma.project.create({ data: { organizationId: org.id, name: 'Volume' } })
  return { owner: actorFor(user), orgId: org.id, stage: stage.id, volume: volume.id }
}

/** `count` agents of the organization, each with `systemsEach` systems in `projectId`. */
async function seedAgents(key: string, orgId: string, count: number, systemsEach: number, projectId: string | null) {
  const agents = Array.from({ length: count }, (_, i) => ({ id: `${key}-${String(i).padStart(5, '0')}`, clientName: `${key} ${String(i).padStart(5, '0')}`, secretHash: 'x', organizationId: orgId, lastSeen: new Date() }))
  await prisma.agent.createMany({ data: agents })
  await prisma.system.createMany({ data: agents.flatMap((a) => Array.from({ length: systemsEach }, (_, s) => ({ agentId: a.id, key: `sys-${s}`, name: `${a.clientName} / ${s}`, projectId }))) })
  return agents.map((a) => a.id)
}

describe('bulk actions on many agents', () => {
  let f: Awaited<ReturnType<typeof seedOrganization>>
  let ids: string[]
  beforeAll(async () => {
    f = await seedOrganization('bulk')
    // one chunk of 200 agents with 6 systems each: 1,200 systems move at once
    ids = await seedAgents('rack', f.orgId, 200, 6, f.stage)
  })

  it('assigns the 1,200 systems of 200 ticked agents to another project', async () => {
    const summary = await bulkAgents(f.owner, { organizationId: f.orgId, operation: 'assign', projectId: f.volume, selection: { mode: 'ids', ids } })
    expect(summary).toMatchObject({ done: 200, message: '200 assigned' })
    expect(await prisma.system.count({ where: { projectId: f.volume } })).toBe(1_200)
  })
})

describe('an agent with over a thousand systems', () => {
  let f: Awaited<ReturnType<typeof seedOrganization>>
  let agentId: string
  beforeAll(async () => {
    f = await seedOrganization('hub')
    ;[agentId] = await seedAgents('hub', f.orgId, 1, MANY, f.stage)
    const systems = await prisma.system.findMany({ where: { agentId }, select: { id: true } })
    await prisma.issue.createMany({ data: systems.map((s) => ({ systemId: s.id, kind: 'alert', key: 'psu.failed', component: 'psu', severity: 2, message: 'PSU failed', latestAt: new Date(), isActive: true })) })
  })

  it('opens with every system and its issues', async () => {
    const detail = await agentDetail(f.owner, f.orgId, agentId)
    expect(detail.systems).toHaveLength(MANY)
    const issues = await listAgentIssues(f.owner, f.orgId, agentId, 'active')
    expect(issues.total).toBe(MANY)
  })
})

describe('organization and project with many agents', () => {
  it('deletes a project holding 1,050 systems: they become unassigned', async () => {
    const f = await seedOrganization('project')
    await seedAgents('proj', f.orgId, MANY, 1, f.stage)
    const result = await deleteProject(f.owner, f.orgId, f.stage, true)
    expect(result.unassignedSystems).toBe(MANY)
  })

  it('deletes a project with 1,050 sub-projects recursively', async () => {
    const f = await seedOrganization('rooms')
    const rooms = Array.from({ length: MANY }, (_, i) => ({ id: `deleted-room-${i}`, organizationId: f.orgId, name: `Room ${i}`, parentId: f.stage }))
    await prisma.project.createMany({ data: rooms })
    await seedAgents('roomed', f.orgId, 2, 1, rooms[MANY - 1]!.id)
    const result = await deleteProject(f.owner, f.orgId, f.stage, true)
    expect(result).toMatchObject({ unassignedSystems: 2 })
    expect(result.deletedProjectIds).toHaveLength(MANY + 1)
    expect(await prisma.project.count({ where: { organizationId: f.orgId } })).toBe(1)
  })

  it('deletes an organization of 1,050 agents: they are unenrolled', async () => {
    const f = await seedOrganization('delete')
    await seedAgents('gone', f.orgId, MANY, 1, f.stage)
    await deleteOrganization(f.owner, f.orgId)
    expect(await prisma.agent.count({ where: { id: { startsWith: 'gone-' }, organizationId: null, enrolledAt: null } })).toBe(MANY)
    expect(await prisma.system.count({ where: { agentId: { startsWith: 'gone-' }, projectId: null } })).toBe(MANY)
  })

  it('exports the agents table of 1,050 agents', async () => {
    const f = await seedOrganization('export')
    await seedAgents('exp', f.orgId, MANY, 2, f.stage)
    const { rows } = await agentsForExport(f.owner, f.orgId, { filters: { name: '', product: [], version: [], input: [], connected: [] }, sorting: [] })
    expect(rows).toHaveLength(MANY)
  })
})

describe('relay restart', () => {
  it('closes the 1,050 tunnels its previous run left open', async () => {
    const f = await seedOrganization('relay')
    const ids = await seedAgents('tun', f.orgId, MANY, 1, null)
    await prisma.agent.updateMany({ where: { organizationId: f.orgId }, data: { tunnelStatus: 'true' } })
    await prisma.tunnelConnection.createMany({ data: ids.map((agentId) => ({ agentId, address: '10.0.0.1', port: 22, relayNode: 'node-a' })) })
    await closeStaleTunnels('node-a')
    expect(await prisma.tunnelConnection.count({ where: { relayNode: 'node-a', closedAt: null } })).toBe(0)
    expect(await prisma.agent.count({ where: { organizationId: f.orgId, tunnelStatus: 'true' } })).toBe(0)
  })
})

describe('site administration', () => {
  it("'Recompile ACLs' with 1,050 members holding roles, and drops the ACLs of a user left without any", async () => {
    const f = await seedOrganization('acl')
    const admin = await prisma.user.create({ data: { email: 'admin@large-lists.test', name: 'Admin', emailVerified: true, isAdmin: true } })
    const members = Array.from({ length: MANY }, (_, i) => ({ id: `acl-member-${i}`, email: `member-${i}@large-lists.test`, name: `Member ${i}`, emailVerified: true }))
    await prisma.user.createMany({ data: members })
    await prisma.accessRight.createMany({ data: members.map((m) => ({ userId: m.id, roleId: DEFAULT_ROLE_IDS.orgViewer, organizationId: f.orgId })) })
    // a former member: compiled ACLs left behind, no access right any more
    const former = await prisma.user.create({ data: { email: 'former@large-lists.test', name: 'Former', emailVerified: true } })
    await prisma.compiledAcl.create({ data: { userId: former.id, organizationId: f.orgId, projectId: '', permissions: '["org.view"]' } })

    const result = await recompileAcls({ ...actorFor(admin), isSiteAdmin: true })
    expect(result.usersCompiled).toBeGreaterThanOrEqual(MANY + 1)
    expect(await prisma.compiledAcl.count({ where: { userId: { startsWith: 'acl-member-' } } })).toBeGreaterThanOrEqual(MANY)
    expect(await prisma.compiledAcl.count({ where: { userId: former.id } })).toBe(0)
    // the Members page lists them all (a lone id list: Prisma splits it itself)
    expect((await listMembers(f.owner, f.orgId)).members).toHaveLength(MANY + 1)
  })
})

describe('an organization of 1,050 projects', () => {
  it('lists its agents, opens one and its issues', async () => {
    const f = await seedOrganization('projects')
    const projects = Array.from({ length: MANY }, (_, i) => ({ id: `many-project-${i}`, organizationId: f.orgId, name: `Room ${i}` }))
    await prisma.project.createMany({ data: projects })
    const [agentId] = await seedAgents('room', f.orgId, 1, 1, projects[MANY - 1]!.id)
    const table = await agentsTable(f.owner, f.orgId, { page: 1, limit: 50, filters: { name: '', product: [], version: [], input: [], connected: [] }, sorting: [] })
    expect(table.rows.map((r) => r.systems.map((s) => s.projectId))).toEqual([[projects[MANY - 1]!.id]])
    expect((await agentDetail(f.owner, f.orgId, agentId!)).systems).toHaveLength(1)
    expect((await listAgentIssues(f.owner, f.orgId, agentId!, 'active')).total).toBe(0)
  })
})

describe('an organization of 2,500 projects', () => {
  it('shows a member managing 1,200 of them their agents, devices, issues and one agent', async () => {
    // Neither the 1,200 visible projects nor the 1,300 others fit in 999 bound ids.
    const f = await seedOrganization('wide')
    const rooms = Array.from({ length: 1_200 }, (_, i) => ({ id: `wide-room-${i}`, organizationId: f.orgId, name: `Room ${i}`, parentId: f.stage }))
    const halls = Array.from({ length: 1_298 }, (_, i) => ({ id: `wide-hall-${i}`, organizationId: f.orgId, name: `Hall ${i}`, parentId: f.volume }))
    await prisma.project.createMany({ data: [...rooms, ...halls] })
    const [inside] = await seedAgents('wide-in', f.orgId, 1, 1, rooms[1_199]!.id)
    await seedAgents('wide-out', f.orgId, 1, 1, halls[0]!.id)
    const systems = await prisma.system.findMany({ where: { agent: { organizationId: f.orgId } }, select: { id: true } })
    await prisma.issue.createMany({ data: systems.map((s) => ({ systemId: s.id, kind: 'alert', key: 'psu.failed', component: 'psu', severity: 2, message: 'PSU failed', latestAt: new Date(), isActive: true })) })
    const m = await prisma.user.create({ data: { email: 'manager@wide.large-lists.test', name: 'Manager', emailVerified: true } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: m.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: f.orgId, projectId: f.stage } })
      await compileUserAcls(tx, m.id, f.orgId)
    })
    const member = actorFor(m)

    const table = await agentsTable(member, f.orgId, { page: 1, limit: 50, filters: { name: '', product: [], version: [], input: [], connected: [] }, sorting: [] })
    expect(table.rows.map((r) => r.id)).toEqual([inside])
    expect((await listAgents(member, f.orgId, {})).agents.map((a) => a.id)).toEqual([inside])
    expect((await projectDevices(member, f.orgId, f.stage)).systems.map((s) => s.agent.id)).toEqual([inside])
    expect((await projectIssues(member, f.orgId, f.stage)).total).toBe(1)
    expect((await listProjectIssues(member, f.orgId, f.stage, 'active')).issues.map((i) => i.agentId)).toEqual([inside])
    expect((await agentDetail(member, f.orgId, inside!)).systems).toHaveLength(1)
    expect((await listAgentIssues(member, f.orgId, inside!, 'active')).total).toBe(1)
  })
})

describe('a project with 1,050 sub-projects', () => {
  it('shows the devices, issues, root causes, agents, search results, usage and activity of its whole subtree', async () => {
    const f = await seedOrganization('subtree')
    const rooms = Array.from({ length: MANY }, (_, i) => ({ id: `subtree-room-${i}`, organizationId: f.orgId, name: `Room ${i}`, parentId: f.stage }))
    await prisma.project.createMany({ data: rooms })
    // one agent in the last room, one in Volume (outside the subtree)
    const [inside] = await seedAgents('inside', f.orgId, 1, 1, rooms[MANY - 1]!.id)
    await seedAgents('outside', f.orgId, 1, 1, f.volume)
    const systems = await prisma.system.findMany({ where: { agent: { organizationId: f.orgId } }, select: { id: true } })
    await prisma.issue.createMany({ data: systems.map((s) => ({ systemId: s.id, kind: 'alert', key: 'psu.failed', component: 'psu', severity: 2, message: 'PSU failed', latestAt: new Date(), isActive: true })) })

    const devices = await projectDevices(f.owner, f.orgId, f.stage)
    expect(devices.systems.map((s) => s.agent.id)).toEqual([inside])
    expect((await projectIssues(f.owner, f.orgId, f.stage)).total).toBe(1)
    const list = await listProjectIssues(f.owner, f.orgId, f.stage, 'active')
    expect(list.issues.map((i) => i.agentId)).toEqual([inside])
    expect(await projectRootCauses(f.owner, f.orgId, f.stage)).toMatchObject({ groups: [] })

    // a member managing Stage lists the agents of its rooms through the API, not Volume's
    const m = await prisma.user.create({ data: { email: 'manager@subtree.large-lists.test', name: 'Manager', emailVerified: true } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: m.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: f.orgId, projectId: f.stage } })
      await compileUserAcls(tx, m.id, f.orgId)
    })
    expect((await listAgents(actorFor(m), f.orgId, {})).agents.map((a) => a.id)).toEqual([inside])

    // the search box matches every room: the first 40 results are listed
    const found = await fleetSearch(f.owner, f.orgId, 'room')
    expect(found).toHaveLength(40)
    expect(found.every((r) => r.type === 'project' && r.label.startsWith('Room ') && r.detail === 'Stage')).toBe(true)

    // staff: the project's usage counts the calls of agents reporting to any of its sub-projects, once each
    const staff = { ...f.owner, isSiteAdmin: true }
    await prisma.agentEvent.createMany({
      data: [
        { organizationId: f.orgId, agentId: inside!, type: 'ping', projectIds: JSON.stringify([rooms[MANY - 1]!.id]) },
        { organizationId: f.orgId, agentId: inside!, type: 'ping', projectIds: JSON.stringify([rooms[0]!.id, rooms[MANY - 1]!.id]) },
        { organizationId: f.orgId, agentId: inside!, type: 'ping', projectIds: JSON.stringify([f.volume]) },
      ],
    })
    const usage = await usageAggregated(staff, { organizationId: f.orgId, period: 'monthly', groupBy: 'project', projectId: f.stage, refresh: true })
    expect(usage).toMatchObject({ apiCalls: 2, activeClients: 1 })

    // the project's activity: records of rooms across the subtree, newest first, paged by cursor
    const t0 = Date.parse('2040-05-01T00:00:00Z')
    const logged = [0, 400, 800, 1_049].flatMap((room, r) => Array.from({ length: 6 }, (_, k) => ({ room, at: t0 + (r * 6 + k) * 60_000 })))
    await prisma.auditRecord.createMany({ data: logged.map((l) => ({ organizationId: f.orgId, projectId: rooms[l.room]!.id, action: 'project.update', message: `Room ${l.room} at ${l.at}`, createdAt: new Date(l.at) })) })
    await prisma.auditRecord.create({ data: { organizationId: f.orgId, projectId: f.volume, action: 'project.update', message: 'Volume', createdAt: new Date(t0 + 3_600_000) } })
    const expected = [...logged].reverse().map((l) => `Room ${l.room} at ${l.at}`)
    const first = await listAuditRecords(f.owner, { organizationId: f.orgId, projectId: f.stage })
    expect(first.records.map((r) => r.message)).toEqual(expected.slice(0, 20))
    const second = await listAuditRecords(f.owner, { organizationId: f.orgId, projectId: f.stage, cursor: first.nextCursor })
    expect(second).toMatchObject({ nextCursor: null })
    expect(second.records.map((r) => r.message)).toEqual(expected.slice(20))
  })
})

describe('an organization of 1,050 administrators', () => {
  it('offers every one of them as the new owner, by name', async () => {
    const f = await seedOrganization('transfer')
    const admins = Array.from({ length: MANY }, (_, i) => ({ id: `transfer-admin-${i}`, email: `admin-${i}@transfer.large-lists.test`, name: `Admin ${String(i).padStart(4, '0')}`, emailVerified: true }))
    await prisma.user.createMany({ data: admins })
    await prisma.compiledAcl.createMany({ data: admins.map((a) => ({ userId: a.id, organizationId: f.orgId, projectId: '*', permissions: '["org.transfer","org.view"]' })) })
    const candidates = await listTransferCandidates(f.owner, f.orgId)
    expect(candidates).toHaveLength(MANY)
    expect(candidates[0]).toEqual({ id: 'transfer-admin-0', name: 'Admin 0000', email: 'admin-0@transfer.large-lists.test' })
  })
})
