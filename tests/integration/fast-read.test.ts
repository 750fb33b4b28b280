/**
 * The per-request lookups read through prepared statements on SQLite (app/utils/fast-read.server.ts):
 * they must answer exactly what the Prisma queries they replace answer (same types: dates,
 * booleans, nulls), and read fresh on every request: a session ended, a member removed, a role's
 * permission removed, an organization or project renamed or moved shows on the next request.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type OrganizationAccess, getOrganizationAccess } from '~/domain/access/access.server'
import { compileRoleHolders, compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS, Scope } from '~/domain/access/catalogue'
import { findSessionWithUser } from '~/domain/auth/session-lookup.server'
import { createSession, endSessionsOf, resolveToken, revokeSession } from '~/domain/auth/session.server'
import { sha256 } from '~/domain/auth/crypto.server'
import { listMemberOrganizations } from '~/domain/organizations/membership.server'
import { getCurrentUser } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

let orgId: string
let ownerId: string
let carolId: string
let carolToken: string
let parentId: string
let childId: string
let roleId: string
const get = (token: string) => new Request('http://portal.test/organization', { headers: { authorization: `Bearer ${token}` } })
/** A fresh request's actor (what the next page view sees). */
const actorOf = async (token: string) => (await getCurrentUser(get(token)))?.actor ?? null
/** The same access through Prisma (inside a transaction the fast path is not taken). */
const prismaAccess = (actor: NonNullable<Awaited<ReturnType<typeof actorOf>>>) => prisma.$transaction((tx) => getOrganizationAccess(actor, orgId, tx))
const summary = (access: OrganizationAccess, projectIds: string[]) => ({
  organization: access.organization,
  isMember: access.isMember,
  isOwner: access.isOwner,
  isCloudAdmin: access.isCloudAdmin,
  capabilities: access.capabilities(),
  projects: projectIds.map((id) => ({ id, has: access.hasProject(id), chain: access.projectChain(id), caps: access.projectCapabilities(id) })),
})

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@fast-read.test', name: 'Owner' } })
  ownerId = owner.id
  // every kind of column set: dates, booleans, nullable text
  const carol = await prisma.user.create({
    data: { email: 'carol@fast-read.test', name: 'Carol', emailVerified: true, isAdmin: false, preferenceSidebarCollapsed: true, lastSignInAt: new Date('2026-01-02T03:04:05.678Z'), timeZone: 'Europe/Berlin' },
  })
  carolId = carol.id
  orgId = (await prisma.organization.create({ data: { name: 'Fast Org', ownerId } })).id
  await prisma.organization.create({ data: { name: 'Another Org', ownerId: carolId } })
  parentId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Parent' } })).id
  childId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Child', parentId } })).id
  roleId = (await prisma.role.create({ data: { name: 'Fast viewer', organizationId: orgId, resourceType: Scope.Project, permissions: JSON.stringify(['project.view', 'project.update']) } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: carolId, roleId: DEFAULT_ROLE_IDS.orgViewer, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: carolId, roleId, organizationId: orgId, projectId: parentId } })
    await compileUserAcls(tx, carolId)
  })
  carolToken = (await createSession(carolId, { ip: '10.0.0.1', userAgent: 'vitest' })).token
})

describe('fast reads answer what Prisma answers', () => {
  it('session with its user: same fields, same types', async () => {
    const tokenHash = sha256(carolToken)
    const fast = await findSessionWithUser(tokenHash)
    const slow = await prisma.session.findUnique({ where: { tokenHash }, include: { user: true } })
    expect(fast).toEqual(slow)
    expect(fast!.user.lastSignInAt).toBeInstanceOf(Date)
    expect(fast!.user.preferenceSidebarCollapsed).toBe(true)
    expect(fast!.user.photoUrl).toBeNull()
    expect(await findSessionWithUser(sha256('no such token'))).toBeNull()
  })

  it('organization access and the member organization list', async () => {
    const actor = (await actorOf(carolToken))!
    const fast = await getOrganizationAccess(actor, orgId)
    expect(summary(fast, [parentId, childId])).toEqual(summary(await prismaAccess(actor), [parentId, childId]))
    expect(fast.can('project.update', childId)).toBe(true)
    expect(fast.can('project.update')).toBe(false)
    expect(await listMemberOrganizations(actor)).toEqual([
      { id: expect.any(String), name: 'Another Org' },
      { id: orgId, name: 'Fast Org' },
    ])
  })
})

describe('every request reads fresh', () => {
  it('a renamed organization, a renamed or moved project', async () => {
    await prisma.organization.update({ where: { id: orgId }, data: { name: 'Fast Org 2' } })
    await prisma.project.update({ where: { id: childId }, data: { parentId: null } })
    const access = await getOrganizationAccess((await actorOf(carolToken))!, orgId)
    expect(access.organization.name).toBe('Fast Org 2')
    expect(access.projectChain(childId)).toEqual([childId])
    // the project role on Parent no longer reaches Child
    expect(access.can('project.update', childId)).toBe(false)
    expect((await listMemberOrganizations((await actorOf(carolToken))!)).map((o) => o.name)).toContain('Fast Org 2')
    await prisma.project.update({ where: { id: childId }, data: { parentId } })
  })

  it("a permission removed from a role", async () => {
    expect((await getOrganizationAccess((await actorOf(carolToken))!, orgId)).can('project.update', parentId)).toBe(true)
    await prisma.$transaction(async (tx) => {
      await tx.role.update({ where: { id: roleId }, data: { permissions: JSON.stringify(['project.view']) } })
      await compileRoleHolders(tx, roleId)
    })
    expect((await getOrganizationAccess((await actorOf(carolToken))!, orgId)).can('project.update', parentId)).toBe(false)
  })

  it('a member removed', async () => {
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.deleteMany({ where: { userId: carolId, organizationId: orgId } })
      await compileUserAcls(tx, carolId, orgId)
    })
    const actor = (await actorOf(carolToken))!
    await expect(getOrganizationAccess(actor, orgId)).rejects.toMatchObject({ status: 403 })
    expect((await listMemberOrganizations(actor)).map((o) => o.id)).not.toContain(orgId)
  })

  it('a session ended by a disable, or signed out', async () => {
    await endSessionsOf(carolId, 'disabled')
    await prisma.user.update({ where: { id: carolId }, data: { disabled: true } })
    expect((await resolveToken(carolToken)).status).toBe('disabled')
    await prisma.user.update({ where: { id: carolId }, data: { disabled: false } })
    await prisma.session.updateMany({ where: { userId: carolId }, data: { endedReason: null } })
    expect(await actorOf(carolToken)).not.toBeNull()
    await revokeSession(carolToken)
    expect(await actorOf(carolToken)).toBeNull()
  })
})
