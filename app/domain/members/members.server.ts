import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess, requireOrganizationPermission, type OrganizationAccess } from '../access/access.server'
import { compileUserAcls } from '../access/acl.server'
import { OWNER_REQUIRED_PERMISSIONS, Scope, scopeName } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { normalizeEmail } from '../auth/account.server'
import { isValidEmail } from '../auth/password-rules'
import { DomainError, accessDenied, notFound, notLoggedIn } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { byName, heldRights, mayAssignRole, rolesVisibleIn, type HeldRight, type RoleRecord } from '../roles/role-rules.server'
import { prisma, type Tx } from '~/utils/db.server'
import { compareNames } from '~/utils/name-order'

type Db = Tx | typeof prisma

/** What the role and remove rules need to know about the actor in one organization. */
export type MemberRulesContext = { access: OrganizationAccess; roles: RoleRecord[]; held: HeldRight[] }

export async function loadRulesContext(db: Db, actor: Actor, organizationId: string): Promise<MemberRulesContext> {
  const access = await getOrganizationAccess(actor, organizationId, db)
  const [roles, held] = await Promise.all([rolesVisibleIn(db, organizationId), heldRights(db, access.userId, organizationId)])
  return { access, roles, held }
}

type RightShape = { id: string; projectId: string | null; roleId: string }
type MemberShape = { userId: string; isOwner: boolean; rights: RightShape[] }

/** The type an access right has: organization level (no project) or project level. */
const rightScope = (right: { projectId: string | null }) => (right.projectId ? Scope.Project : Scope.Organization)

/**
 * Roles offered for one access right: roles whose scope matches the right's type (an
 * organization-level right also takes Global roles, except for the owner, who may be given only
 * organization-level roles), that the actor may assign, sorted by name.
 */
function roleChoices(ctx: MemberRulesContext, member: MemberShape, right: RightShape): RoleRecord[] {
  const scope = rightScope(right)
  return ctx.roles
    .filter((r) => r.resourceType === scope || (scope === Scope.Organization && r.resourceType === Scope.Global && !member.isOwner))
    .filter((r) => mayAssignRole(ctx.access, ctx.held, r, right.projectId))
    .sort(byName)
}

/** The owner's rights can be changed only by the owner (or staff); others need the assign-role right. */
function mayChangeRight(ctx: MemberRulesContext, member: MemberShape, right: RightShape): boolean {
  const { access } = ctx
  if (member.isOwner) return access.isOwner || access.isSiteAdmin
  return access.can('org.user.assignRole') || (right.projectId !== null && access.can('project.user.assignRole', right.projectId))
}

/**
 * Remove-right rule: an owner only loses non-organization-level rights; anyone else only while
 * another right remains (removing the last one is 'remove member').
 */
function mayRemoveRight(ctx: MemberRulesContext, member: MemberShape, right: RightShape): boolean {
  if (!mayChangeRight(ctx, member, right)) return false
  if (member.isOwner) return right.projectId !== null
  return member.rights.length > 1
}

function mayRemoveMember(access: OrganizationAccess, member: { userId: string; isOwner: boolean }): boolean {
  return access.can('org.user.remove') && !member.isOwner && member.userId !== access.userId
}

/** Organization-level roles the actor may give in 'Invite Member' (never Global ones). */
function memberRoleChoices(ctx: MemberRulesContext): RoleRecord[] {
  return ctx.roles.filter((r) => r.resourceType === Scope.Organization && mayAssignRole(ctx.access, ctx.held, r))
}

const choice = (r: RoleRecord) => ({ id: r.id, name: r.name })

export type MemberAccessRight = {
  id: string
  resourceType: 'Organization' | 'Project' | 'Global'
  resourceId: string | null
  scopeName: string
  roleId: string
  roleName: string
  roleChoices: { id: string; name: string }[]
  canChangeRole: boolean
  canRemove: boolean
}
export type Member = {
  id: string
  name: string
  email: string
  /** seconds since the epoch, null = never */
  lastSeen: number | null
  isOwner: boolean
  isYou: boolean
  canRemove: boolean
  accessRights: MemberAccessRight[]
}

/** Members page: everyone holding a right here plus the owner, with their rights and what the actor may do. */
export async function listMembers(actor: Actor, organizationId: string) {
  const ctx = await loadRulesContext(prisma, actor, organizationId)
  ctx.access.require('org.view')
  const rights = await prisma.accessRight.findMany({
    where: { organizationId },
    include: { project: { select: { name: true } } },
    orderBy: { createdAt: 'asc' },
  })
  const userIds = [...new Set([ctx.access.organization.ownerId, ...rights.map((r) => r.userId)])]
  const users = await prisma.user.findMany({ where: { id: { in: userIds } }, select: { id: true, name: true, email: true, lastSeenAt: true } })
  const roleById = new Map(ctx.roles.map((r) => [r.id, r]))

  const members: Member[] = users.map((user) => {
    const own = rights.filter((r) => r.userId === user.id)
    const shape: MemberShape = { userId: user.id, isOwner: user.id === ctx.access.organization.ownerId, rights: own }
    return {
      id: user.id,
      name: user.name,
      email: user.email,
      lastSeen: user.lastSeenAt ? Math.floor(user.lastSeenAt.getTime() / 1000) : null,
      isOwner: shape.isOwner,
      isYou: user.id === ctx.access.userId,
      canRemove: mayRemoveMember(ctx.access, shape),
      accessRights: own.map((right) => {
        const role = roleById.get(right.roleId)
        const global = !right.projectId && role?.resourceType === Scope.Global
        return {
          id: right.id,
          resourceType: right.projectId ? 'Project' : global ? 'Global' : 'Organization',
          resourceId: right.projectId,
          scopeName: right.projectId ? (right.project?.name ?? 'Unknown Project') : global ? 'Global' : 'Organization',
          roleId: right.roleId,
          roleName: role?.name ?? 'Unknown Role',
          roleChoices: roleChoices(ctx, shape, right).map(choice),
          canChangeRole: mayChangeRight(ctx, shape, right),
          canRemove: mayRemoveRight(ctx, shape, right),
        }
      }),
    }
  })
  members.sort((a, b) => Number(b.isOwner) - Number(a.isOwner) || compareNames(a.name, b.name))
  return { members, memberRoles: memberRoleChoices(ctx).map(choice) }
}

export const addMemberInput = z.object({
  email: z
    .string()
    .transform(normalizeEmail)
    .refine((e) => e.length > 0 && isValidEmail(e), 'Incorrect email address format'),
  roleId: z.string().trim().min(1, 'Missing user role'),
})

/** Validates an organization-level role the actor may give (Add Member and invites share this). */
export function requireMemberRole(ctx: MemberRulesContext, roleId: string): RoleRecord {
  const role = memberRoleChoices(ctx).find((r) => r.id === roleId)
  if (!role) throw new DomainError('invalid-argument', 'Missing user role', 400, [{ path: 'roleId', message: 'Missing user role' }])
  return role
}

/** Invite Member for a registered e-mail: adds the user with an organization-level role. */
export async function addOrganizationMember(actor: Actor, organizationId: string, raw: { email: string; roleId: string }) {
  const { email, roleId } = parseInput(addMemberInput, raw)
  const result = await prisma.$transaction(async (tx) => {
    const ctx = await loadRulesContext(tx, actor, organizationId)
    ctx.access.require('org.user.add')
    const role = requireMemberRole(ctx, roleId)
    const user = await tx.user.findUnique({ where: { email }, select: { id: true, name: true, email: true, isAgent: true } })
    if (!user || user.isAgent) throw new DomainError('auth/user-not-found', `No user exists for email ${email}`, 404)
    const existing = await tx.accessRight.findFirst({ where: { userId: user.id, organizationId, projectId: null } })
    if (existing || user.id === ctx.access.organization.ownerId) {
      throw new DomainError('already-exists', `${user.email} is already a member of this organization`, 409)
    }
    const right = await tx.accessRight.create({ data: { userId: user.id, roleId: role.id, organizationId } })
    await compileUserAcls(tx, user.id, organizationId)
    await audit(tx, actor, { organizationId, action: 'member.add', message: `Added ${user.name} (${user.email}) as ${role.name}` })
    return { memberId: user.id, aclId: right.id }
  })
  emitChange({ organizationId, kind: 'member', ids: [result.memberId] })
  emitChange({ organizationId: null, kind: 'user', userId: result.memberId })
  return result
}

/** Removes a member with all their rights here. Never oneself (use leave) and never the owner. */
export async function removeOrganizationMember(actor: Actor, organizationId: string, userId: string) {
  await prisma.$transaction(async (tx) => {
    const access = await requireOrganizationPermission(actor, organizationId, 'org.user.remove', null, tx)
    if (userId === access.organization.ownerId) throw new DomainError('permission-denied', 'The organization owner cannot be removed', 403)
    if (userId === access.userId) throw new DomainError('permission-denied', 'You cannot remove yourself; leave the organization instead', 403)
    const user = await tx.user.findUnique({ where: { id: userId }, select: { name: true, email: true } })
    const removed = await tx.accessRight.deleteMany({ where: { userId, organizationId } })
    if (!user || removed.count === 0) throw notFound('Member not found')
    await tx.subscription.deleteMany({ where: { userId, organizationId } })
    await compileUserAcls(tx, userId, organizationId)
    await audit(tx, actor, { organizationId, action: 'member.remove', message: `Removed ${user.name} (${user.email}) from the organization` })
  })
  emitChange({ organizationId, kind: 'member', ids: [userId] })
  emitChange({ organizationId: null, kind: 'user', userId })
  return { removed: userId }
}

async function loadRight(tx: Tx, ctx: MemberRulesContext, aclId: string, organizationId: string) {
  const right = await tx.accessRight.findFirst({
    where: { id: aclId, organizationId },
    include: { user: { select: { name: true, email: true } }, project: { select: { name: true } } },
  })
  if (!right) throw notFound('Access right not found')
  const rights = await tx.accessRight.findMany({ where: { userId: right.userId, organizationId }, select: { id: true, projectId: true, roleId: true } })
  const member: MemberShape = { userId: right.userId, isOwner: right.userId === ctx.access.organization.ownerId, rights }
  return { right, member, scope: right.project?.name ?? (right.projectId ? 'Unknown Project' : 'Organization') }
}

export const assignUserRoleInput = z.object({
  aclId: z.string().min(1),
  organizationId: z.string().min(1),
  userId: z.string().min(1),
  roleId: z.string().min(1, 'Missing user role'),
})

/** Changes the role of one access right, enforcing the scope, owner and assignable-by rules. */
export async function assignUserRole(actor: Actor, input: z.input<typeof assignUserRoleInput>) {
  const { aclId, organizationId, userId, roleId } = parseInput(assignUserRoleInput, input)
  await prisma.$transaction(async (tx) => {
    const ctx = await loadRulesContext(tx, actor, organizationId)
    const { right, member, scope } = await loadRight(tx, ctx, aclId, organizationId)
    if (right.userId !== userId) throw notFound('Access right not found')
    if (!mayChangeRight(ctx, member, right)) throw accessDenied()
    const role = roleChoices(ctx, member, right).find((r) => r.id === roleId)
    if (!role) throw new DomainError('invalid-argument', 'This role cannot be assigned to this access right', 400, [{ path: 'roleId', message: 'Role not allowed here' }])
    if (member.isOwner && !right.projectId && !OWNER_REQUIRED_PERMISSIONS.every((p) => role.permissions.includes(p))) {
      throw new DomainError(
        'role-not-allowed',
        `Cannot assign '${role.name}' role to the organization owner. An organization owner must have organization update permissions.`,
        400,
      )
    }
    const previous = ctx.roles.find((r) => r.id === right.roleId)?.name ?? 'Unknown Role'
    await tx.accessRight.update({ where: { id: right.id }, data: { roleId: role.id } })
    await compileUserAcls(tx, userId, organizationId)
    await audit(tx, actor, {
      organizationId,
      projectId: right.projectId,
      action: 'member.role.assign',
      message: `Changed role of ${right.user.name} (${right.user.email}) on ${scope} from ${previous} to ${role.name}`,
    })
  })
  emitChange({ organizationId, kind: 'member', ids: [userId] })
  emitChange({ organizationId: null, kind: 'user', userId })
  return { aclId, roleId }
}

export const unassignUserRoleInput = z.object({ aclId: z.string().min(1), organizationId: z.string().min(1) })

/** Removes one access right (the remove-right button). */
export async function unassignUserRole(actor: Actor, input: z.input<typeof unassignUserRoleInput>) {
  const { aclId, organizationId } = parseInput(unassignUserRoleInput, input)
  const userId = await prisma.$transaction(async (tx) => {
    const ctx = await loadRulesContext(tx, actor, organizationId)
    const { right, member, scope } = await loadRight(tx, ctx, aclId, organizationId)
    if (!mayChangeRight(ctx, member, right)) throw accessDenied()
    if (!mayRemoveRight(ctx, member, right)) {
      throw new DomainError(
        'failed-precondition',
        member.isOwner ? "The owner's organization-level access right cannot be removed" : 'A member keeps at least one access right; remove the member instead',
        400,
      )
    }
    const roleName = ctx.roles.find((r) => r.id === right.roleId)?.name ?? 'Unknown Role'
    await tx.accessRight.delete({ where: { id: right.id } })
    await compileUserAcls(tx, right.userId, organizationId)
    await audit(tx, actor, {
      organizationId,
      projectId: right.projectId,
      action: 'member.role.unassign',
      message: `Removed ${roleName} on ${scope} from ${right.user.name} (${right.user.email})`,
    })
    return right.userId
  })
  emitChange({ organizationId, kind: 'member', ids: [userId] })
  emitChange({ organizationId: null, kind: 'user', userId })
  return { aclId }
}

/** User settings, Access Rights: the signed-in user's own rights everywhere. */
export async function listMyAccessRights(actor: Actor) {
  if (actor.kind !== 'user') throw notLoggedIn()
  const rights = await prisma.accessRight.findMany({
    where: { userId: actor.userId },
    include: {
      organization: { select: { id: true, name: true } },
      project: { select: { id: true, name: true } },
      role: { select: { name: true, resourceType: true } },
    },
    orderBy: [{ organizationId: 'asc' }, { createdAt: 'asc' }],
  })
  return {
    isSiteAdmin: actor.isSiteAdmin,
    accessRights: rights.map((r) => ({
      id: r.id,
      scope: r.projectId ? 'Project' : scopeName(r.role.resourceType === Scope.Global ? Scope.Global : Scope.Organization),
      organizationId: r.organization.id,
      organizationName: r.organization.name,
      projectId: r.project?.id ?? null,
      projectName: r.project?.name ?? null,
      roleName: r.role.name,
    })),
  }
}
