import { type Actor } from '../actor'
import { accessDenied, notFound } from '../errors'
import { prisma, parseJson, type Tx } from '~/utils/db.server'
import { memoIfScoped } from '~/utils/request-scope.server'
import { loadCompiledAcls, ORG_SCOPE } from './acl.server'
import { readAccessRows } from './access-lookup.server'
import { type OrganizationCapabilities, type Permission, type ProjectCapabilities } from './catalogue'
import { grantAllows, grantIsLimited } from '../auth/token-scope'

type Db = Tx | typeof prisma

/**
 * What one actor may do in one organization: the single check every loader, action, API call,
 * broker hook and CLI command goes through. Project permissions inherit down the parent chain;
 * organization-scoped grants apply to every project; the owner is a member; site admins
 * (admin claim) may act everywhere as staff.
 */
export class OrganizationAccess {
  constructor(
    readonly actor: Actor,
    readonly organization: { id: string; name: string; ownerId: string },
    private readonly acls: Map<string, Set<Permission>>,
    private readonly parents: Map<string, string | null>,
    readonly isSiteAdmin: boolean,
    readonly isCloudAdmin: boolean,
  ) {}

  get userId(): string | null {
    return this.actor.kind === 'user' ? this.actor.userId : null
  }

  /** The owner's own powers; a read-only or limited API token of the owner does not carry them. */
  get isOwner(): boolean {
    if (this.actor.kind === 'user' && grantIsLimited(this.actor.token)) return false
    return this.userId !== null && this.userId === this.organization.ownerId
  }

  /** An API token's scope narrows every check (app/domain/auth/token-scope.ts). */
  private tokenAllows(permission: Permission): boolean {
    return this.actor.kind !== 'user' || grantAllows(this.actor.token, permission)
  }

  /** A member holds at least one access right here (or owns the organization). */
  get isMember(): boolean {
    return this.isOwner || this.acls.size > 0
  }

  /** Whether the project belongs to this organization. */
  hasProject(projectId: string): boolean {
    return this.parents.has(projectId)
  }

  /** Project ids from `projectId` up to the root. */
  projectChain(projectId: string): string[] {
    const chain: string[] = []
    let current: string | null | undefined = projectId
    while (current && !chain.includes(current)) {
      chain.push(current)
      current = this.parents.get(current)
    }
    return chain
  }

  /** May the actor do `permission` on the organization, or on `projectId` when given? */
  can(permission: Permission, projectId?: string | null): boolean {
    if (this.actor.kind === 'system') return true
    if (!this.tokenAllows(permission)) return false
    if (this.isSiteAdmin) return true
    if (this.isOwner && permission === 'org.view') return true
    if (this.acls.get(ORG_SCOPE)?.has(permission)) return true
    if (!projectId) return false
    return this.projectChain(projectId).some((id) => this.acls.get(id)?.has(permission))
  }

  /** May the actor do `permission` on at least one project (used for lists of projects)? */
  canAnywhere(permission: Permission): boolean {
    if (!this.tokenAllows(permission)) return false
    if (this.can(permission)) return true
    return [...this.acls.entries()].some(([projectId, perms]) => projectId !== ORG_SCOPE && perms.has(permission))
  }

  /** Throws 403 unless `can`. */
  require(permission: Permission, projectId?: string | null) {
    if (!this.can(permission, projectId)) throw accessDenied()
  }

  capabilities(): OrganizationCapabilities {
    const c = (p: Permission) => this.can(p)
    return {
      canUpdate: c('org.update'),
      canDelete: this.isOwner || c('org.delete'),
      canTransfer: this.isOwner && c('org.transfer'),
      canProjectCreate: c('project.create'),
      canProjectUpdate: c('project.update'),
      canProjectDelete: c('project.delete'),
      canBillingView: c('org.billing.view'),
      canUserEditRoles: c('org.user.editRoles'),
      canUserAssignRole: c('org.user.assignRole'),
      canUserAdd: c('org.user.add'),
      canUserInvite: c('org.user.invite'),
      canUserRemove: c('org.user.remove'),
      canAgentEnroll: c('agent.enroll'),
      canAgentDelete: c('agent.delete'),
      canAssignToProject: this.canAnywhere('agent.assignToProject'),
      canListAgents: this.canAnywhere('agent.list'),
      // Project lists show the projects one may view (spec 02 section 2), so a project role is enough.
      canListProjects: c('org.view') || this.canAnywhere('project.view'),
      canListMembers: c('org.view'),
      canListNotes: c('note.list'),
      canMetricsView: c('org.metrics.view'),
      canAuditView: c('org.audit.view'),
      isCurrentUserOwner: this.isOwner,
    }
  }

  projectCapabilities(projectId: string): ProjectCapabilities {
    return {
      canView: this.can('project.view', projectId),
      canUpdate: this.can('project.update', projectId),
      canDelete: this.can('project.delete', projectId),
      canUserAssignRole: this.can('project.user.assignRole', projectId),
      canMetricsView: this.can('project.metrics.view', projectId),
    }
  }
}

/** Site admin claim or a global cloud.admin grant anywhere. */
export async function adminStatus(actor: Actor, db: Db = prisma) {
  if (actor.kind !== 'user') return { isSiteAdmin: false, isCloudAdmin: false }
  const isSiteAdmin = actor.isSiteAdmin
  const rows = await db.compiledAcl.findMany({ where: { userId: actor.userId }, select: { permissions: true } })
  const isCloudAdmin = grantAllows(actor.token, 'cloud.admin') && rows.some((r) => parseJson<string[]>(r.permissions, []).includes('cloud.admin'))
  return { isSiteAdmin, isCloudAdmin }
}

/**
 * Loads the actor's access to an organization. Someone who is not a member (and not staff) gets
 * the same 403 whether or not the organization exists, so they learn nothing about it.
 */
export async function getOrganizationAccess(actor: Actor, organizationId: string, db: Db = prisma): Promise<OrganizationAccess> {
  // layouts and page of one GET request share it (never inside a transaction: db is then a tx)
  if (db === prisma) return memoIfScoped(actor, `access:${organizationId}`, () => loadOrganizationAccess(actor, organizationId, db))
  return loadOrganizationAccess(actor, organizationId, db)
}

async function loadOrganizationAccess(actor: Actor, organizationId: string, db: Db): Promise<OrganizationAccess> {
  // outside a transaction the same reads as prepared statements (every page loads access)
  const fast = db === prisma ? await readAccessRows(actor.kind === 'user' ? actor.userId : null, organizationId) : null
  const organization = fast
    ? fast.organization
    : await db.organization.findUnique({
        where: { id: organizationId },
        select: { id: true, name: true, ownerId: true },
      })
  const { isSiteAdmin, isCloudAdmin } = fast
    ? { isSiteAdmin: actor.kind === 'user' && actor.isSiteAdmin, isCloudAdmin: (actor.kind !== 'user' || grantAllows(actor.token, 'cloud.admin')) && fast.cloudAdminRows.some((r) => parseJson<string[]>(r.permissions, []).includes('cloud.admin')) }
    : await adminStatus(actor, db)
  if (!organization) {
    if (isSiteAdmin || actor.kind === 'system') throw notFound('Organization not found')
    throw accessDenied()
  }
  const serviceOrg = actor.kind === 'user' ? actor.token?.organizationId : null
  // An organization service token acts in its own organization only, with exactly its permissions.
  if (serviceOrg && serviceOrg !== organizationId) throw accessDenied()
  const acls = serviceOrg
    ? new Map([[ORG_SCOPE, new Set<Permission>(actor.kind === 'user' ? (actor.token?.permissions ?? []) : [])]])
    : fast
      ? new Map(fast.acls.map((r) => [r.projectId, new Set(parseJson<Permission[]>(r.permissions, []))]))
      : actor.kind === 'user'
        ? await loadCompiledAcls(db, actor.userId, organizationId)
        : new Map()
  const projects = fast ? fast.projects : await db.project.findMany({ where: { organizationId }, select: { id: true, parentId: true } })
  const access = new OrganizationAccess(
    actor,
    organization,
    acls,
    new Map(projects.map((p) => [p.id, p.parentId])),
    isSiteAdmin,
    isCloudAdmin,
  )
  if (actor.kind === 'agent' || (!access.isMember && !isSiteAdmin && actor.kind === 'user')) throw accessDenied()
  return access
}

/** Loads access and requires a permission in one step (the common case in loaders). */
export async function requireOrganizationPermission(
  actor: Actor,
  organizationId: string,
  permission: Permission,
  projectId?: string | null,
  db: Db = prisma,
): Promise<OrganizationAccess> {
  const access = await getOrganizationAccess(actor, organizationId, db)
  if (projectId && !access.hasProject(projectId)) throw accessDenied()
  access.require(permission, projectId)
  return access
}
