import { describe, expect, it } from 'vitest'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS, permissionsForScope, Scope } from '~/domain/access/catalogue'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'


let run = 0
async function fixture() {
  const n = ++run
  const owner = await prisma.user.create({ data: { email: `owner${n}@a.test`, name: 'Owner', emailVerified: true } })
  const manager = await prisma.user.create({ data: { email: `manager${n}@a.test`, name: 'Manager', emailVerified: true } })
  const outsider = await prisma.user.create({ data: { email: `outsider${n}@b.test`, name: 'Outsider', emailVerified: true } })
  const org = await prisma.organization.create({ data: { name: 'A', ownerId: owner.id } })
  const parent = await prisma.project.create({ data: { organizationId: org.id, name: 'Parent' } })
  const child = await prisma.project.create({ data: { organizationId: org.id, name: 'Child', parentId: parent.id } })
  const sibling = await prisma.project.create({ data: { organizationId: org.id, name: 'Sibling' } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await tx.accessRight.create({ data: { userId: manager.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: org.id, projectId: parent.id } })
    await compileUserAcls(tx, owner.id)
    await compileUserAcls(tx, manager.id)
  })
  return { owner, manager, outsider, org, parent, child, sibling }
}

describe('permission engine', () => {
  it('inherits project permissions down the parent chain but not sideways', async () => {
    const f = await fixture()
    const access = await getOrganizationAccess(actorFor(f.manager), f.org.id)
    expect(access.can('project.update', f.parent.id)).toBe(true)
    expect(access.can('project.update', f.child.id)).toBe(true)
    expect(access.can('project.update', f.sibling.id)).toBe(false)
    expect(access.can('org.update')).toBe(false)
    expect(access.capabilities().isCurrentUserOwner).toBe(false)
  })

  it('gives the owner organization-wide rights and refuses outsiders without revealing the organization', async () => {
    const f = await fixture()
    const ownerAccess = await getOrganizationAccess(actorFor(f.owner), f.org.id)
    expect(ownerAccess.capabilities()).toMatchObject({ canUpdate: true, canTransfer: true, isCurrentUserOwner: true })
    expect(ownerAccess.can('project.delete', f.child.id)).toBe(true)
    await expect(getOrganizationAccess(actorFor(f.outsider), f.org.id)).rejects.toMatchObject({ status: 403 })
    await expect(getOrganizationAccess(actorFor(f.outsider), 'no-such-organizatio')).rejects.toMatchObject({ status: 403 })
  })

  it('offers a role only permissions at or below its scope', () => {
    expect(permissionsForScope(Scope.Project)).toContain('project.view')
    expect(permissionsForScope(Scope.Project)).not.toContain('org.update')
    expect(permissionsForScope(Scope.Organization)).toContain('project.view')
    expect(permissionsForScope(Scope.Organization)).not.toContain('cloud.admin')
  })
})
