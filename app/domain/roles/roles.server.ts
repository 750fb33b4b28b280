import { z } from 'zod'
import { LARGE_TRANSACTION } from '../large-transaction'
import { type Actor } from '../actor'
import { adminStatus, getOrganizationAccess, requireOrganizationPermission } from '../access/access.server'
import { compileAllAcls, compileRoleHolders, compileUserAcls, validateUserAcls } from '../access/acl.server'
import { DEFAULT_ROLE_IDS, OWNER_REQUIRED_PERMISSIONS, permissionsForScope, ROLE_SCOPES, Scope } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { DomainError, accessDenied, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { prisma, type Tx } from '~/utils/db.server'
import { byName, toRoleRecord, type RoleRecord } from './role-rules.server'

type Db = Tx | typeof prisma

/** Site admins (admin claim) and cloud admins (cloud.admin) manage global roles and ACL repairs. */
async function requireRoleAdmin(actor: Actor, db: Db = prisma) {
  const status = await adminStatus(actor, db)
  if (actor.kind === 'system') return { isSiteAdmin: true, isCloudAdmin: true }
  if (!status.isSiteAdmin && !status.isCloudAdmin) throw accessDenied()
  return status
}

/**
 * Who may edit roles owned by `organizationId`: global roles ('') only site or cloud admins;
 * an organization's roles whoever holds org.user.editRoles there (site admins pass the check too).
 */
async function requireRoleEditor(tx: Tx, actor: Actor, organizationId: string) {
  if (organizationId === '') return requireRoleAdmin(actor, tx)
  const access = await requireOrganizationPermission(actor, organizationId, 'org.user.editRoles', null, tx)
  return { isSiteAdmin: access.isSiteAdmin, isCloudAdmin: access.isCloudAdmin }
}

/** A role is in use while someone holds it or an active invite would give it. */
async function rolesInUse(db: Db, roleIds: string[]): Promise<Set<string>> {
  const [rights, invites] = await Promise.all([
    db.accessRight.findMany({ where: { roleId: { in: roleIds } }, select: { roleId: true }, distinct: ['roleId'] }),
    db.invite.findMany({ where: { status: 'active', OR: [{ roleId: { in: roleIds } }, { projectRoleId: { in: roleIds } }] }, select: { roleId: true, projectRoleId: true } }),
  ])
  return new Set([...rights.map((r) => r.roleId), ...invites.flatMap((i) => [i.roleId, i.projectRoleId ?? ''])])
}

/**
 * Assignable-by choices for a role of `scope` owned by `organizationId`: roles of equal or
 * narrower scope in the same organization or global. A cloud admin who is not a site admin gets none.
 */
function assignableByChoices(candidates: RoleRecord[], scope: number, organizationId: string, admin: { isSiteAdmin: boolean; isCloudAdmin: boolean }) {
  if (admin.isCloudAdmin && !admin.isSiteAdmin) return []
  return candidates.filter((r) => r.resourceType >= scope && (r.organizationId === '' || r.organizationId === organizationId))
}

export type RoleView = RoleRecord & { inUse: boolean; editable: boolean; deletable: boolean }

/**
 * Roles tab (organizationId given: the organization's roles plus the global ones) or the admin
 * Roles page (organizationId '': global roles only, for site and cloud admins).
 */
export async function listRoles(actor: Actor, organizationId: string) {
  let canEditOrganizationRoles = false
  let admin: { isSiteAdmin: boolean; isCloudAdmin: boolean }
  if (organizationId === '') {
    admin = await requireRoleAdmin(actor)
  } else {
    const access = await getOrganizationAccess(actor, organizationId)
    canEditOrganizationRoles = access.can('org.user.editRoles')
    admin = { isSiteAdmin: access.isSiteAdmin, isCloudAdmin: access.isCloudAdmin }
  }
  const isAdmin = admin.isSiteAdmin || admin.isCloudAdmin
  const rows = await prisma.role.findMany({ where: { organizationId: { in: organizationId ? [organizationId, ''] : [''] } } })
  const records = rows.map(toRoleRecord).sort(byName)
  const inUse = await rolesInUse(prisma, records.map((r) => r.id))
  const roles: RoleView[] = records.map((r) => {
    const editable = r.organizationId === '' ? isAdmin : canEditOrganizationRoles
    return { ...r, inUse: inUse.has(r.id), editable, deletable: editable && r.organizationId !== '' && !inUse.has(r.id) }
  })
  return {
    roles,
    organizationId,
    canCreate: organizationId === '' ? isAdmin : canEditOrganizationRoles || isAdmin,
    isAdmin,
    /** Global scope only for site or cloud admins. */
    scopes: ROLE_SCOPES.filter((s) => s !== Scope.Global || isAdmin),
    /** Candidates for assignable-by; the form narrows them to the edited role's scope. */
    assignableByCandidates: assignableByChoices(records, Scope.Global, organizationId, admin).map((r) => ({
      id: r.id,
      name: r.name,
      resourceType: r.resourceType,
      organizationId: r.organizationId,
    })),
  }
}

const roleDoc = z.object({
  name: z.string({ required_error: 'Name is required' }).trim().min(1, 'Name is required').max(80, 'Name must be at most 80 characters'),
  description: z.string().trim().max(500, 'Description must be at most 500 characters').default(''),
  resourceType: z.coerce
    .number({ invalid_type_error: 'Select a scope' })
    .refine((v) => (ROLE_SCOPES as readonly number[]).includes(v), 'Select a scope'),
  permissions: z.array(z.string()).max(200).default([]),
  assignableBy: z.array(z.string()).max(100).default([]),
})

export const createRoleInput = roleDoc.extend({ organizationId: z.string().default('') })
export const updateRoleInput = z.object({ id: z.string().min(1), doc: roleDoc.partial() })
export const deleteRoleInput = z.object({ id: z.string().min(1), organizationId: z.string() })

/**
 * Shared by create and update: Global scope moves the role to all organizations (admins only),
 * permissions invalid for the scope are dropped, assignable-by must come from the offered choices,
 * names are unique per owner.
 */
async function normalizeRoleDoc(
  tx: Tx,
  doc: z.output<typeof roleDoc>,
  organizationId: string,
  admin: { isSiteAdmin: boolean; isCloudAdmin: boolean },
  existing: RoleRecord | null,
) {
  const isAdmin = admin.isSiteAdmin || admin.isCloudAdmin
  if (doc.resourceType === Scope.Global && !isAdmin) {
    throw new DomainError('invalid-argument', 'Only site administrators may create global roles', 400, [{ path: 'resourceType', message: 'Only site administrators may create global roles' }])
  }
  const owner = doc.resourceType === Scope.Global ? '' : organizationId
  const offered = new Set<string>(permissionsForScope(doc.resourceType))
  const permissions = [...new Set(doc.permissions.filter((p) => offered.has(p)))]
  const candidates = (await tx.role.findMany({ where: { organizationId: { in: [owner, ''] } } })).map(toRoleRecord)
  const choices = new Set(assignableByChoices(candidates, doc.resourceType, owner, admin).map((r) => r.id))
  if (existing) choices.add(existing.id)
  let assignableBy = [...new Set(doc.assignableBy)]
  if (admin.isCloudAdmin && !admin.isSiteAdmin) assignableBy = existing?.assignableBy ?? []
  else if (assignableBy.some((id) => !choices.has(id))) {
    throw new DomainError('invalid-argument', 'Assignable by lists a role that is not offered for this scope', 400, [{ path: 'assignableBy', message: 'Choose roles of equal or narrower scope' }])
  }
  const clash = candidates.find((r) => r.organizationId === owner && r.id !== existing?.id && r.name.toLowerCase() === doc.name.toLowerCase())
  if (clash) throw new DomainError('invalid-argument', 'A role with this name already exists', 400, [{ path: 'name', message: 'A role with this name already exists' }])
  return {
    name: doc.name,
    description: doc.description,
    organizationId: owner,
    orgRef: owner || null,
    resourceType: doc.resourceType,
    permissions: JSON.stringify(permissions),
    assignableBy: JSON.stringify(assignableBy),
  }
}

export async function createRole(actor: Actor, raw: z.input<typeof createRoleInput>) {
  const { organizationId, ...doc } = parseInput(createRoleInput, raw)
  const role = await prisma.$transaction(async (tx) => {
    const admin = await requireRoleEditor(tx, actor, organizationId)
    const data = await normalizeRoleDoc(tx, doc, organizationId, admin, null)
    const created = await tx.role.create({ data })
    await audit(tx, actor, { organizationId: created.organizationId || null, action: 'role.create', message: `Created role ${created.name}` })
    return created
  })
  emitChange({ organizationId: role.organizationId || null, kind: 'role', ids: [role.id] })
  return { id: role.id, role: toRoleRecord(role) }
}

/** Edits a role; while it is in use its scope is locked. Holders are recompiled in the same transaction. */
export async function updateRole(actor: Actor, raw: z.input<typeof updateRoleInput>) {
  const { id, doc } = parseInput(updateRoleInput, raw)
  const role = await prisma.$transaction(async (tx) => {
    const row = await tx.role.findUnique({ where: { id } })
    // Editors of other organizations get a 403 before learning whether the role exists.
    const admin = await requireRoleEditor(tx, actor, row?.organizationId ?? '')
    if (!row) throw notFound('Role not found')
    const existing = toRoleRecord(row)
    const merged = { ...existing, ...doc }
    if (merged.resourceType !== existing.resourceType && (await rolesInUse(tx, [id])).has(id)) {
      throw new DomainError('failed-precondition', 'This role is in use', 400, [{ path: 'resourceType', message: 'This role is in use' }])
    }
    const data = await normalizeRoleDoc(tx, merged, existing.organizationId, admin, existing)
    const updated = await tx.role.update({ where: { id }, data })
    await compileRoleHolders(tx, id)
    await audit(tx, actor, { organizationId: updated.organizationId || null, action: 'role.update', message: `Updated role ${updated.name}` })
    return updated
  })
  emitChange({ organizationId: role.organizationId || null, kind: 'role', ids: [role.id] })
  return { id, role: toRoleRecord(role) }
}

/** Deletes an organization's own role that nobody holds. Global roles are never deleted. */
export async function deleteRole(actor: Actor, raw: z.input<typeof deleteRoleInput>) {
  const { id, organizationId } = parseInput(deleteRoleInput, raw)
  await prisma.$transaction(async (tx) => {
    await requireRoleEditor(tx, actor, organizationId)
    const row = await tx.role.findUnique({ where: { id } })
    if (!row || row.organizationId !== organizationId) throw notFound('Role not found')
    if (row.organizationId === '') throw new DomainError('failed-precondition', 'Global roles cannot be deleted', 400)
    if ((await rolesInUse(tx, [id])).has(id)) throw new DomainError('failed-precondition', 'This role is in use', 400)
    await tx.role.delete({ where: { id } })
    await audit(tx, actor, { organizationId, action: 'role.delete', message: `Deleted role ${row.name}` })
  })
  emitChange({ organizationId, kind: 'role', ids: [id] })
  return { id }
}

export const queryUserRolesInput = z.object({ organizationId: z.string(), roleId: z.string().min(1) })

/** Who holds a role (in one organization, or everywhere for admins with organizationId ''). */
export async function queryUserRoles(actor: Actor, raw: z.input<typeof queryUserRolesInput>) {
  const { organizationId, roleId } = parseInput(queryUserRolesInput, raw)
  if (organizationId === '') await requireRoleAdmin(actor)
  else await requireOrganizationPermission(actor, organizationId, 'org.view')
  const rights = await prisma.accessRight.findMany({
    where: { roleId, ...(organizationId ? { organizationId } : {}) },
    include: {
      user: { select: { name: true, email: true } },
      organization: { select: { name: true } },
      project: { select: { name: true } },
    },
    orderBy: { createdAt: 'asc' },
  })
  return {
    accessRights: rights.map((r) => ({
      id: r.id,
      userId: r.userId,
      userName: r.user.name,
      email: r.user.email,
      organizationId: r.organizationId,
      organizationName: r.organization.name,
      projectId: r.projectId,
      projectName: r.project?.name ?? null,
    })),
  }
}

/**
 * 'Check user roles': repairs access rights and recompiles every ACL. Removes rights whose role is
 * missing or owned by another organization; gives an owner without an organization-level right
 * carrying the owner permissions the Organization Admin role. Returns what it changed.
 */
export async function checkUserRoles(actor: Actor) {
  await requireRoleAdmin(actor)
  return prisma.$transaction(async (tx) => {
    const repairs: string[] = []
    const roles = new Map((await tx.role.findMany()).map((r) => [r.id, toRoleRecord(r)]))
    const rights = await tx.accessRight.findMany({ include: { user: { select: { email: true } }, organization: { select: { name: true } } } })
    const kept = []
    for (const right of rights) {
      const role = roles.get(right.roleId)
      if (!role || (role.organizationId !== '' && role.organizationId !== right.organizationId)) {
        await tx.accessRight.delete({ where: { id: right.id } })
        repairs.push(`Removed an access right of ${right.user.email} in ${right.organization.name}: its role ${role ? 'belongs to another organization' : 'no longer exists'}`)
      } else kept.push({ ...right, role })
    }
    const organizations = await tx.organization.findMany({ select: { id: true, name: true, ownerId: true, owner: { select: { email: true } } } })
    for (const org of organizations) {
      const ownerOk = kept.some(
        (r) => r.userId === org.ownerId && r.organizationId === org.id && r.projectId === null && OWNER_REQUIRED_PERMISSIONS.every((p) => r.role.permissions.includes(p)),
      )
      if (!ownerOk) {
        await tx.accessRight.create({ data: { userId: org.ownerId, organizationId: org.id, roleId: DEFAULT_ROLE_IDS.orgAdmin } })
        repairs.push(`Gave the owner ${org.owner.email} of ${org.name} the Organization Admin role`)
      }
    }
    const usersCompiled = await compileAllAcls(tx)
    await audit(tx, actor, { action: 'acl.check', message: `Checked user roles: ${repairs.length} repair(s), ${usersCompiled} user(s) recompiled` })
    return { repairs, usersCompiled }
  }, LARGE_TRANSACTION)
}

/** 'Recompile ACLs': every user's compiled ACLs from their access rights. */
export async function recompileAcls(actor: Actor) {
  await requireRoleAdmin(actor)
  const result = await prisma.$transaction(async (tx) => {
    const usersCompiled = await compileAllAcls(tx)
    await audit(tx, actor, { action: 'acl.recompile', message: `Recompiled ACLs of ${usersCompiled} user(s)` })
    return { usersCompiled }
  }, LARGE_TRANSACTION)
  // anyone's rights may have moved: every organization's shared reads and open pages refresh
  emitChange({ organizationId: null, kind: 'member' })
  return result
}

function requireSiteAdminActor(actor: Actor) {
  if (actor.kind !== 'system' && !(actor.kind === 'user' && actor.isSiteAdmin)) throw accessDenied()
}

export const ACL_VALIDATION_ERROR = 'Error : User is missing expected compiled ACLs'

/** 'Validate Compiled ACLs for User' (site admins). */
export async function validateUserAcl(actor: Actor, userId: string) {
  requireSiteAdminActor(actor)
  const result = await validateUserAcls(userId)
  return { status: result.status === 'ok' ? 'ok' : ACL_VALIDATION_ERROR, differences: result.differences }
}

/** 'Recompile ACLs for User' (site admins). */
export async function recompileUserAcl(actor: Actor, userId: string) {
  requireSiteAdminActor(actor)
  await prisma.$transaction(async (tx) => {
    if (!(await tx.user.findUnique({ where: { id: userId }, select: { id: true } }))) throw notFound('User not found')
    await compileUserAcls(tx, userId)
    await audit(tx, actor, { action: 'acl.recompile.user', message: `Recompiled ACLs of user ${userId}` })
  })
  emitChange({ organizationId: null, kind: 'member', userId })
  return { userId }
}
