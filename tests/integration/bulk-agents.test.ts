/**
 * Bulk operations on the agents list: the selection (ticked ids or every filtered agent, resolved
 * on the server), chunked processing with per-agent permission checks and partial failures, one
 * audit record per operation, progress, and the CSV export of a selection.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { bulkAgents, bulkExportIds, prepareBulkAgents, type BulkProgress } from '~/domain/fleet/bulk.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

let orgId: string
let stage: string
let volume: string
let lobby: string
let owner: UserActor
let stageManager: UserActor
let viewer: UserActor
const ids: Record<string, string> = {}

beforeAll(async () => {
  const mk = (key: string) => prisma.user.create({ data: { email: `${key}@bulk.test`, name: key, emailVerified: true } })
  const [o, m, v] = await Promise.all([mk('owner'), mk('manager'), mk('viewer')])
  orgId = (await prisma.organization.create({ data: { name: 'Bulk Org', ownerId: o.id } })).id
  stage = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  volume = (await prisma.project.create({ data: { organizationId: orgId, name: 'Volume' } })).id
  lobby = (await prisma.project.create({ data: { organizationId: orgId, name: 'Lobby', parentId: stage } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: o.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    // a project-only member: manages Stage (and Lobby below it), nothing else
    await tx.accessRight.create({ data: { userId: m.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: orgId, projectId: stage } })
    await tx.accessRight.create({ data: { userId: v.id, roleId: DEFAULT_ROLE_IDS.orgViewer, organizationId: orgId } })
    for (const u of [o, m, v]) await compileUserAcls(tx, u.id, orgId)
  })
  owner = actorFor(o)
  stageManager = actorFor(m)
  viewer = actorFor(v)
  // 25 agents: 1-10 on Stage, 11-20 on Volume, 21-24 unassigned, 25 has no system; 'Rack' in names 1-5 and 11-15
  for (let i = 1; i <= 25; i++) {
    const name = `${i <= 5 || (i >= 11 && i <= 15) ? 'Rack' : 'Node'} ${String(i).padStart(2, '0')}`
    const agent = await prisma.agent.create({ data: { clientName: name, secretHash: 'x', organizationId: orgId, product: 'Helios', version: '1.0', lastSeen: new Date() } })
    ids[name] = agent.id
    if (i <= 24) await prisma.system.create({ data: { agentId: agent.id, key: 'sys', name: `Wall ${i}`, projectId: i <= 10 ? stage : i <= 20 ? volume : null } })
  }
})

const byName = (prefix: string) => Object.entries(ids).filter(([n]) => n.startsWith(prefix)).map(([, id]) => id)
const projectOf = async (agentId: string) => (await prisma.system.findFirst({ where: { agentId } }))?.projectId

describe('bulk operations on agents', () => {
  it('assigns every filtered agent in several chunks, skipping agents the member may not move, with one audit record', async () => {
    const progress: BulkProgress[] = []
    const job = await prepareBulkAgents(stageManager, { organizationId: orgId, operation: 'assign', projectId: lobby, selection: { mode: 'filtered', filters: { name: 'rack' } } }, 3)
    // the project-only member lists only Stage's agents: Rack 01-05 (not Volume's Rack 11-15)
    expect(job.total).toBe(5)
    const summary = await job.run((p) => progress.push(p))
    expect(summary).toMatchObject({ done: 5, unchanged: 0, skipped: [], message: '5 assigned' })
    expect(progress).toEqual([{ processed: 0, total: 5 }, { processed: 3, total: 5 }, { processed: 5, total: 5 }])
    for (const id of byName('Rack 0')) expect(await projectOf(id)).toBe(lobby)
    const records = await prisma.auditRecord.findMany({ where: { organizationId: orgId, action: 'agent.bulkAssign' } })
    expect(records).toHaveLength(1)
    expect(records[0].message).toContain('Assigned the systems of 5 agent(s) to project Lobby')
    expect(records[0].message).toContain(ids['Rack 01'])
  })

  it('reports partial failures per agent: no permission on the project a system leaves, not found, no systems', async () => {
    const selection = { mode: 'ids' as const, ids: [ids['Node 06'], ids['Node 16'], ids['Node 25'], ids['Node 21'], 'no-such-agent'] }
    // the stage manager ticks ids of agents they cannot list: those are 'not found' for them
    const asManager = await bulkAgents(stageManager, { organizationId: orgId, operation: 'assign', projectId: stage, selection })
    expect(asManager).toMatchObject({ total: 5, done: 0, unchanged: 1 })
    expect(asManager.skipped).toEqual([{ reason: 'not found', count: 4, agentIds: [ids['Node 16'], ids['Node 25'], ids['Node 21'], 'no-such-agent'] }])
    // a custom role with assignment rights on Stage only, but listing the whole organization
    const role = await prisma.role.create({ data: { name: 'Lister', organizationId: orgId, orgRef: orgId, resourceType: 1, permissions: '["org.view","agent.list","project.view"]' } })
    const u = await prisma.user.create({ data: { email: 'lister@bulk.test', name: 'lister', emailVerified: true } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: u.id, roleId: role.id, organizationId: orgId } })
      await tx.accessRight.create({ data: { userId: u.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: orgId, projectId: stage } })
      await compileUserAcls(tx, u.id, orgId)
    })
    const lister = actorFor(u)
    const summary = await bulkAgents(lister, { organizationId: orgId, operation: 'assign', projectId: stage, selection: { mode: 'ids', ids: [ids['Node 07'], ids['Node 16'], ids['Node 17'], ids['Node 22'], ids['Node 25']] } })
    // Node 07 is already on Stage
    expect(summary).toMatchObject({ done: 1, unchanged: 1 })
    expect(summary.skipped).toEqual([
      { reason: 'no permission on project Volume', count: 2, agentIds: [ids['Node 16'], ids['Node 17']] },
      { reason: 'no systems reported', count: 1, agentIds: [ids['Node 25']] },
    ])
    expect(summary.message).toBe('1 assigned, 1 already in the project, 3 skipped: 2 no permission on project Volume; 1 no systems reported')
    expect(await projectOf(ids['Node 16'])).toBe(volume)
    expect(await projectOf(ids['Node 22'])).toBe(stage)
  })

  it('refuses without the right on the target project or to remove, before changing anything', async () => {
    await expect(bulkAgents(stageManager, { organizationId: orgId, operation: 'assign', projectId: volume, selection: { mode: 'ids', ids: [ids['Node 06']] } })).rejects.toMatchObject({ status: 403 })
    await expect(bulkAgents(stageManager, { organizationId: orgId, operation: 'remove', selection: { mode: 'filtered', filters: {} } })).rejects.toMatchObject({ status: 403 })
    await expect(bulkAgents(viewer, { organizationId: orgId, operation: 'assign', projectId: stage, selection: { mode: 'filtered', filters: {} } })).rejects.toMatchObject({ status: 403 })
    await expect(bulkAgents(owner, { organizationId: orgId, operation: 'assign', projectId: stage, selection: { mode: 'ids', ids: [] } })).rejects.toMatchObject({ status: 400, message: 'Select at least one agent' })
    await expect(bulkAgents(owner, { organizationId: orgId, operation: 'explode', selection: { mode: 'ids', ids: ['x'] } })).rejects.toMatchObject({ status: 400 })
    expect(await prisma.auditRecord.count({ where: { organizationId: orgId, action: { startsWith: 'agent.bulk' } } })).toBe(2)
  })

  it('exports only agents the viewer may list, in table order for a filtered selection', async () => {
    const mine = await bulkExportIds(stageManager, { organizationId: orgId, selection: { mode: 'ids', ids: [ids['Node 16'], ids['Rack 02'], ids['Node 07']] } })
    expect(mine.ids).toEqual([ids['Rack 02'], ids['Node 07']])
    const all = await bulkExportIds(owner, { organizationId: orgId, selection: { mode: 'filtered', filters: { name: 'Rack' } } })
    expect(all.ids).toEqual(byName('Rack'))
  })

  it('removes the selected agents in chunks with one audit record naming the count', async () => {
    const selection = { mode: 'filtered' as const, filters: { name: 'Node 2' } }
    const job = await prepareBulkAgents(owner, { organizationId: orgId, operation: 'remove', selection }, 2)
    expect(job.total).toBe(6)
    const summary = await job.run()
    expect(summary).toMatchObject({ done: 6, message: '6 removed' })
    expect(await prisma.agent.count({ where: { organizationId: orgId } })).toBe(19)
    expect(await prisma.system.count({ where: { agent: { clientName: { startsWith: 'Node 2' } }, projectId: { not: null } } })).toBe(0)
    const records = await prisma.auditRecord.findMany({ where: { organizationId: orgId, action: 'agent.bulkRemove' } })
    expect(records.map((r) => r.message.split(' (')[0])).toEqual(['Removed 6 agent(s) from the organization'])
  })
})
