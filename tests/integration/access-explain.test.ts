/**
 * The access explainer gives exactly the answer of the real permission check, across a matrix of
 * members x permissions x places (organization and every project of a three-level tree), and its
 * explanation (role, right, inherited-from project) is consistent with that verdict.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { requireOrganizationPermission } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { ALL_PERMISSIONS, DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { DomainError } from '~/domain/errors'
import { explainAccess, explainChoices } from '~/domain/access/explain.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

const users: Record<string, UserActor> = {}
let orgId: string
const projects: Record<string, string> = {}

beforeAll(async () => {
  const mk = (key: string, isAdmin = false) => prisma.user.create({ data: { email: `${key}@explain.test`, name: key, emailVerified: true, isAdmin } })
  const [owner, member, viewer, manager, stageViewer, booth, staff, outsider] = await Promise.all(
    ['Owner', 'Member', 'Viewer', 'Manager', 'StageViewer', 'Booth', 'Staff', 'Outsider'].map((k) => mk(k, k === 'Staff')),
  )
  const org = await prisma.organization.create({ data: { name: 'Explain Org', ownerId: owner.id } })
  orgId = org.id
  projects.Main = (await prisma.project.create({ data: { organizationId: orgId, name: 'Main' } })).id
  projects.Stage = (await prisma.project.create({ data: { organizationId: orgId, name: 'Main Stage', parentId: projects.Main } })).id
  projects.Booth = (await prisma.project.create({ data: { organizationId: orgId, name: 'FOH Booth', parentId: projects.Stage } })).id
  projects.Other = (await prisma.project.create({ data: { organizationId: orgId, name: 'Other' } })).id
  const connectRole = await prisma.role.create({ data: { name: 'Operator', organizationId: orgId, orgRef: orgId, resourceType: 2, permissions: '["project.view","project.agents.connect"]' } })
  await prisma.$transaction(async (tx) => {
    const right = (userId: string, roleId: string, projectId: string | null = null) => tx.accessRight.create({ data: { userId, roleId, organizationId: orgId, projectId } })
    await right(owner.id, DEFAULT_ROLE_IDS.orgAdmin)
    await right(member.id, DEFAULT_ROLE_IDS.orgMember)
    await right(viewer.id, DEFAULT_ROLE_IDS.orgViewer)
    await right(manager.id, DEFAULT_ROLE_IDS.projectManager, projects.Main)
    await right(stageViewer.id, DEFAULT_ROLE_IDS.projectViewer, projects.Stage)
    await right(booth.id, connectRole.id, projects.Booth)
    await right(booth.id, DEFAULT_ROLE_IDS.projectViewer, projects.Main)
    await right(staff.id, DEFAULT_ROLE_IDS.orgViewer)
    for (const u of [owner, member, viewer, manager, stageViewer, booth, staff]) await compileUserAcls(tx, u.id, orgId)
  })
  Object.assign(users, Object.fromEntries([owner, member, viewer, manager, stageViewer, booth, staff, outsider].map((u) => [u.name, actorFor(u)])))
})

/** The enforcement function every loader and action uses: does it let `actor` through? */
async function enforced(actor: UserActor, permission: (typeof ALL_PERMISSIONS)[number], projectId: string | null) {
  try {
    await requireOrganizationPermission(actor, orgId, permission, projectId)
    return true
  } catch (e) {
    if (e instanceof DomainError && e.status === 403) return false
    throw e
  }
}

describe('access explainer', () => {
  it('agrees with the enforcement function for every member, permission and place', async () => {
    const members = ['Owner', 'Member', 'Viewer', 'Manager', 'StageViewer', 'Booth', 'Staff']
    const places = [null, projects.Main, projects.Stage, projects.Booth, projects.Other]
    let checked = 0
    let granted = 0
    // every fifth permission of the catalogue plus the ones the roles above differ on (keeps the run short)
    const permissions = [...new Set([...ALL_PERMISSIONS.filter((_, i) => i % 5 === 0), 'org.view', 'org.delete', 'project.view', 'project.agents.connect', 'agent.assignToProject', 'agent.delete', 'note.list'] as const)]
    for (const name of members) {
      for (const permission of permissions) {
        for (const projectId of places) {
          const e = await explainAccess(users.Owner, { organizationId: orgId, userId: users[name].userId, permission, projectId })
          const expected = await enforced(users[name], permission, projectId)
          expect({ name, permission, projectId, granted: e.granted }).toEqual({ name, permission, projectId, granted: expected })
          // the explanation matches the verdict: granted exactly when a right (or a special power) explains it
          expect(e.granted).toBe(e.grants.length > 0 || e.special !== null)
          if (!e.granted) expect(e.summary).toMatch(/^No role of /)
          checked++
          if (e.granted) granted++
        }
      }
    }
    expect(checked).toBe(7 * permissions.length * 5)
    expect(granted).toBeGreaterThan(40)
    expect(checked - granted).toBeGreaterThan(40)
  })

  it('names the role, the right and the parent project a permission is inherited from', async () => {
    const e = await explainAccess(users.Owner, { organizationId: orgId, userId: users.Manager.userId, permission: 'agent.assignToProject', projectId: projects.Booth })
    expect(e.granted).toBe(true)
    expect(e.grants).toEqual([expect.objectContaining({ roleName: 'Project Manager', level: 'project', projectName: 'Main', inherited: true })])
    expect(e.chain.map((p) => p.name)).toEqual(['FOH Booth', 'Main Stage', 'Main'])
    expect(e.summary).toBe('Manager holds agent.assignToProject on FOH Booth through the role Project Manager (a right on Main, inherited by FOH Booth).')

    const direct = await explainAccess(users.Owner, { organizationId: orgId, userId: users.Booth.userId, permission: 'project.view', projectId: projects.Booth })
    // nearest first: the Operator right on the booth itself, then the viewer right on Main
    expect(direct.grants.map((g) => [g.roleName, g.projectName, g.inherited])).toEqual([['Operator', 'FOH Booth', false], ['Project Viewer', 'Main', true]])

    const org = await explainAccess(users.Owner, { organizationId: orgId, userId: users.Member.userId, permission: 'project.view', projectId: projects.Other })
    expect(org.grants[0]).toMatchObject({ roleName: 'Organization Member', level: 'organization', projectId: null })
    expect(org.summary).toContain('(an organization-wide right)')
  })

  it('says what is missing and which roles would grant it', async () => {
    const e = await explainAccess(users.Owner, { organizationId: orgId, userId: users.StageViewer.userId, permission: 'project.agents.connect', projectId: projects.Stage })
    expect(e.granted).toBe(false)
    expect(e.rolesThatWould.map((r) => r.name)).toEqual(['Operator', 'Organization Admin', 'Organization Member', 'Project Manager'])
    expect(e.summary).toBe('No role of StageViewer grants project.agents.connect on Main Stage or its parents; roles that would: Operator, Organization Admin, Organization Member, Project Manager.')
    // organization level: project-scoped roles cannot be given there
    const orgLevel = await explainAccess(users.Owner, { organizationId: orgId, userId: users.Viewer.userId, permission: 'agent.delete' })
    expect(orgLevel.rolesThatWould.map((r) => r.name)).toEqual(['Organization Admin'])
    expect(orgLevel.summary).toBe('No role of Viewer grants agent.delete on the organization; roles that would: Organization Admin.')
  })

  it('explains site administrators and the owner', async () => {
    const staff = await explainAccess(users.Owner, { organizationId: orgId, userId: users.Staff.userId, permission: 'org.delete' })
    expect(staff).toMatchObject({ granted: true, special: 'site-admin' })
  })

  it('is open to admins about anyone and to every member about themselves only', async () => {
    const self = await explainAccess(users.StageViewer, { organizationId: orgId, userId: users.StageViewer.userId, permission: 'project.view', projectId: projects.Booth })
    expect(self.granted).toBe(true)
    await expect(explainAccess(users.StageViewer, { organizationId: orgId, userId: users.Member.userId, permission: 'project.view' })).rejects.toMatchObject({ status: 403 })
    await expect(explainAccess(users.Viewer, { organizationId: orgId, userId: users.Member.userId, permission: 'project.view' })).rejects.toMatchObject({ status: 403 })
    await expect(explainAccess(users.Outsider, { organizationId: orgId, userId: users.Outsider.userId, permission: 'project.view' })).rejects.toMatchObject({ status: 403 })
    await expect(explainAccess(users.Owner, { organizationId: orgId, userId: users.Outsider.userId, permission: 'project.view' })).rejects.toMatchObject({ status: 404 })
    await expect(explainAccess(users.Owner, { organizationId: orgId, userId: users.Member.userId, permission: 'no.such' })).rejects.toMatchObject({ status: 400, message: 'Unknown permission' })
    const mine = await explainChoices(users.StageViewer, orgId)
    expect(mine.canExplainOthers).toBe(false)
    expect(mine.members.map((m) => m.name)).toEqual(['StageViewer'])
    const all = await explainChoices(users.Owner, orgId)
    expect(all.canExplainOthers).toBe(true)
    expect(all.members).toHaveLength(7)
    expect(all.projects.map((p) => p.name)).toEqual(['Main', 'Main / Main Stage', 'Main / Main Stage / FOH Booth', 'Other'])
  })
})
