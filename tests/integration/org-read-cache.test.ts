/**
 * The dashboard's and the project overview's aggregates are shared for a few seconds per
 * organization: a viewer without the right still gets 403, any change to issues, systems, projects
 * or (other than an agent report) agents shows at once, and nothing outlives ORG_READ_CACHE_MS (the
 * dashboard's expired figures keep answering while they load again, decision 062; a large fleet's
 * answer once more after a machine-made change, decision 086).
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { announceIngestChanges } from '../../app/domain/events/ingest-origin.server'
import { emitChange } from '~/domain/events/bus.server'
import { agentsTable } from '~/domain/fleet/agents-table.server'
import { parseAgentTableQuery } from '~/domain/fleet/agents-table-state'
import { dashboard } from '~/domain/fleet/dashboard.server'
import { cachedOrgRead, ORG_READ_CACHE_MS, REFRESH_BEHIND_MAX_AGE_MS, userKey } from '~/domain/fleet/org-read-cache.server'
import { projectOverview } from '~/domain/fleet/project.server'
import { recompileUserAcl } from '~/domain/roles/roles.server'
import { prisma } from '~/utils/db.server'

let orgId: string
let stageId: string
let backstageId: string
let agentId: string
let systemId: string
let owner: UserActor
let viewer: UserActor

const actorOf = (u: { id: string; email: string; name: string }): UserActor => ({ kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: false, ip: '', userAgent: '' })

beforeAll(async () => {
  const o = await prisma.user.create({ data: { email: 'owner@org-read-cache.test', name: 'Cache Owner', emailVerified: true } })
  const v = await prisma.user.create({ data: { email: 'viewer@org-read-cache.test', name: 'Cache Viewer', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Cache Org', ownerId: o.id } })).id
  stageId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  backstageId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Backstage' } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: o.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: v.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId: stageId } })
    await compileUserAcls(tx, o.id, orgId)
    await compileUserAcls(tx, v.id, orgId)
  })
  owner = actorOf(o)
  viewer = actorOf(v)
  const agent = await prisma.agent.create({ data: { clientName: 'Agent 1', secretHash: 'x', organizationId: orgId, lastSeen: new Date() } })
  agentId = agent.id
  systemId = (await prisma.system.create({ data: { agentId, key: 'sys', name: 'Wall 1', projectId: backstageId } })).id
})

afterEach(() => {
  vi.useRealTimers()
})

const addIssue = (key: string) =>
  prisma.issue.create({ data: { systemId, kind: 'alert', key, component: 'processor', message: key, severity: 2, latestCount: 1, latestAt: new Date(), isActive: true } })

describe('shared organization aggregates', () => {
  it('never answer a viewer without the right, whoever asked first', async () => {
    await projectOverview(owner, orgId, backstageId)
    await expect(projectOverview(viewer, orgId, backstageId)).rejects.toMatchObject({ code: 'permission-denied' })
    await expect(dashboard(viewer, orgId, 'system')).rejects.toMatchObject({ code: 'permission-denied' })
    expect((await projectOverview(viewer, orgId, stageId)).cards.systems.total).toBe(0)
  })

  it('show an issue at once when its change arrives, an agent report keeps them, and they expire', async () => {
    emitChange({ organizationId: orgId, kind: 'project' })
    expect((await projectOverview(owner, orgId, backstageId)).cards.issues.reported).toBe(0)
    expect((await dashboard(owner, orgId, 'system')).metrics[0]).toMatchObject({ issueCount: 0 })

    // written without a change event: the shared figures stay for the window
    await addIssue('proc.noInput')
    expect((await projectOverview(owner, orgId, backstageId)).cards.issues.reported).toBe(0)
    // the issue change ingest (or anyone) emits shows it at once, ingest's own included
    announceIngestChanges([{ organizationId: orgId, kind: 'issue', ids: [systemId] }])
    expect((await projectOverview(owner, orgId, backstageId)).cards.issues.reported).toBe(1)
    expect((await dashboard(owner, orgId, 'system')).metrics[0]).toMatchObject({ issueCount: 1, priorityIssueCount: 1 })

    // an agent report only moves last seen: kept, and 'connected' follows within the window
    await prisma.agent.update({ where: { id: agentId }, data: { lastSeen: new Date(Date.now() - 3_600_000) } })
    announceIngestChanges([{ organizationId: orgId, kind: 'agent', ids: [agentId] }])
    expect((await projectOverview(owner, orgId, backstageId)).cards.systems.connected).toBe(1)
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ORG_READ_CACHE_MS + 1 })
    expect((await projectOverview(owner, orgId, backstageId)).cards.systems.connected).toBe(0)

    // a person's change to an agent drops them at once
    await prisma.agent.update({ where: { id: agentId }, data: { lastSeen: new Date() } })
    emitChange({ organizationId: orgId, kind: 'agent', ids: [agentId] })
    expect((await projectOverview(owner, orgId, backstageId)).cards.systems.connected).toBe(1)

    // moving the system ('system' change) shows at once on both
    await prisma.system.update({ where: { id: systemId }, data: { projectId: stageId } })
    emitChange({ organizationId: orgId, kind: 'system', ids: [systemId] })
    expect((await projectOverview(owner, orgId, backstageId)).cards.systems.total).toBe(0)
    expect((await projectOverview(viewer, orgId, stageId)).cards.systems.total).toBe(1)
  })

  it('the agents list (per user and table state) shows an agent report at once', async () => {
    const query = parseAgentTableQuery(new URLSearchParams())
    emitChange({ organizationId: orgId, kind: 'agent' })
    const seen = new Date(Date.now() - 60_000)
    await prisma.agent.update({ where: { id: agentId }, data: { lastSeen: seen } })
    emitChange({ organizationId: orgId, kind: 'agent', ids: [agentId] })
    expect((await agentsTable(owner, orgId, query)).rows[0]?.lastSeen).toBe(seen.toISOString())
    // written without a change event: the same rows within the window
    const later = new Date()
    await prisma.agent.update({ where: { id: agentId }, data: { lastSeen: later } })
    expect((await agentsTable(owner, orgId, query)).rows[0]?.lastSeen).toBe(seen.toISOString())
    // an agent report drops the table (it shows last seen) but keeps the overview
    const overview = await projectOverview(owner, orgId, stageId)
    announceIngestChanges([{ organizationId: orgId, kind: 'agent', ids: [agentId] }])
    expect((await agentsTable(owner, orgId, query)).rows[0]?.lastSeen).toBe(later.toISOString())
    expect(await projectOverview(owner, orgId, stageId)).toBe(overview)
    // another user with the same query gets their own rows
    expect((await agentsTable(viewer, orgId, query)).rows.map((r) => r.id)).toEqual([agentId])
  })

  it("shows a site admin's change of someone's rights at once", async () => {
    const query = parseAgentTableQuery(new URLSearchParams())
    const wingsId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Wings' } })).id
    const wingAgent = await prisma.agent.create({ data: { clientName: 'Wing agent', secretHash: 'x', organizationId: orgId, lastSeen: new Date() } })
    await prisma.system.create({ data: { agentId: wingAgent.id, key: 'sys', name: 'Wing wall', projectId: wingsId } })
    emitChange({ organizationId: orgId, kind: 'system' })
    const u = await prisma.user.create({ data: { email: 'wings@org-read-cache.test', name: 'Wings Viewer', emailVerified: true } })
    const right = await prisma.$transaction(async (tx) => {
      const created = await tx.accessRight.create({ data: { userId: u.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId: wingsId } })
      await compileUserAcls(tx, u.id, orgId)
      return created
    })
    const member = actorOf(u)
    expect((await agentsTable(member, orgId, query)).rows.map((r) => [r.id, r.canConnect])).toEqual([[wingAgent.id, false]])
    // the right changed in the database (no event), then a site admin's 'Recompile ACLs for User'
    await prisma.accessRight.update({ where: { id: right.id }, data: { roleId: DEFAULT_ROLE_IDS.projectManager } })
    await recompileUserAcl({ ...owner, isSiteAdmin: true }, u.id)
    expect((await agentsTable(member, orgId, query)).rows.map((r) => [r.id, r.canConnect])).toEqual([[wingAgent.id, true]])
    // a site admin's claim is part of what a shared entry holds for a user
    expect(userKey({ ...member, isSiteAdmin: true })).not.toBe(userKey(member))
  })

  it('answer an expired dashboard from its last figures while it loads again; a change still shows at once', async () => {
    emitChange({ organizationId: orgId, kind: 'system' })
    const before = (await dashboard(owner, orgId, 'system')).metricsTotal
    // written without a change event, then the window passes
    const extra = await prisma.system.create({ data: { agentId, key: 'sys-refresh', name: 'Wall refresh', projectId: stageId } })
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + ORG_READ_CACHE_MS + 1 })
    expect((await dashboard(owner, orgId, 'system')).metricsTotal).toBe(before)
    // the load that answer started replaces the entry
    await vi.waitFor(async () => expect((await dashboard(owner, orgId, 'system')).metricsTotal).toBe(before + 1), { timeout: 60_000, interval: 50 })
    // a change drops it: the next answer waits for a load
    await prisma.system.delete({ where: { id: extra.id } })
    emitChange({ organizationId: orgId, kind: 'system', ids: [extra.id] })
    expect((await dashboard(owner, orgId, 'system')).metricsTotal).toBe(before)
    // an entry past REFRESH_BEHIND_MAX_AGE_MS is loaded before answering
    const late = await prisma.system.create({ data: { agentId, key: 'sys-late', name: 'Wall late', projectId: stageId } })
    vi.setSystemTime(Date.now() + REFRESH_BEHIND_MAX_AGE_MS + 1)
    expect((await dashboard(owner, orgId, 'system')).metricsTotal).toBe(before + 1)
    await prisma.system.delete({ where: { id: late.id } })
    emitChange({ organizationId: orgId, kind: 'system', ids: [late.id] })
  })

  it("a large fleet's entry is marked stale by a machine-made change, answered once more, and loaded again behind; a person's change, an issue's included, drops it", async () => {
    const org = 'large-fleet-org'
    let loads = 0
    let figure = 1
    // once holding, a load waits for the test's release(), so what answers meanwhile is seen
    let holding = false
    let release: () => void = () => {}
    const read = (large: boolean) =>
      cachedOrgRead(
        org,
        `figures:${large}`,
        async () => {
          loads++
          const value = figure
          if (holding) await new Promise<void>((r) => (release = r))
          return { value }
        },
        Date.now(),
        { refreshInBackground: true, staleOnMachineChange: () => large },
      )
    expect(await read(true)).toEqual({ value: 1 })
    expect(await read(false)).toEqual({ value: 1 })
    expect(loads).toBe(2)
    holding = true
    figure = 2
    // an alarm (the offline sweep's, ingest's) or any change ingest announces: the large entry answers its last figures and loads again behind
    emitChange({ organizationId: org, kind: 'issue', ids: ['system-1'] })
    expect(await read(true)).toEqual({ value: 1 })
    expect(loads).toBe(3)
    // a second change while that load runs: the load's result is stale as well
    announceIngestChanges([{ organizationId: org, kind: 'system', ids: ['system-1'] }])
    expect(await read(true)).toEqual({ value: 1 })
    expect(loads).toBe(3)
    figure = 3
    release()
    await vi.waitFor(async () => expect(await read(true)).toEqual({ value: 2 }), { timeout: 60_000, interval: 20 })
    expect(loads).toBe(4)
    release()
    await vi.waitFor(async () => expect(await read(true)).toEqual({ value: 3 }), { timeout: 60_000, interval: 20 })
    // the small entry was dropped by the first change: its next read waited for a load
    const small = read(false)
    release()
    expect(await small).toEqual({ value: 3 })
    // a person's change (not an issue) drops the large entry too: the next read waits for its load
    figure = 4
    emitChange({ organizationId: org, kind: 'system', ids: ['system-1'] })
    const waited = read(true)
    release()
    expect(await waited).toEqual({ value: 4 })
    // so does a person's issue change (acknowledged, cleared, commented): their next view shows it
    figure = 5
    emitChange({ organizationId: org, kind: 'issue', ids: ['issue-1'], byPerson: true })
    const afterPerson = read(true)
    release()
    expect(await afterPerson).toEqual({ value: 5 })
  })

  it('keep no failed load: a report asked while the database is down fails, and the next request after it is back loads it again', async () => {
    const key = `failed-load:${Date.now()}`
    let databaseUp = false
    const load = async () => {
      if (!databaseUp) throw new Error('database unavailable')
      return { loaded: true }
    }
    await expect(cachedOrgRead(orgId, key, load)).rejects.toThrow('database unavailable')
    databaseUp = true
    await expect(cachedOrgRead(orgId, key, load)).resolves.toEqual({ loaded: true })
  })
})
