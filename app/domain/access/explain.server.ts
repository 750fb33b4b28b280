import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { accessDenied, DomainError, fromZodIssues, notFound } from '../errors'
import { prisma, parseJson } from '~/utils/db.server'
import { getOrganizationAccess, type OrganizationAccess } from './access.server'
import { ALL_PERMISSIONS, type Permission, Scope, scopeOfPermission } from './catalogue'
import { byName, compareNames } from '~/utils/name-order'

export const explainAccessInput = z.object({
  organizationId: z.string().min(1),
  userId: z.string().min(1, 'Pick a member'),
  permission: z.enum(ALL_PERMISSIONS as [Permission, ...Permission[]], { errorMap: () => ({ message: 'Unknown permission' }) }),
  /** empty = the organization itself */
  projectId: z.string().nullish(),
})
export type ExplainAccessInput = z.input<typeof explainAccessInput>

/** One way a permission reaches the member: a role held organization-wide or on a project of the chain. */
export type AccessGrant = {
  roleId: string
  roleName: string
  /** 'organization' = an organization-wide right; 'project' = a right on `projectName` */
  level: 'organization' | 'project'
  projectId: string | null
  projectName: string | null
  /** true when the right sits on a parent of the asked project (inherited down the tree) */
  inherited: boolean
}

export type AccessExplanation = {
  granted: boolean
  member: { id: string; name: string; email: string }
  permission: Permission
  /** null = asked about the organization */
  project: { id: string; name: string } | null
  /** the project and its parents, from the project up (the chain the check walks) */
  chain: { id: string; name: string }[]
  /** how it is granted: every matching right, nearest first */
  grants: AccessGrant[]
  /** special powers that grant it without a role: site administrator, organization owner */
  special: 'site-admin' | 'owner' | null
  /** roles of this organization (or global) that would grant it at that place, when not granted */
  rolesThatWould: { id: string; name: string }[]
  /** the sentence shown to people */
  summary: string
}

/**
 * Who may explain: those who manage members or roles (admins), and any member about themselves.
 * A site administrator acting as staff may explain anyone.
 */
function mayExplain(access: OrganizationAccess, userId: string) {
  return (access.userId === userId && access.isMember) || mayExplainOthers(access)
}
const mayExplainOthers = (access: OrganizationAccess) => access.can('org.view') && (access.can('org.user.assignRole') || access.can('org.user.editRoles'))

/**
 * Says whether `userId` holds `permission` on the project (or the organization) and through which
 * role, right and parent project, or what is missing. The verdict is the permission engine's own
 * `can()` for that member (OrganizationAccess), so it never disagrees with enforcement; the
 * explanation is read from the access rights behind the compiled ACL.
 */
export async function explainAccess(actor: Actor, raw: unknown): Promise<AccessExplanation> {
  const parsed = explainAccessInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { organizationId, userId, permission } = parsed.data
  const projectId = parsed.data.projectId || null
  const access = await getOrganizationAccess(actor, organizationId)
  if (!mayExplain(access, userId)) throw accessDenied()
  if (projectId && !access.hasProject(projectId)) throw notFound('Project not found')

  const user = await prisma.user.findUnique({ where: { id: userId }, select: { id: true, name: true, email: true, isAdmin: true } })
  const [rights, projects] = await Promise.all([
    prisma.accessRight.findMany({ where: { organizationId, userId }, include: { role: { select: { id: true, name: true, permissions: true } } } }),
    prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true } }),
  ])
  const isOwner = access.organization.ownerId === userId
  if (!user || (!rights.length && !isOwner)) throw new DomainError('not-found', 'Not a member of this organization', 404)

  // the verdict: the engine's check for that member, exactly as enforcement runs it
  const target: UserActor = { kind: 'user', userId: user.id, email: user.email, name: user.name, isSiteAdmin: user.isAdmin, ip: '', userAgent: '' }
  const targetAccess = await getOrganizationAccess(target, organizationId)
  const granted = targetAccess.can(permission, projectId)

  const names = new Map(projects.map((p) => [p.id, p.name]))
  const chainIds = projectId ? targetAccess.projectChain(projectId) : []
  const chain = chainIds.map((id) => ({ id, name: names.get(id) ?? 'Unknown Project' }))
  const grants: AccessGrant[] = rights
    .filter((r) => parseJson<string[]>(r.role.permissions, []).includes(permission))
    .filter((r) => r.projectId === null || chainIds.includes(r.projectId))
    .map((r) => ({
      roleId: r.role.id,
      roleName: r.role.name,
      level: r.projectId ? ('project' as const) : ('organization' as const),
      projectId: r.projectId,
      projectName: r.projectId ? (names.get(r.projectId) ?? 'Unknown Project') : null,
      inherited: r.projectId !== null && r.projectId !== projectId,
    }))
    // organization-wide last, then nearest project first
    .sort((a, b) => rank(a, chainIds) - rank(b, chainIds))
  const special: AccessExplanation['special'] = user.isAdmin ? 'site-admin' : isOwner && permission === 'org.view' ? 'owner' : null

  const rolesThatWould = granted ? [] : await rolesGranting(organizationId, permission, projectId !== null)
  const project = projectId ? { id: projectId, name: names.get(projectId) ?? 'Unknown Project' } : null
  const explanation = { granted, member: { id: user.id, name: user.name, email: user.email }, permission, project, chain, grants, special, rolesThatWould }
  return { ...explanation, summary: summarize(explanation) }
}

const rank = (g: AccessGrant, chain: string[]) => (g.projectId === null ? chain.length + 1 : chain.indexOf(g.projectId))

/** Roles that hold the permission and could be given at that place (project roles only on a project). */
async function rolesGranting(organizationId: string, permission: Permission, onProject: boolean) {
  const roles = await prisma.role.findMany({ where: { organizationId: { in: ['', organizationId] } }, select: { id: true, name: true, permissions: true, resourceType: true } })
  const widest = scopeOfPermission(permission)
  return roles
    .filter((r) => r.resourceType !== Scope.Global && r.resourceType <= widest)
    .filter((r) => onProject || r.resourceType !== Scope.Project)
    .filter((r) => parseJson<string[]>(r.permissions, []).includes(permission))
    .map((r) => ({ id: r.id, name: r.name }))
    .sort(byName)
}

function summarize(e: Omit<AccessExplanation, 'summary'>): string {
  const who = e.member.name || e.member.email
  const where = e.project ? e.project.name : 'the organization'
  if (e.granted) {
    if (e.special === 'site-admin') return `${who} holds ${e.permission} on ${where} as a site administrator.`
    const g = e.grants[0]
    if (!g) return e.special === 'owner' ? `${who} holds ${e.permission} as the organization's owner.` : `${who} holds ${e.permission} on ${where} (compiled ACL; no current access right explains it — recompile ACLs).`
    const via = g.level === 'organization' ? 'an organization-wide right' : g.inherited ? `a right on ${g.projectName}, inherited by ${where}` : `a right on ${g.projectName}`
    return `${who} holds ${e.permission} on ${where} through the role ${g.roleName} (${via}).`
  }
  const place = e.project ? `${where} or its parents` : where
  const would = e.rolesThatWould.length ? `; roles that would: ${e.rolesThatWould.map((r) => r.name).join(', ')}` : '; no role of this organization grants it'
  return `No role of ${who} grants ${e.permission} on ${place}${would}.`
}

/** Choices of the explainer form: members (only oneself for non-admins), projects, permissions. */
export async function explainChoices(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  const admin = mayExplainOthers(access)
  const [rights, owner, projects] = await Promise.all([
    prisma.accessRight.findMany({ where: { organizationId, ...(admin ? {} : { userId: access.userId ?? '' }) }, select: { user: { select: { id: true, name: true, email: true } } }, distinct: ['userId'] }),
    prisma.user.findUnique({ where: { id: access.organization.ownerId }, select: { id: true, name: true, email: true } }),
    prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true, parentId: true }, orderBy: { name: 'asc' } }),
  ])
  const members = new Map(rights.map((r) => [r.user.id, r.user]))
  if (owner && (admin || owner.id === access.userId)) members.set(owner.id, owner)
  return {
    canExplainOthers: admin,
    members: [...members.values()].sort((a, b) => compareNames(a.name || a.email, b.name || b.email)),
    projects: projects.map((p) => ({ id: p.id, name: access.projectChain(p.id).map((id) => projects.find((q) => q.id === id)?.name ?? '').reverse().join(' / ') })).sort(byName),
    permissions: ALL_PERMISSIONS,
  }
}
