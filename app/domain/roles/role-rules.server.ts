import { type Role } from '@prisma/client'
import { type prisma, parseJson, type Tx } from '~/utils/db.server'
import { type OrganizationAccess } from '../access/access.server'
import { isPermission, type Permission } from '../access/catalogue'
import { byName } from '~/utils/name-order'

type Db = Tx | typeof prisma

/** A role with its JSON columns parsed. */
export type RoleRecord = {
  id: string
  name: string
  description: string
  organizationId: string
  resourceType: number
  permissions: Permission[]
  assignableBy: string[]
  isDefault: boolean
}

export function toRoleRecord(row: Role): RoleRecord {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    organizationId: row.organizationId,
    resourceType: row.resourceType,
    permissions: parseJson<string[]>(row.permissions, []).filter(isPermission),
    assignableBy: parseJson<string[]>(row.assignableBy, []),
    isDefault: row.isDefault,
  }
}

/** Roles in reading order of names (app/utils/name-order.ts). */
export { byName }

/** Roles usable in an organization: its own plus the global ones (organizationId ''), sorted by name. */
export async function rolesVisibleIn(db: Db, organizationId: string): Promise<RoleRecord[]> {
  const rows = await db.role.findMany({ where: { organizationId: { in: [organizationId, ''] } } })
  return rows.map(toRoleRecord).sort(byName)
}

/** The roles a user holds in an organization, with the project each right is on (null = organization level). */
export async function heldRights(db: Db, userId: string | null, organizationId: string): Promise<HeldRight[]> {
  if (!userId) return []
  return db.accessRight.findMany({ where: { userId, organizationId }, select: { roleId: true, projectId: true } })
}
export type HeldRight = { roleId: string; projectId: string | null }

/** Roles that count for assigning on `projectId` (null = organization level): organization-level ones and those on the project's chain. */
export function heldRoleIdsFor(access: OrganizationAccess, held: HeldRight[], projectId: string | null): Set<string> {
  const chain = projectId ? new Set(access.projectChain(projectId)) : new Set<string>()
  return new Set(held.filter((r) => r.projectId === null || chain.has(r.projectId)).map((r) => r.roleId))
}

/**
 * role.assignableBy: the actor must hold one of the listed roles in the organization; site admins
 * and system actors always may (docs/roles.md). An empty list leaves the role to site admins.
 */
export function mayAssignRole(access: OrganizationAccess, held: HeldRight[], role: RoleRecord, projectId: string | null = null): boolean {
  if (access.isSiteAdmin || access.actor.kind === 'system') return true
  const roles = heldRoleIdsFor(access, held, projectId)
  return role.assignableBy.some((id) => roles.has(id))
}
