import { describe, expect, it } from 'vitest'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS, Scope } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { acceptInvite, createOrganizationInvite, listMyInvites, listSentInvites, revokeOrganizationInvite } from '~/domain/invites/invites.server'
import { addOrganizationMember, listMembers, unassignUserRole } from '~/domain/members/members.server'
import { checkUserRoles, createRole, deleteRole, updateRole } from '~/domain/roles/roles.server'
import { prisma } from '~/utils/db.server'

let n = 0
async function user(label: string, isAdmin = false) {
  const u = await prisma.user.create({ data: { email: `${label}-${++n}@rules.test`, name: `${label} ${n}`, emailVerified: true, isAdmin } })
  const actor: UserActor = { kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: isAdmin, ip: '10.2.2.2', userAgent: 'vitest' }
  return { ...u, actor }
}
async function grant(userId: string, organizationId: string, roleId: string, projectId: string | null = null) {
  return prisma.$transaction(async (tx) => {
    const right = await tx.accessRight.create({ data: { userId, organizationId, roleId, projectId } })
    await compileUserAcls(tx, userId, organizationId)
    return right
  })
}
async function organization() {
  const owner = await user('owner')
  const org = await prisma.organization.create({ data: { name: `Rules ${n}`, ownerId: owner.id } })
  const ownerRight = await grant(owner.id, org.id, DEFAULT_ROLE_IDS.orgAdmin)
  const stage = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
  return { owner, org, ownerRight, stage }
}

describe('members', () => {
  it("lists members with tags, scope names and the role choices the owner rule allows", async () => {
    const f = await organization()
    const member = await user('member')
    await addOrganizationMember(f.owner.actor, f.org.id, { email: member.email.toUpperCase(), roleId: DEFAULT_ROLE_IDS.orgViewer })
    await grant(member.id, f.org.id, DEFAULT_ROLE_IDS.projectViewer, f.stage.id)
    const { members } = await listMembers(f.owner.actor, f.org.id)
    const owner = members.find((m) => m.id === f.owner.id)!
    expect(owner).toMatchObject({ isOwner: true, isYou: true, canRemove: false })
    // The owner may be given organization-level roles only (no Global Cloud Admin), sorted by name.
    expect(owner.accessRights[0]!.roleChoices.map((r) => r.name)).toEqual(['Organization Admin', 'Organization Member', 'Organization Viewer'])
    expect(owner.accessRights[0]!.canRemove).toBe(false)
    const added = members.find((m) => m.id === member.id)!
    expect(added).toMatchObject({ isOwner: false, isYou: false, canRemove: true, lastSeen: null })
    expect(added.accessRights.map((r) => r.scopeName)).toEqual(['Organization', 'Stage'])
    expect(added.accessRights[1]!.roleChoices.map((r) => r.name)).toEqual(['Project Manager', 'Project Viewer'])
  })

  it("validates Add Member input with the spec's messages and reports unknown e-mails", async () => {
    const f = await organization()
    await expect(addOrganizationMember(f.owner.actor, f.org.id, { email: '', roleId: DEFAULT_ROLE_IDS.orgViewer })).rejects.toMatchObject({
      issues: [{ path: 'email', message: 'Incorrect email address format' }],
    })
    await expect(addOrganizationMember(f.owner.actor, f.org.id, { email: 'a@b.test', roleId: '' })).rejects.toMatchObject({
      issues: [{ path: 'roleId', message: 'Missing user role' }],
    })
    await expect(addOrganizationMember(f.owner.actor, f.org.id, { email: 'nobody@rules.test', roleId: DEFAULT_ROLE_IDS.orgViewer })).rejects.toMatchObject({
      code: 'auth/user-not-found',
    })
  })

  it('removes a right only while another remains, and never the owner’s organization-level right', async () => {
    const f = await organization()
    const member = await user('member')
    const orgRight = await grant(member.id, f.org.id, DEFAULT_ROLE_IDS.orgViewer)
    await expect(unassignUserRole(f.owner.actor, { aclId: orgRight.id, organizationId: f.org.id })).rejects.toMatchObject({ status: 400 })
    const projectRight = await grant(member.id, f.org.id, DEFAULT_ROLE_IDS.projectViewer, f.stage.id)
    await unassignUserRole(f.owner.actor, { aclId: orgRight.id, organizationId: f.org.id })
    expect(await prisma.accessRight.findMany({ where: { userId: member.id }, select: { id: true } })).toEqual([{ id: projectRight.id }])
    await expect(unassignUserRole(f.owner.actor, { aclId: f.ownerRight.id, organizationId: f.org.id })).rejects.toMatchObject({ status: 400 })
  })
})

describe('invites', () => {
  it('accepting grants the invited organization role and project roles, only to the recipient', async () => {
    const f = await organization()
    const recipient = `guest-${++n}@rules.test`
    const { inviteId } = await createOrganizationInvite(f.owner.actor, {
      organizationId: f.org.id,
      recipient,
      roleId: DEFAULT_ROLE_IDS.orgViewer,
      projects: [f.stage.id],
      projectRoleId: DEFAULT_ROLE_IDS.projectManager,
    })
    const mail = await prisma.outboxEmail.findFirstOrThrow({ where: { to: recipient } })
    const code = mail.text.match(new RegExp(`/invite/${inviteId}/(\\S+)`))![1]!
    expect((await prisma.invite.findUniqueOrThrow({ where: { id: inviteId } })).codeHash).not.toContain(code)

    const someoneElse = await user('someone')
    await expect(acceptInvite(someoneElse.actor, { inviteId, code })).rejects.toMatchObject({ code: 'mvr-auth/mismatchemail' })

    const guest = await prisma.user.create({ data: { email: recipient, name: 'Guest', emailVerified: true } })
    const guestActor: UserActor = { ...someoneElse.actor, userId: guest.id, email: guest.email, name: guest.name }
    expect((await listMyInvites(guestActor)).invites.map((i) => i.id)).toEqual([inviteId])
    await expect(acceptInvite(guestActor, { inviteId, code: 'wrong' })).rejects.toMatchObject({ status: 404 })
    await acceptInvite(guestActor, { inviteId, code })

    const access = await getOrganizationAccess(guestActor, f.org.id)
    expect(access.can('org.view')).toBe(true)
    expect(access.can('org.user.add')).toBe(false)
    expect(access.can('project.update', f.stage.id)).toBe(true)
    expect((await prisma.invite.findUniqueOrThrow({ where: { id: inviteId } })).status).toBe('accepted')
    await expect(acceptInvite(guestActor, { inviteId, code })).rejects.toMatchObject({ status: 410 })
  })
})

describe('sent invites (user settings, Invites)', () => {
  it("lists only the user's own pending invites, with Resend/Revoke only while the user holds the invite right", async () => {
    const f = await organization()
    const colleague = await user('colleague')
    const colleagueRight = await grant(colleague.id, f.org.id, DEFAULT_ROLE_IDS.orgAdmin)
    const mine = await createOrganizationInvite(f.owner.actor, { organizationId: f.org.id, recipient: `mine-${++n}@rules.test`, roleId: DEFAULT_ROLE_IDS.orgViewer })
    const theirs = await createOrganizationInvite(colleague.actor, { organizationId: f.org.id, recipient: `theirs-${++n}@rules.test`, roleId: DEFAULT_ROLE_IDS.orgViewer })

    const ownerSent = (await listSentInvites(f.owner.actor)).invites
    expect(ownerSent.map((i) => [i.id, i.organizationName, i.roleName, i.canManage])).toEqual([[mine.inviteId, f.org.name, 'Organization Viewer', true]])
    expect((await listSentInvites(colleague.actor)).invites.map((i) => i.id)).toEqual([theirs.inviteId])

    // Demoted to viewer, the colleague still sees the invite but may no longer manage it; the domain refuses too.
    await prisma.accessRight.delete({ where: { id: colleagueRight.id } })
    await grant(colleague.id, f.org.id, DEFAULT_ROLE_IDS.orgViewer)
    expect((await listSentInvites(colleague.actor)).invites.map((i) => i.canManage)).toEqual([false])
    await expect(revokeOrganizationInvite(colleague.actor, theirs.inviteId)).rejects.toMatchObject({ status: 403 })

    // A revoked invite leaves the list.
    await revokeOrganizationInvite(f.owner.actor, mine.inviteId)
    expect((await listSentInvites(f.owner.actor)).invites).toEqual([])
  })
})

describe('roles', () => {
  it('drops permissions invalid for the scope, reports name clashes per field and keeps Global for admins', async () => {
    const f = await organization()
    const { role } = await createRole(f.owner.actor, {
      organizationId: f.org.id,
      name: 'Stage Crew',
      resourceType: Scope.Project,
      permissions: ['org.update', 'project.view', 'agent.list'],
    })
    expect(role.permissions).toEqual(['project.view', 'agent.list'])
    await expect(createRole(f.owner.actor, { organizationId: f.org.id, name: 'stage crew', resourceType: Scope.Project })).rejects.toMatchObject({
      issues: [{ path: 'name', message: 'A role with this name already exists' }],
    })
    await expect(createRole(f.owner.actor, { organizationId: f.org.id, name: 'Staff', resourceType: Scope.Global })).rejects.toMatchObject({
      issues: [{ path: 'resourceType' }],
    })
    await expect(createRole(f.owner.actor, { organizationId: '', name: 'Everywhere', resourceType: Scope.Organization })).rejects.toMatchObject({ status: 403 })
    const admin = await user('admin', true)
    const global = await createRole(admin.actor, { organizationId: f.org.id, name: 'Staff', resourceType: Scope.Global, permissions: ['cloud.admin', 'org.view'] })
    expect(global.role).toMatchObject({ organizationId: '', resourceType: Scope.Global, permissions: ['cloud.admin', 'org.view'] })
  })

  it('locks the scope of a role in use, recompiles its holders on save and refuses to delete it', async () => {
    const f = await organization()
    const { id } = await createRole(f.owner.actor, { organizationId: f.org.id, name: 'Auditor', resourceType: Scope.Organization, permissions: ['org.view'] })
    const holder = await user('holder')
    await grant(holder.id, f.org.id, id)
    await expect(updateRole(f.owner.actor, { id, doc: { resourceType: Scope.Project } })).rejects.toMatchObject({
      issues: [{ path: 'resourceType', message: 'This role is in use' }],
    })
    await updateRole(f.owner.actor, { id, doc: { permissions: ['org.view', 'org.audit.view'] } })
    expect((await getOrganizationAccess(holder.actor, f.org.id)).can('org.audit.view')).toBe(true)
    await expect(deleteRole(f.owner.actor, { id, organizationId: f.org.id })).rejects.toMatchObject({ message: 'This role is in use' })
    await expect(deleteRole(f.owner.actor, { id: DEFAULT_ROLE_IDS.orgViewer, organizationId: '' })).rejects.toMatchObject({ status: 403 })
  })

  it("'Check user roles' gives an owner without an organization-level admin right the admin role", async () => {
    const owner = await user('orphan-owner')
    const org = await prisma.organization.create({ data: { name: 'Orphan', ownerId: owner.id } })
    await expect(checkUserRoles(owner.actor)).rejects.toMatchObject({ status: 403 })
    const admin = await user('admin', true)
    const report = await checkUserRoles(admin.actor)
    expect(report.repairs.some((r) => r.includes(owner.email))).toBe(true)
    expect((await getOrganizationAccess(owner.actor, org.id)).can('org.update')).toBe(true)
  })
})

describe('activity', () => {
  it('pages the audit log newest first by cursor without gaps or repeats', async () => {
    const f = await organization()
    const base = Date.now() - 100_000
    await prisma.auditRecord.createMany({
      data: Array.from({ length: 25 }, (_, i) => ({
        organizationId: f.org.id,
        userName: 'tester',
        action: 'test',
        message: `event ${i}`,
        createdAt: new Date(base + Math.floor(i / 2) * 1000), // pairs share a timestamp
      })),
    })
    const first = await listAuditRecords(f.owner.actor, { organizationId: f.org.id })
    expect(first.records).toHaveLength(20)
    expect(first.nextCursor).not.toBeNull()
    const second = await listAuditRecords(f.owner.actor, { organizationId: f.org.id, cursor: first.nextCursor })
    expect(second.nextCursor).toBeNull()
    const all = [...first.records, ...second.records]
    expect(new Set(all.map((r) => r.id)).size).toBe(25)
    expect(all[0]!.message).toMatch(/event 2[34]/)
    const times = all.map((r) => Date.parse(r.created))
    expect([...times].sort((a, b) => b - a)).toEqual(times)
  })
})
