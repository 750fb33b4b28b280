/**
 * The projects list's per-project connected counts are shared for a few seconds per organization
 * (one join of every system with its agent): a change to systems, projects or agents drops them at
 * once, an agent report (ingest's own change) does not; past PROJECT_COUNTS_CACHE_MS they answer
 * while a load behind them replaces them, up to PROJECT_COUNTS_REFRESH_BEHIND_MAX_MS.
 */
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { announceIngestChanges } from '../../app/domain/events/ingest-origin.server'
import { emitChange } from '~/domain/events/bus.server'
import { PROJECT_COUNTS_CACHE_MS, PROJECT_COUNTS_REFRESH_BEHIND_MAX_MS, projectSystemCounts } from '~/domain/fleet/project-system-counts.server'
import { projectSystemTags } from '~/domain/fleet/project-systems.server'
import { listProjects } from '~/domain/projects/projects.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'

let orgId: string
let projectId: string
let agentId: string
let owner: UserActor

beforeAll(async () => {
  const o = await prisma.user.create({ data: { email: 'owner@counts.test', name: 'Counts Owner', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Counts Org', ownerId: o.id } })).id
  projectId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: o.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, o.id, orgId)
  })
  owner = { kind: 'user', userId: o.id, email: o.email, name: o.name, isSiteAdmin: false, ip: '', userAgent: '' }
  for (let i = 1; i <= 3; i++) {
    const agent = await prisma.agent.create({ data: { clientName: `Agent ${i}`, secretHash: 'x', organizationId: orgId, lastSeen: i === 3 ? null : new Date() } })
    if (i === 1) agentId = agent.id
    await prisma.system.create({ data: { agentId: agent.id, key: 'sys', name: `Wall ${i}`, projectId } })
  }
})

const quiet = () => prisma.agent.update({ where: { id: agentId }, data: { lastSeen: new Date(Date.now() - 3_600_000) } })
const fresh = () => prisma.agent.update({ where: { id: agentId }, data: { lastSeen: new Date() } })

describe('projects list counts', () => {
  it('are reused within the window, dropped by a change, kept on an agent report, and expire', async () => {
    emitChange({ organizationId: orgId, kind: 'project' })
    const first = await projectSystemTags(owner, orgId)
    expect(first[projectId]).toMatchObject({ total: 3, connected: 2, unknown: 1 })

    // written without a change event: the shared counts stay until the window ends
    await quiet()
    const now = Date.now()
    expect((await projectSystemCounts(orgId, now)).get(projectId)?.connected).toBe(2)
    // an agent report (ingest's own change) keeps them: reports only move last seen, which the window covers
    announceIngestChanges([{ organizationId: orgId, kind: 'agent', ids: [agentId] }])
    expect((await projectSystemCounts(orgId, now)).get(projectId)?.connected).toBe(2)
    // past the window the last counts answer while one load behind them replaces them (decision 062)
    const later = now + PROJECT_COUNTS_CACHE_MS + 1
    expect((await projectSystemCounts(orgId, later)).get(projectId)?.connected).toBe(2)
    await vi.waitFor(async () => expect((await projectSystemCounts(orgId, later)).get(projectId)?.connected).toBe(1), { timeout: 60_000, interval: 50 })
    // counts older than the bound are loaded again before answering
    await fresh()
    expect((await projectSystemCounts(orgId, later + PROJECT_COUNTS_REFRESH_BEHIND_MAX_MS)).get(projectId)?.connected).toBe(2)

    // a person's change to an agent (enable, remove, ...) drops them at once
    await fresh()
    emitChange({ organizationId: orgId, kind: 'agent', ids: [agentId] })
    expect((await projectSystemTags(owner, orgId))[projectId]).toMatchObject({ total: 3, connected: 2 })

    // moving a system out of the project ('system' change) shows at once
    const system = await prisma.system.findFirstOrThrow({ where: { agentId } })
    await prisma.system.update({ where: { id: system.id }, data: { projectId: null } })
    emitChange({ organizationId: orgId, kind: 'system', ids: [system.id] })
    expect((await projectSystemTags(owner, orgId))[projectId]).toMatchObject({ total: 2, connected: 1, unknown: 1 })
    // the same pass holds the unassigned systems (key null) and feeds the list's totals (decision 052)
    expect((await projectSystemCounts(orgId)).get(null)).toMatchObject({ total: 1 })
    const list = await listProjects(owner, orgId)
    expect(list.systems).toEqual({ total: 3, unassigned: 1 })
    expect(list.projects.map((p) => [p.name, p.systemsCount])).toEqual([['Stage', 2]])
  })

  it('share their tags per set of visible projects: a rename shows once announced, a project viewer never gets the tags of the owner', async () => {
    // kept a minute (the most the setting allows): on a busy machine the steps below may take longer than the 5 s shared tags live
    const config = getConfig()
    setConfig({ ...config, FLEET_READ_CACHE_MS: 60_000 })
    onTestFinished(() => setConfig(config))
    const backstage = (await prisma.project.create({ data: { organizationId: orgId, name: 'Backstage' } })).id
    const agent = await prisma.agent.create({ data: { clientName: 'Agent B', secretHash: 'x', organizationId: orgId, lastSeen: new Date() } })
    const system = await prisma.system.create({ data: { agentId: agent.id, key: 'sys', name: 'Wall B', projectId: backstage } })
    const v = await prisma.user.create({ data: { email: 'viewer@counts.test', name: 'Counts Viewer', emailVerified: true } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: v.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId } })
      await compileUserAcls(tx, v.id, orgId)
    })
    const viewer: UserActor = { kind: 'user', userId: v.id, email: v.email, name: v.name, isSiteAdmin: false, ip: '', userAgent: '' }
    emitChange({ organizationId: orgId, kind: 'system', ids: [system.id] })

    const tagNames = (tags: Awaited<ReturnType<typeof projectSystemTags>>) => Object.fromEntries(Object.entries(tags).map(([id, t]) => [id, t.tags.map((x) => x.name)]))
    expect(tagNames(await projectSystemTags(owner, orgId))[backstage]).toEqual(['Wall B'])
    const seen = await projectSystemTags(viewer, orgId)
    expect(Object.keys(seen)).toEqual([projectId])

    // renamed without a change event: the shared tags stay; announced, the rename shows at once
    await prisma.system.update({ where: { id: system.id }, data: { name: 'Wall B2' } })
    expect(tagNames(await projectSystemTags(owner, orgId))[backstage]).toEqual(['Wall B'])
    emitChange({ organizationId: orgId, kind: 'system', ids: [system.id] })
    expect(tagNames(await projectSystemTags(owner, orgId))[backstage]).toEqual(['Wall B2'])
    expect(Object.keys(await projectSystemTags(viewer, orgId))).toEqual([projectId])
  })
})
