/**
 * Permission matrix: for every gated domain action, a user whose role holds the permission
 * succeeds, and a user whose role holds every other permission (so only the one under test is
 * missing) is refused with 403 and changes nothing. Project actions are also checked through
 * inheritance: the grant sits on a parent project and the action targets its child.
 */
import { describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { ALL_PERMISSIONS, DEFAULT_ROLE_IDS, permissionsForScope, Scope, type Permission } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { createOrganizationInvite, revokeOrganizationInvite } from '~/domain/invites/invites.server'
import { addOrganizationMember, assignUserRole, removeOrganizationMember, unassignUserRole } from '~/domain/members/members.server'
import { deleteOrganization, requestBilling, transferOwnership, updateOrganization } from '~/domain/organizations/organizations.server'
import { assignProjectMemberRole, createProject, deleteProject, updateProject } from '~/domain/projects/projects.server'
import { createRole, deleteRole, updateRole } from '~/domain/roles/roles.server'
import { prisma } from '~/utils/db.server'

let counter = 0
const unique = () => `${++counter}-${Math.random().toString(36).slice(2, 8)}`

async function makeUser(label: string) {
  const u = await prisma.user.create({ data: { email: `${label}-${unique()}@matrix.test`, name: `${label} ${counter}`, emailVerified: true } })
  const actor: UserActor = { kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: false, ip: '10.1.1.1', userAgent: 'vitest' }
  return { ...u, actor }
}

async function makeRole(organizationId: string, permissions: string[], resourceType: number, assignableBy: string[] = []) {
  return prisma.role.create({
    data: {
      name: `Role ${unique()}`,
      organizationId,
      orgRef: organizationId,
      resourceType,
      permissions: JSON.stringify(permissions),
      assignableBy: JSON.stringify(assignableBy),
    },
  })
}

async function grant(userId: string, organizationId: string, roleId: string, projectId: string | null = null) {
  return prisma.$transaction(async (tx) => {
    const right = await tx.accessRight.create({ data: { userId, organizationId, roleId, projectId } })
    await compileUserAcls(tx, userId, organizationId)
    return right
  })
}

type Fixture = {
  organizationId: string
  owner: Awaited<ReturnType<typeof makeUser>>
  actor: UserActor
  actorRoleId: string
  parent: string
  child: string
}

type Case = {
  name: string
  permission: Permission
  /** the grant sits on the parent project (inheritance) instead of the organization */
  onParentProject?: boolean
  /** the actor owns the organization (transfer needs the owner) */
  asOwner?: boolean
  /** permissions that also unlock the action, withheld from the refused user too */
  alternatives?: Permission[]
  setup?: (f: Fixture) => Promise<Record<string, string>>
  run: (f: Fixture, ctx: Record<string, string>) => Promise<unknown>
  /** a value that differs before and after a successful run, equal after a refused one */
  observe: (f: Fixture, ctx: Record<string, string>) => Promise<unknown>
}

/** A fresh organization (owner, parent > child projects) with the actor holding `permissions`. */
async function buildFixture(c: Case, permissions: Permission[]): Promise<Fixture> {
  const actorUser = await makeUser('actor')
  const owner = c.asOwner ? actorUser : await makeUser('owner')
  const org = await prisma.organization.create({ data: { name: `Org ${unique()}`, ownerId: owner.id } })
  const parent = await prisma.project.create({ data: { organizationId: org.id, name: 'Parent' } })
  const child = await prisma.project.create({ data: { organizationId: org.id, name: 'Child', parentId: parent.id } })
  if (!c.asOwner) await grant(owner.id, org.id, DEFAULT_ROLE_IDS.orgAdmin)
  const scope = c.onParentProject ? Scope.Project : Scope.Organization
  const role = await makeRole(org.id, permissions, scope)
  await grant(actorUser.id, org.id, role.id, c.onParentProject ? parent.id : null)
  return { organizationId: org.id, owner, actor: actorUser.actor, actorRoleId: role.id, parent: parent.id, child: child.id }
}

/** A member of the fixture's organization with an organization-level role the actor may assign. */
async function victim(f: Fixture) {
  const user = await makeUser('victim')
  const role = await makeRole(f.organizationId, ['org.view'], Scope.Organization, [f.actorRoleId])
  const right = await grant(user.id, f.organizationId, role.id)
  return { user, right }
}

const orgName = (f: Fixture) => prisma.organization.findUnique({ where: { id: f.organizationId }, select: { name: true, ownerId: true, billingStatus: true } })
const projectState = (id: string) => prisma.project.findUnique({ where: { id }, select: { name: true } })
const rightsOf = (f: Fixture, userId: string) => prisma.accessRight.findMany({ where: { organizationId: f.organizationId, userId }, select: { roleId: true, projectId: true } })

const cases: Case[] = [
  {
    name: 'update the organization',
    permission: 'org.update',
    run: (f) => updateOrganization(f.actor, f.organizationId, { name: 'Renamed' }),
    observe: orgName,
  },
  {
    name: 'delete the organization',
    permission: 'org.delete',
    run: (f) => deleteOrganization(f.actor, f.organizationId),
    observe: (f) => prisma.organization.count({ where: { id: f.organizationId } }),
  },
  {
    name: 'transfer the ownership',
    permission: 'org.transfer',
    asOwner: true,
    setup: async (f) => {
      const candidate = await makeUser('candidate')
      await grant(candidate.id, f.organizationId, DEFAULT_ROLE_IDS.orgAdmin)
      return { candidate: candidate.id }
    },
    run: (f, ctx) => transferOwnership(f.actor, f.organizationId, ctx.candidate),
    observe: orgName,
  },
  {
    name: 'request a billing agreement',
    permission: 'org.billing.view',
    run: (f) => requestBilling(f.actor, f.organizationId),
    observe: orgName,
  },
  {
    name: 'create a top-level project',
    permission: 'project.create',
    run: (f) => createProject(f.actor, f.organizationId, { name: 'New top' }),
    observe: (f) => prisma.project.count({ where: { organizationId: f.organizationId } }),
  },
  {
    name: 'update a project (organization-level grant)',
    permission: 'project.update',
    run: (f) => updateProject(f.actor, f.organizationId, f.child, { name: 'Renamed child' }),
    observe: (f) => projectState(f.child),
  },
  {
    name: 'delete a project (organization-level grant)',
    permission: 'project.delete',
    run: (f) => deleteProject(f.actor, f.organizationId, f.child, true),
    observe: (f) => projectState(f.child),
  },
  {
    name: 'create a sub-project through a grant on the parent project',
    permission: 'project.create',
    onParentProject: true,
    alternatives: ['project.update'],
    run: (f) => createProject(f.actor, f.organizationId, { name: 'Grandchild', parentId: f.child }),
    observe: (f) => prisma.project.count({ where: { organizationId: f.organizationId } }),
  },
  {
    name: 'update a child project through a grant on the parent project',
    permission: 'project.update',
    onParentProject: true,
    run: (f) => updateProject(f.actor, f.organizationId, f.child, { description: 'Changed' }),
    observe: (f) => prisma.project.findUnique({ where: { id: f.child }, select: { description: true } }),
  },
  {
    name: 'delete a child project through a grant on the parent project',
    permission: 'project.delete',
    onParentProject: true,
    run: (f) => deleteProject(f.actor, f.organizationId, f.child, true),
    observe: (f) => projectState(f.child),
  },
  {
    name: 'assign a project member role through a grant on the parent project',
    permission: 'project.user.assignRole',
    onParentProject: true,
    setup: async (f) => {
      const { user } = await victim(f)
      const role = await makeRole(f.organizationId, ['project.view'], Scope.Project, [f.actorRoleId])
      return { member: user.id, role: role.id }
    },
    run: (f, ctx) => assignProjectMemberRole(f.actor, { organizationId: f.organizationId, projectId: f.child, memberId: ctx.member!, roleId: ctx.role! }),
    observe: (f, ctx) => rightsOf(f, ctx.member!),
  },
  {
    name: 'add a registered user as member',
    permission: 'org.user.add',
    setup: async (f) => {
      const user = await makeUser('newcomer')
      const role = await makeRole(f.organizationId, ['org.view'], Scope.Organization, [f.actorRoleId])
      return { email: user.email, user: user.id, role: role.id }
    },
    run: (f, ctx) => addOrganizationMember(f.actor, f.organizationId, { email: ctx.email!, roleId: ctx.role! }),
    observe: (f, ctx) => rightsOf(f, ctx.user!),
  },
  {
    name: 'remove a member',
    permission: 'org.user.remove',
    setup: async (f) => ({ member: (await victim(f)).user.id }),
    run: (f, ctx) => removeOrganizationMember(f.actor, f.organizationId, ctx.member!),
    observe: (f, ctx) => rightsOf(f, ctx.member!),
  },
  {
    name: "change a member's role",
    permission: 'org.user.assignRole',
    setup: async (f) => {
      const { user, right } = await victim(f)
      const role = await makeRole(f.organizationId, ['org.view', 'note.list'], Scope.Organization, [f.actorRoleId])
      return { member: user.id, acl: right.id, role: role.id }
    },
    run: (f, ctx) => assignUserRole(f.actor, { aclId: ctx.acl!, organizationId: f.organizationId, userId: ctx.member!, roleId: ctx.role! }),
    observe: (f, ctx) => rightsOf(f, ctx.member!),
  },
  {
    name: "remove one of a member's access rights",
    permission: 'org.user.assignRole',
    alternatives: ['project.user.assignRole'],
    setup: async (f) => {
      const { user } = await victim(f)
      const projectRole = await makeRole(f.organizationId, ['project.view'], Scope.Project)
      const right = await grant(user.id, f.organizationId, projectRole.id, f.child)
      return { member: user.id, acl: right.id }
    },
    run: (f, ctx) => unassignUserRole(f.actor, { aclId: ctx.acl!, organizationId: f.organizationId }),
    observe: (f, ctx) => rightsOf(f, ctx.member!),
  },
  {
    name: 'invite an e-mail address',
    permission: 'org.user.invite',
    setup: async (f) => ({ role: (await makeRole(f.organizationId, ['org.view'], Scope.Organization, [f.actorRoleId])).id }),
    run: (f, ctx) => createOrganizationInvite(f.actor, { organizationId: f.organizationId, recipient: `guest-${unique()}@matrix.test`, roleId: ctx.role! }),
    observe: (f) => prisma.invite.count({ where: { organizationId: f.organizationId } }),
  },
  {
    name: 'revoke an invite',
    permission: 'org.user.invite',
    setup: async (f) => {
      const invite = await prisma.invite.create({
        data: { organizationId: f.organizationId, recipient: `pending-${unique()}@matrix.test`, roleId: DEFAULT_ROLE_IDS.orgViewer, codeHash: unique(), senderId: f.owner.id },
      })
      return { invite: invite.id }
    },
    run: (f, ctx) => revokeOrganizationInvite(f.actor, ctx.invite!),
    observe: (_f, ctx) => prisma.invite.findUnique({ where: { id: ctx.invite! }, select: { status: true } }),
  },
  {
    name: 'create a role',
    permission: 'org.user.editRoles',
    run: (f) => createRole(f.actor, { organizationId: f.organizationId, name: 'Auditor', resourceType: Scope.Organization, permissions: ['org.audit.view'] }),
    observe: (f) => prisma.role.count({ where: { organizationId: f.organizationId } }),
  },
  {
    name: 'update a role',
    permission: 'org.user.editRoles',
    setup: async (f) => ({ role: (await makeRole(f.organizationId, ['org.view'], Scope.Organization)).id }),
    run: (_f, ctx) => updateRole(_f.actor, { id: ctx.role!, doc: { description: 'Changed', permissions: ['org.view', 'org.audit.view'] } }),
    observe: (_f, ctx) => prisma.role.findUnique({ where: { id: ctx.role! }, select: { description: true, permissions: true } }),
  },
  {
    name: 'delete a role',
    permission: 'org.user.editRoles',
    setup: async (f) => ({ role: (await makeRole(f.organizationId, ['org.view'], Scope.Organization)).id }),
    run: (f, ctx) => deleteRole(f.actor, { id: ctx.role!, organizationId: f.organizationId }),
    observe: (_f, ctx) => prisma.role.count({ where: { id: ctx.role! } }),
  },
  {
    name: 'read the activity log',
    permission: 'org.audit.view',
    run: (f) => listAuditRecords(f.actor, { organizationId: f.organizationId }),
    observe: async () => 'reads change nothing',
  },
]

describe('permission matrix', () => {
  for (const c of cases) {
    it(`${c.name}: allowed with ${c.permission}, refused (403) with every other permission`, async () => {
      const scope = c.onParentProject ? Scope.Project : Scope.Organization
      const missing = new Set<Permission>([c.permission, ...(c.alternatives ?? [])])
      const everythingElse = ALL_PERMISSIONS.filter((p) => p !== 'cloud.admin' && !missing.has(p) && permissionsForScope(scope).includes(p))

      const refused = await buildFixture(c, everythingElse)
      const refusedCtx = (await c.setup?.(refused)) ?? {}
      const before = await c.observe(refused, refusedCtx)
      await expect(c.run(refused, refusedCtx)).rejects.toMatchObject({ status: 403 })
      expect(await c.observe(refused, refusedCtx)).toEqual(before)

      const allowed = await buildFixture(c, [c.permission])
      const allowedCtx = (await c.setup?.(allowed)) ?? {}
      const beforeAllowed = await c.observe(allowed, allowedCtx)
      await expect(c.run(allowed, allowedCtx)).resolves.toBeTruthy()
      if (c.permission !== 'org.audit.view') expect(await c.observe(allowed, allowedCtx)).not.toEqual(beforeAllowed)
    })
  }

  it("keeps the owner's organization-level role owner-capable ('Role is not allowed')", async () => {
    const owner = await makeUser('owner')
    const org = await prisma.organization.create({ data: { name: `Org ${unique()}`, ownerId: owner.id } })
    const right = await grant(owner.id, org.id, DEFAULT_ROLE_IDS.orgAdmin)
    await expect(
      assignUserRole(owner.actor, { aclId: right.id, organizationId: org.id, userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgViewer }),
    ).rejects.toMatchObject({
      code: 'role-not-allowed',
      message: "Cannot assign 'Organization Viewer' role to the organization owner. An organization owner must have organization update permissions.",
    })
    // Another admin may not touch the owner's role at all.
    const admin = await makeUser('admin')
    await grant(admin.id, org.id, DEFAULT_ROLE_IDS.orgAdmin)
    await expect(
      assignUserRole(admin.actor, { aclId: right.id, organizationId: org.id, userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin }),
    ).rejects.toMatchObject({ status: 403 })
    expect(await rightsOf({ organizationId: org.id } as Fixture, owner.id)).toEqual([{ roleId: DEFAULT_ROLE_IDS.orgAdmin, projectId: null }])
  })
})
