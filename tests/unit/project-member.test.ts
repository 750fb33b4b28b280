import { describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { type UserActor } from '~/domain/actor'
import { listMembers } from '~/domain/members/members.server'
import { rememberLastOrganization, resolveActiveOrganization } from '~/domain/organizations/membership.server'
import { createOrganization, listOrganizationsForUser } from '~/domain/organizations/organizations.server'
import { listProjects } from '~/domain/projects/projects.server'
import { prisma } from '~/utils/db.server'

let run = 0
async function user(label: string) {
  const n = ++run
  const u = await prisma.user.create({ data: { email: `${label}${n}@pm.test`, name: `${label} ${n}`, emailVerified: true } })
  const actor: UserActor = { kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: false, ip: '10.0.0.1', userAgent: 'vitest' }
  return { ...u, actor }
}

async function grant(userId: string, organizationId: string, roleId: string, projectId?: string) {
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId, organizationId, roleId, projectId } })
    await compileUserAcls(tx, userId, organizationId)
  })
}

/** An organization with Stage (sub-project Stage B) and Backstage, one agent reporting to each of Stage B and Backstage, and an unassigned system. */
async function fleet(name: string) {
  const owner = await user('owner')
  const { organizationId } = await createOrganization(owner.actor, { name })
  const stage = await prisma.project.create({ data: { organizationId, name: 'Stage' } })
  const stageB = await prisma.project.create({ data: { organizationId, name: 'Stage B', parentId: stage.id } })
  const backstage = await prisma.project.create({ data: { organizationId, name: 'Backstage' } })
  const inStage = await prisma.agent.create({ data: { secretHash: 'x', organizationId } })
  const elsewhere = await prisma.agent.create({ data: { secretHash: 'x', organizationId } })
  await prisma.system.create({ data: { agentId: inStage.id, key: 's1', name: 'S1', projectId: stageB.id } })
  await prisma.system.create({ data: { agentId: elsewhere.id, key: 's2', name: 'S2', projectId: backstage.id } })
  await prisma.system.create({ data: { agentId: elsewhere.id, key: 's3', name: 'S3', projectId: null } })
  return { owner, organizationId, stage, stageB, backstage }
}

describe('a member whose only right is a project role', () => {
  it('lists the projects (and sub-projects) they may view, with counts of only what they can see', async () => {
    const { owner, organizationId, stage } = await fleet('Touring Co')
    const pm = await user('pm')
    await grant(pm.id, organizationId, DEFAULT_ROLE_IDS.projectManager, stage.id)

    const caps = (await getOrganizationAccess(pm.actor, organizationId)).capabilities()
    expect(caps).toMatchObject({ canListProjects: true, canListAgents: true, canListMembers: false, canListNotes: false, canAuditView: false })

    const { projects, systems } = await listProjects(pm.actor, organizationId)
    expect(projects.map((p) => [p.name, p.subRows.map((c) => c.name)])).toEqual([['Stage', ['Stage B']]])
    expect(systems).toEqual({ total: 1, unassigned: 0 })
    await expect(listMembers(pm.actor, organizationId)).rejects.toMatchObject({ status: 403 })

    const [card] = await listOrganizationsForUser(pm.actor)
    expect(card).toMatchObject({ projectCount: 2, agentCount: 1, memberCount: null, linkTo: `/organization/${organizationId}` })
    // The owner still sees the whole organization.
    const [ownerCard] = await listOrganizationsForUser(owner.actor)
    expect(ownerCard).toMatchObject({ projectCount: 3, agentCount: 2, memberCount: 2 })
    expect(await listProjects(owner.actor, organizationId)).toMatchObject({ systems: { total: 3, unassigned: 1 } })
  })

  it('a member without any project view is refused the list in the domain', async () => {
    const { organizationId } = await fleet('Quiet Co')
    const role = await prisma.role.create({ data: { name: 'Agents only', organizationId, orgRef: organizationId, resourceType: 1, permissions: JSON.stringify(['agent.list']) } })
    const lister = await user('lister')
    await grant(lister.id, organizationId, role.id)
    await expect(listProjects(lister.actor, organizationId)).rejects.toMatchObject({ status: 403 })
    const [card] = await listOrganizationsForUser(lister.actor)
    expect(card).toMatchObject({ projectCount: null, agentCount: 2, memberCount: null, linkTo: `/organization/${organizationId}/agents` })
  })
})

describe('the last visited organization', () => {
  it('is stored on a visit and picks the sidebar organization (route, last visited, profile default, first)', async () => {
    const a = await fleet('Alpha Stages')
    const b = await fleet('Beta Stages')
    const u = await user('visitor')
    await grant(u.id, a.organizationId, DEFAULT_ROLE_IDS.orgViewer)
    await grant(u.id, b.organizationId, DEFAULT_ROLE_IDS.orgViewer)
    const profile = () => prisma.user.findUniqueOrThrow({ where: { id: u.id } })

    expect((await resolveActiveOrganization(u.actor, undefined, await profile())).active?.name).toBe('Alpha Stages')
    await rememberLastOrganization(u.actor, b.organizationId)
    expect((await profile()).lastOrganizationId).toBe(b.organizationId)
    expect((await resolveActiveOrganization(u.actor, undefined, await profile())).active?.name).toBe('Beta Stages')
    // The route wins over the last visited one.
    expect((await resolveActiveOrganization(u.actor, a.organizationId, await profile())).active?.name).toBe('Alpha Stages')
    await rememberLastOrganization(u.actor, a.organizationId)
    expect((await profile()).lastOrganizationId).toBe(a.organizationId)
    // The profile default applies when the last visited one is gone.
    await prisma.user.update({ where: { id: u.id }, data: { lastOrganizationId: null, preferenceDefaultOrg: b.organizationId } })
    expect((await resolveActiveOrganization(u.actor, undefined, await profile())).active?.name).toBe('Beta Stages')
  })
})
