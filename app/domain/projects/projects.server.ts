import { z } from 'zod'
import { LARGE_TRANSACTION } from '../large-transaction'
import { type Actor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { compileUserAcls } from '../access/acl.server'
import { Scope } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { accessDenied, invalid, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { organizationMemberIds } from '../organizations/organizations.server'
import { projectSystemCounts } from '../fleet/project-system-counts.server'
import { prisma } from '~/utils/db.server'
import { chunked, inChunks } from '~/utils/id-chunks'
import { heldRights, mayAssignRole, toRoleRecord } from '../roles/role-rules.server'
import { byName } from '~/utils/name-order'

const nameField = z
  .string({ required_error: 'Project name is required', invalid_type_error: 'Project name is required' })
  .trim()
  .min(1, 'Project name is required')
  .max(100, 'Project name must be at most 100 characters')
const descriptionField = z.string({ invalid_type_error: 'Description must be text' }).trim().max(1000, 'Description must be at most 1000 characters')
const parentField = z.string().trim().min(1).nullable()

export const createProjectInput = z.object({ name: nameField, description: descriptionField.optional(), parentId: parentField.optional() })
/** Org/updateProject doc: name, description or parentId (null moves the project to the top level). */
export const updateProjectInput = z.object({ name: nameField, description: descriptionField, parentId: parentField }).partial().strict()

export const projectLink = (organizationId: string, projectId: string) => `/organization/${organizationId}/projects/${projectId}`

const noSuchProject = (projectId: string, organizationId: string) => invalid(`No such project ${projectId} in org ${organizationId}`)

/** Loads access and makes sure the project belongs to the organization (403 otherwise, as for outsiders). */
async function projectAccess(actor: Actor, organizationId: string, projectId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.hasProject(projectId)) throw accessDenied()
  return access
}

/** A sub-project may be created by whoever may create projects in, or update, the parent. */
const canCreateUnder = (access: OrganizationAccess, parentId: string | null) =>
  parentId ? access.can('project.create', parentId) || access.can('project.update', parentId) : access.can('project.create')

/** Org/createProject: at the top level (project.create) or under a parent of the same organization. */
export async function createProject(actor: Actor, organizationId: string, raw: unknown) {
  const input = parseInput(createProjectInput, raw)
  const access = await getOrganizationAccess(actor, organizationId)
  const parentId = input.parentId ?? null
  if (parentId && !access.hasProject(parentId)) throw noSuchProject(parentId, organizationId)
  if (!canCreateUnder(access, parentId)) throw accessDenied()
  const project = await prisma.$transaction(async (tx) => {
    const created = await tx.project.create({ data: { organizationId, name: input.name, description: input.description ?? '', parentId } })
    await audit(tx, actor, { organizationId, projectId: created.id, action: 'project.create', message: `Project '${created.name}' created` })
    return created
  })
  emitChange({ organizationId, kind: 'project', ids: [project.id] })
  return { projectId: project.id }
}

/** Org/updateProject (project.update on that project). Moving it needs the right to create under the new parent. */
export async function updateProject(actor: Actor, organizationId: string, projectId: string, rawDoc: unknown) {
  const access = await projectAccess(actor, organizationId, projectId)
  access.require('project.update', projectId)
  const doc = parseInput(updateProjectInput, rawDoc)
  const fields = (Object.keys(doc) as (keyof typeof doc)[]).filter((k) => doc[k] !== undefined)
  if (fields.length === 0) throw invalid('Nothing to update')
  if (doc.parentId !== undefined) {
    const parentId = doc.parentId
    if (parentId && !access.hasProject(parentId)) throw noSuchProject(parentId, organizationId)
    if (parentId && access.projectChain(parentId).includes(projectId)) {
      throw invalid('A project cannot be moved under itself or one of its sub-projects', [{ path: 'parentId', message: 'Invalid parent project' }])
    }
    if (!canCreateUnder(access, parentId)) throw accessDenied()
  }
  const project = await prisma.$transaction(async (tx) => {
    const updated = await tx.project.update({ where: { id: projectId }, data: doc })
    await audit(tx, actor, { organizationId, projectId, action: 'project.update', message: `Project '${updated.name}' changed: ${fields.join(', ')}` })
    return updated
  })
  emitChange({ organizationId, kind: 'project', ids: [projectId] })
  return { projectId: project.id, updated: fields }
}

/** The spec's success text for a project update. */
export const projectUpdatedMessage = (fields: string[]) => (fields.length === 1 && fields[0] === 'name' ? 'Project name updated' : 'Project updated')

/** A project and all its descendants, from the organization's project rows. */
function subtreeOf(rows: { id: string; parentId: string | null }[], rootId: string): string[] {
  const children = new Map<string, string[]>()
  for (const r of rows) if (r.parentId) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r.id])
  const ids: string[] = []
  const stack = [rootId]
  while (stack.length) {
    const id = stack.pop()!
    if (ids.includes(id)) continue
    ids.push(id)
    stack.push(...(children.get(id) ?? []))
  }
  return ids
}

/**
 * Org/deleteProject (project.delete): with `recurse` its sub-projects go too; systems assigned to
 * any of them become unassigned (they keep reporting). Holders of roles on them are recompiled.
 */
export async function deleteProject(actor: Actor, organizationId: string, projectId: string, recurse: boolean) {
  const access = await projectAccess(actor, organizationId, projectId)
  access.require('project.delete', projectId)
  const rows = await prisma.project.findMany({ where: { organizationId }, select: { id: true, parentId: true, name: true } })
  const ids = subtreeOf(rows, projectId)
  if (ids.length > 1 && !recurse) throw invalid('The project has sub-projects; delete it recursively to remove them too')
  const name = rows.find((r) => r.id === projectId)?.name ?? projectId
  const result = await prisma.$transaction(async (tx) => {
    // by chunks: a subtree may hold more projects than one statement binds
    let unassignedSystems = 0
    for (const chunk of chunked(ids)) unassignedSystems += (await tx.system.updateMany({ where: { projectId: { in: chunk } }, data: { projectId: null } })).count
    const holderRows = await inChunks(ids, (chunk) => tx.accessRight.findMany({ where: { projectId: { in: chunk } }, select: { userId: true }, distinct: ['userId'] }))
    const holders = [...new Set(holderRows.map((h) => h.userId))].map((userId) => ({ userId }))
    // Children first keeps every step valid whatever the foreign-key mode.
    for (const id of [...ids].reverse()) await tx.project.delete({ where: { id } })
    for (const { userId } of holders) await compileUserAcls(tx, userId, organizationId)
    const extra = ids.length > 1 ? ` with ${ids.length - 1} sub-project(s)` : ''
    await audit(tx, actor, { organizationId, projectId, action: 'project.delete', message: `Project '${name}' deleted${extra}; ${unassignedSystems} system(s) unassigned` })
    return { deletedProjectIds: ids, unassignedSystems }
  }, LARGE_TRANSACTION)
  emitChange({ organizationId, kind: 'project', ids })
  if (result.unassignedSystems > 0) emitChange({ organizationId, kind: 'system' })
  return result
}

export type ProjectNode = {
  id: string
  name: string
  description: string
  parentId: string | null
  parentName: string | null
  hasSubProjects: boolean
  canView: boolean
  canUpdate: boolean
  canDelete: boolean
  canUserAssignRole: boolean
  canMetricsView: boolean
  canCreateSubProject: boolean
  systemsCount: number
  linkTo: string
  subRows: ProjectNode[]
}

/**
 * Projects the actor may view (project.view, inherited down the tree), as a tree sorted by name.
 * A visible project whose parent is hidden hangs under its nearest visible ancestor. Also the
 * organization's system totals (total over unassigned). The counts are one pass over the
 * organization's agents and systems shared with the System(s) column (projectSystemCounts): on
 * 20,000 agents each pass is 100-300 ms of a blocked event loop, and the page made three.
 */
export async function listProjects(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.capabilities().canListProjects) throw accessDenied()
  // in reading order ("Venue 2" before "Venue 10"): the tree keeps it at every level
  const rows = (await prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true, description: true, parentId: true } })).sort(byName)
  // Totals count only systems this viewer sees: unassigned ones need organization-level agent rights.
  const visibleIds = rows.filter((r) => access.can('project.view', r.id)).map((r) => r.id)
  const orgWide = access.can('agent.list')
  const counts = await projectSystemCounts(organizationId)
  const inVisible = visibleIds.reduce((n, id) => n + (counts.get(id)?.total ?? 0), 0)
  const systemUnassigned = orgWide ? (counts.get(null)?.total ?? 0) : 0
  const systemTotal = inVisible + systemUnassigned
  const byId = new Map(rows.map((r) => [r.id, r]))
  const parents = new Set(rows.map((r) => r.parentId))
  const nodes = new Map<string, ProjectNode>()
  for (const r of rows) {
    if (!access.can('project.view', r.id)) continue
    const caps = access.projectCapabilities(r.id)
    const parent = r.parentId ? byId.get(r.parentId) : undefined
    nodes.set(r.id, {
      id: r.id,
      name: r.name,
      description: r.description,
      parentId: r.parentId,
      parentName: parent && access.can('project.view', parent.id) ? parent.name : null,
      hasSubProjects: parents.has(r.id),
      ...caps,
      canCreateSubProject: canCreateUnder(access, r.id),
      systemsCount: counts.get(r.id)?.total ?? 0,
      linkTo: projectLink(organizationId, r.id),
      subRows: [],
    })
  }
  const roots: ProjectNode[] = []
  for (const node of nodes.values()) {
    const visibleAncestor = access
      .projectChain(node.id)
      .slice(1)
      .find((id) => nodes.has(id))
    if (visibleAncestor) nodes.get(visibleAncestor)!.subRows.push(node)
    else roots.push(node)
  }
  return { projects: roots, systems: { total: systemTotal, unassigned: systemUnassigned } }
}

/**
 * One project for its page: fields, capability flags and the chain of parent projects the actor
 * may view (breadcrumb). Needs project.view or project.metrics.view on it.
 */
export async function getProject(actor: Actor, organizationId: string, projectId: string) {
  const access = await projectAccess(actor, organizationId, projectId)
  if (!access.can('project.view', projectId) && !access.can('project.metrics.view', projectId)) throw accessDenied()
  const chainIds = access.projectChain(projectId).reverse()
  const rows = await prisma.project.findMany({ where: { id: { in: chainIds } }, select: { id: true, name: true, description: true, parentId: true } })
  const project = rows.find((r) => r.id === projectId)
  if (!project) throw notFound('Project not found')
  const chain = chainIds
    .map((id) => rows.find((r) => r.id === id)!)
    .filter((r) => r.id === projectId || access.can('project.view', r.id))
    .map((r) => ({ id: r.id, name: r.name, linkTo: projectLink(organizationId, r.id) }))
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    parentId: project.parentId,
    linkTo: projectLink(organizationId, projectId),
    chain,
    capabilities: { ...access.projectCapabilities(projectId), canCreateSubProject: canCreateUnder(access, projectId) },
  }
}

// ------------------------------------------------------------------ project membership

/** Roles a project membership may use: organization or project scope, of this organization or global (''). */
const projectRoleWhere = (organizationId: string) => ({
  organizationId: { in: ['', organizationId] },
  // Global-scope roles (cloud.admin) are never handed out through a project.
  resourceType: { in: [Scope.Organization, Scope.Project] },
})

/**
 * The project Settings Membership section: every organization member with the roles they inherit
 * (organization level, or on a parent project: read-only) and their roles on this project
 * (editable), plus the roles the actor may hand out here.
 */
export async function listProjectMembers(actor: Actor, organizationId: string, projectId: string) {
  const access = await projectAccess(actor, organizationId, projectId)
  access.require('project.view', projectId)
  const chain = access.projectChain(projectId)
  const [memberIds, rights, roles, projects, held] = await Promise.all([
    organizationMemberIds(prisma, organizationId, access.organization.ownerId),
    prisma.accessRight.findMany({
      where: { organizationId, OR: [{ projectId: null }, { projectId: { in: chain } }] },
      select: { userId: true, projectId: true, role: { select: { id: true, name: true } } },
    }),
    prisma.role.findMany({ where: projectRoleWhere(organizationId) }).then((rows) => rows.sort(byName)),
    prisma.project.findMany({ where: { id: { in: chain } }, select: { id: true, name: true } }),
    heldRights(prisma, access.userId, organizationId),
  ])
  const users = await prisma.user.findMany({ where: { id: { in: memberIds } }, select: { id: true, name: true, email: true } })
  const projectName = new Map(projects.map((p) => [p.id, p.name]))
  const members = users
    .map((u) => {
      const own = rights.filter((r) => r.userId === u.id)
      return {
        id: u.id,
        name: u.name,
        email: u.email,
        isOwner: u.id === access.organization.ownerId,
        inheritedRoles: own
          .filter((r) => r.projectId !== projectId)
          .map((r) => ({ roleId: r.role.id, roleName: r.role.name, scope: r.projectId ? (projectName.get(r.projectId) ?? 'Unknown Project') : 'Organization' })),
        projectRoles: own.filter((r) => r.projectId === projectId).map((r) => ({ roleId: r.role.id, roleName: r.role.name })),
      }
    })
    .sort(byName)
  return {
    members,
    roles: roles.map((r) => ({ id: r.id, name: r.name, resourceType: r.resourceType, assignable: mayAssignRole(access, held, toRoleRecord(r), projectId) })),
    canAssign: access.can('project.user.assignRole', projectId),
  }
}

export const projectMemberRoleInput = z.object({
  organizationId: z.string().min(1, 'Organization is required'),
  projectId: z.string().min(1, 'Project is required'),
  memberId: z.string().min(1, 'Member is required'),
  roleId: z.string().min(1, 'Missing user role'),
})
type ProjectMemberRole = z.infer<typeof projectMemberRoleInput>

/** Shared checks of assign/unassign: permission on the project, an organization member, an allowed and assignable role. */
async function checkProjectRoleChange(actor: Actor, input: ProjectMemberRole) {
  const { organizationId, projectId, memberId, roleId } = input
  const access = await projectAccess(actor, organizationId, projectId)
  access.require('project.user.assignRole', projectId)
  const memberIds = await organizationMemberIds(prisma, organizationId, access.organization.ownerId)
  if (!memberIds.includes(memberId)) throw invalid('The user is not a member of this organization', [{ path: 'memberId', message: 'Not a member' }])
  const role = await prisma.role.findFirst({ where: { id: roleId, ...projectRoleWhere(organizationId) } })
  if (!role) throw invalid('Role is not allowed', [{ path: 'roleId', message: 'Role is not allowed' }])
  if (!mayAssignRole(access, await heldRights(prisma, access.userId, organizationId), toRoleRecord(role), projectId)) {
    throw accessDenied(`You may not assign the role '${role.name}'`)
  }
  const [member, project] = await Promise.all([
    prisma.user.findUniqueOrThrow({ where: { id: memberId }, select: { name: true, email: true } }),
    prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { name: true } }),
  ])
  return { role, member, project }
}

/** Org/assignProjectMemberRole: one role on one project for one member (idempotent). */
export async function assignProjectMemberRole(actor: Actor, raw: unknown) {
  const input = parseInput(projectMemberRoleInput, raw)
  const { role, member, project } = await checkProjectRoleChange(actor, input)
  const { organizationId, projectId, memberId, roleId } = input
  const right = await prisma.$transaction(async (tx) => {
    const existing = await tx.accessRight.findFirst({ where: { organizationId, projectId, userId: memberId, roleId } })
    if (existing) return existing
    const created = await tx.accessRight.create({ data: { organizationId, projectId, userId: memberId, roleId } })
    await compileUserAcls(tx, memberId, organizationId)
    await audit(tx, actor, {
      organizationId,
      projectId,
      action: 'project.member.assignRole',
      message: `Role '${role.name}' on project '${project.name}' given to ${member.name} (${member.email})`,
    })
    return created
  })
  emitChange({ organizationId, kind: 'member', ids: [memberId] })
  return { accessRightId: right.id }
}

/** Org/unassignProjectMemberRole: removes that role on that project from the member. */
export async function unassignProjectMemberRole(actor: Actor, raw: unknown) {
  const input = parseInput(projectMemberRoleInput, raw)
  const { role, member, project } = await checkProjectRoleChange(actor, input)
  const { organizationId, projectId, memberId, roleId } = input
  const removed = await prisma.$transaction(async (tx) => {
    const { count } = await tx.accessRight.deleteMany({ where: { organizationId, projectId, userId: memberId, roleId } })
    if (count === 0) return 0
    await compileUserAcls(tx, memberId, organizationId)
    await audit(tx, actor, {
      organizationId,
      projectId,
      action: 'project.member.unassignRole',
      message: `Role '${role.name}' on project '${project.name}' removed from ${member.name} (${member.email})`,
    })
    return count
  })
  emitChange({ organizationId, kind: 'member', ids: [memberId] })
  return { removed }
}
