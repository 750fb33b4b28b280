import { describe, expect, it } from 'vitest'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { systemActor, type UserActor } from '~/domain/actor'
import {
  createOrganization,
  deleteOrganization,
  getBilling,
  leaveOrganization,
  listOrganizationsForUser,
  listTransferCandidates,
  requestBilling,
  transferOwnership,
  updateOrganization,
} from '~/domain/organizations/organizations.server'
import { prisma } from '~/utils/db.server'

let run = 0
async function user(label: string, extra: { isAdmin?: boolean } = {}) {
  const n = ++run
  const u = await prisma.user.create({ data: { email: `${label}${n}@org.test`, name: `${label} ${n}`, emailVerified: true, ...extra } })
  const actor: UserActor = { kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: Boolean(extra.isAdmin), ip: '10.0.0.1', userAgent: 'vitest' }
  return { ...u, actor }
}

async function grant(userId: string, organizationId: string, roleId: string, projectId?: string) {
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId, organizationId, roleId, projectId } })
    await compileUserAcls(tx, userId, organizationId)
  })
}

async function orgWithOwner() {
  const owner = await user('owner')
  const { organizationId } = await createOrganization(owner.actor, { name: 'Acme Stages', description: 'LED walls' })
  return { owner, organizationId }
}

describe('createOrganization', () => {
  it('makes the actor the owner with the Organization Admin role, compiled and audited', async () => {
    const { owner, organizationId } = await orgWithOwner()
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })
    expect(org).toMatchObject({ name: 'Acme Stages', description: 'LED walls', ownerId: owner.id, billingStatus: 'disabled' })
    expect(organizationId).toHaveLength(20)
    const rights = await prisma.accessRight.findMany({ where: { organizationId } })
    expect(rights).toEqual([expect.objectContaining({ userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, projectId: null })])
    const access = await getOrganizationAccess(owner.actor, organizationId)
    expect(access.capabilities()).toMatchObject({ canUpdate: true, canTransfer: true, canProjectCreate: true, isCurrentUserOwner: true })
    const audits = await prisma.auditRecord.findMany({ where: { organizationId } })
    expect(audits.map((a) => a.message)).toEqual(["Organization 'Acme Stages' created"])
    expect(audits[0].userId).toBe(owner.id)
  })

  it("refuses a caller without a user ('Not authorized') and an empty name per field", async () => {
    await expect(createOrganization(systemActor('test'), { name: 'X' })).rejects.toMatchObject({ message: 'Not authorized' })
    const u = await user('creator')
    await expect(createOrganization(u.actor, { name: '   ' })).rejects.toMatchObject({
      status: 400,
      issues: [{ path: 'name', message: 'Organization name is required' }],
    })
  })

  it('lets only a site admin name another owner', async () => {
    const u = await user('plain')
    const other = await user('other')
    await expect(createOrganization(u.actor, { name: 'For other' }, other.id)).rejects.toMatchObject({ status: 403 })
    const admin = await user('admin', { isAdmin: true })
    const { organizationId } = await createOrganization(admin.actor, { name: 'For other' }, other.id)
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).ownerId).toBe(other.id)
  })
})

describe('updateOrganization', () => {
  it('changes name and description with org.update and reports per-field errors', async () => {
    const { owner, organizationId } = await orgWithOwner()
    await expect(updateOrganization(owner.actor, organizationId, { name: 'Renamed' })).resolves.toEqual({ updated: ['name'] })
    await updateOrganization(owner.actor, organizationId, { description: 'New text' })
    expect(await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).toMatchObject({ name: 'Renamed', description: 'New text' })
    await expect(updateOrganization(owner.actor, organizationId, { name: '' })).rejects.toMatchObject({ issues: [{ path: 'name', message: 'Organization name is required' }] })
    await expect(updateOrganization(owner.actor, organizationId, { description: 'x'.repeat(1001) })).rejects.toMatchObject({
      issues: [{ path: 'description', message: 'Description must be at most 1000 characters' }],
    })
  })

  it('refuses a member without org.update and an outsider', async () => {
    const { organizationId } = await orgWithOwner()
    const member = await user('member')
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgMember)
    await expect(updateOrganization(member.actor, organizationId, { name: 'Nope' })).rejects.toMatchObject({ status: 403 })
    const outsider = await user('outsider')
    await expect(updateOrganization(outsider.actor, organizationId, { name: 'Nope' })).rejects.toMatchObject({ status: 403 })
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).name).toBe('Acme Stages')
  })
})

describe('deleteOrganization', () => {
  it('deletes all its data, unenrolls its agents and unassigns their systems', async () => {
    const { owner, organizationId } = await orgWithOwner()
    const member = await user('member')
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgMember)
    await prisma.user.update({ where: { id: member.id }, data: { preferenceDefaultOrg: organizationId } })
    const project = await prisma.project.create({ data: { organizationId, name: 'P' } })
    const agent = await prisma.agent.create({ data: { secretHash: 'x', organizationId, enrolledAt: new Date() } })
    const system = await prisma.system.create({ data: { agentId: agent.id, key: 's1', projectId: project.id } })
    await prisma.note.create({ data: { organizationId, resourcePath: '/x', authorId: member.id } })

    await deleteOrganization(owner.actor, organizationId)

    expect(await prisma.organization.findUnique({ where: { id: organizationId } })).toBeNull()
    expect(await prisma.project.count({ where: { organizationId } })).toBe(0)
    expect(await prisma.accessRight.count({ where: { organizationId } })).toBe(0)
    expect(await prisma.compiledAcl.count({ where: { organizationId } })).toBe(0)
    expect(await prisma.note.count({ where: { organizationId } })).toBe(0)
    expect(await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).toMatchObject({ organizationId: null, enrolledAt: null })
    expect((await prisma.system.findUniqueOrThrow({ where: { id: system.id } })).projectId).toBeNull()
    expect((await prisma.user.findUniqueOrThrow({ where: { id: member.id } })).preferenceDefaultOrg).toBeNull()
    const record = await prisma.auditRecord.findFirst({ where: { action: 'organization.delete', userId: owner.id } })
    expect(record?.message).toBe(`Organization 'Acme Stages' (${organizationId}) deleted`)
  })

  it('is refused to a member without org.delete, allowed to one holding it', async () => {
    const { organizationId } = await orgWithOwner()
    const member = await user('member')
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgMember)
    await expect(deleteOrganization(member.actor, organizationId)).rejects.toMatchObject({ status: 403 })
    const admin = await user('orgadmin')
    await grant(admin.id, organizationId, DEFAULT_ROLE_IDS.orgAdmin)
    await deleteOrganization(admin.actor, organizationId)
    expect(await prisma.organization.count({ where: { id: organizationId } })).toBe(0)
  })
})

describe('leaveOrganization', () => {
  it('removes the access rights of a non-owner (recompiled) and refuses the owner', async () => {
    const { owner, organizationId } = await orgWithOwner()
    const project = await prisma.project.create({ data: { organizationId, name: 'P' } })
    const member = await user('member')
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgViewer)
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.projectManager, project.id)

    await expect(leaveOrganization(owner.actor, organizationId)).rejects.toMatchObject({ status: 400 })
    await leaveOrganization(member.actor, organizationId)

    expect(await prisma.accessRight.count({ where: { organizationId, userId: member.id } })).toBe(0)
    expect(await prisma.compiledAcl.count({ where: { organizationId, userId: member.id } })).toBe(0)
    await expect(getOrganizationAccess(member.actor, organizationId)).rejects.toMatchObject({ status: 403 })
    expect(await prisma.auditRecord.count({ where: { organizationId, action: 'member.leave', userId: member.id } })).toBe(1)
  })
})

describe('transferOwnership', () => {
  it('offers members holding org.transfer (not the current user) and moves the ownership', async () => {
    const { owner, organizationId } = await orgWithOwner()
    const admin = await user('admin')
    const member = await user('member')
    await grant(admin.id, organizationId, DEFAULT_ROLE_IDS.orgAdmin)
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgMember)

    const candidates = await listTransferCandidates(owner.actor, organizationId)
    expect(candidates.map((c) => c.id)).toEqual([admin.id])
    await expect(transferOwnership(owner.actor, organizationId, '')).rejects.toMatchObject({ message: 'Please select a new owner' })
    await expect(transferOwnership(owner.actor, organizationId, member.id)).rejects.toMatchObject({ status: 400 })

    await transferOwnership(owner.actor, organizationId, admin.id)
    expect((await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).ownerId).toBe(admin.id)
    const formerOwner = await getOrganizationAccess(owner.actor, organizationId)
    expect(formerOwner.capabilities()).toMatchObject({ isCurrentUserOwner: false, canTransfer: false })
    // The new owner now sees the former owner (still an admin) as a candidate.
    expect((await listTransferCandidates(admin.actor, organizationId)).map((c) => c.id)).toEqual([owner.id])
  })

  it('is refused to a non-owner even with org.transfer, and gives an owner-capable role when missing', async () => {
    const { owner, organizationId } = await orgWithOwner()
    const admin = await user('admin')
    await grant(admin.id, organizationId, DEFAULT_ROLE_IDS.orgAdmin)
    await expect(transferOwnership(admin.actor, organizationId, owner.id)).rejects.toMatchObject({ status: 403 })
    expect(await listTransferCandidates(admin.actor, organizationId)).toEqual([])

    // A custom role holding only org.view + org.transfer makes its holder a candidate lacking the owner rule.
    const role = await prisma.role.create({
      data: { name: 'Transfer only', organizationId, orgRef: organizationId, resourceType: 1, permissions: JSON.stringify(['org.view', 'org.transfer']) },
    })
    const heir = await user('heir')
    await grant(heir.id, organizationId, role.id)
    await transferOwnership(owner.actor, organizationId, heir.id)
    const roles = await prisma.accessRight.findMany({ where: { organizationId, userId: heir.id }, select: { roleId: true } })
    expect(roles.map((r) => r.roleId).sort()).toEqual([DEFAULT_ROLE_IDS.orgAdmin, role.id].sort())
    expect((await getOrganizationAccess(heir.actor, organizationId)).capabilities()).toMatchObject({ isCurrentUserOwner: true, canTransfer: true, canUpdate: true })
  })
})

describe('billing', () => {
  it("moves 'disabled' to 'requested' once, with org.billing.view", async () => {
    const { owner, organizationId } = await orgWithOwner()
    await expect(requestBilling(owner.actor, '')).rejects.toMatchObject({ message: 'Organization is required' })
    const member = await user('member')
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgMember)
    await expect(requestBilling(member.actor, organizationId)).rejects.toMatchObject({ status: 403 })
    await expect(getBilling(member.actor, organizationId)).rejects.toMatchObject({ status: 403 })

    expect(await getBilling(owner.actor, organizationId)).toMatchObject({ billingStatus: 'disabled', billingPeriod: 'monthly', canRequest: true })
    await expect(requestBilling(owner.actor, organizationId)).resolves.toEqual({ billingStatus: 'requested' })
    expect(await getBilling(owner.actor, organizationId)).toMatchObject({ billingStatus: 'requested', canRequest: false })
    await expect(requestBilling(owner.actor, organizationId)).rejects.toMatchObject({ status: 400 })
  })
})

describe('listOrganizationsForUser', () => {
  it('lists only the user organizations with counts and the default flag', async () => {
    const { owner, organizationId } = await orgWithOwner()
    const { organizationId: otherOrg } = await orgWithOwner()
    const member = await user('member')
    await grant(member.id, organizationId, DEFAULT_ROLE_IDS.orgViewer)
    const p = await prisma.project.create({ data: { organizationId, name: 'P' } })
    await prisma.project.create({ data: { organizationId, name: 'Child', parentId: p.id } })
    await prisma.agent.create({ data: { secretHash: 'x', organizationId } })
    await prisma.user.update({ where: { id: owner.id }, data: { preferenceDefaultOrg: organizationId } })

    const list = await listOrganizationsForUser(owner.actor)
    expect(list.map((o) => o.id)).toEqual([organizationId])
    expect(list[0]).toMatchObject({ name: 'Acme Stages', isDefault: true, projectCount: 2, agentCount: 1, memberCount: 2, linkTo: `/organization/${organizationId}` })
    expect(list[0].capabilities.isCurrentUserOwner).toBe(true)
    expect((await listOrganizationsForUser(member.actor))[0]).toMatchObject({ isDefault: false, isOwner: false })
    expect(list.some((o) => o.id === otherOrg)).toBe(false)
    expect(await listOrganizationsForUser((await user('lonely')).actor)).toEqual([])
  })
})
