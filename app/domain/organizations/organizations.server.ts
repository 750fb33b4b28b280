import { type Prisma } from '@prisma/client'
import { LARGE_TRANSACTION } from '../large-transaction'
import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { compileUserAcls, ORG_SCOPE } from '../access/acl.server'
import { DEFAULT_ROLE_IDS, OWNER_REQUIRED_PERMISSIONS, type OrganizationCapabilities } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { DomainError, accessDenied, invalid } from '../errors'
import { requireAccountWrite } from '../auth/token-scope'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { endOrganizationProxySessions } from '../relay/session-checks.server'
import { memberOrganizationIds } from './membership.server'
import { prisma, parseJson, type Tx } from '~/utils/db.server'
import { byName } from '~/utils/name-order'

export const BILLING_STATUSES = ['disabled', 'requested', 'enabled', 'suspended', 'internal'] as const
export type BillingStatus = (typeof BILLING_STATUSES)[number]

const nameField = z
  .string({ required_error: 'Organization name is required', invalid_type_error: 'Organization name is required' })
  .trim()
  .min(1, 'Organization name is required')
  .max(100, 'Organization name must be at most 100 characters')
const descriptionField = z
  .string({ invalid_type_error: 'Description must be text' })
  .trim()
  .max(1000, 'Description must be at most 1000 characters')

export const createOrganizationInput = z.object({ name: nameField, description: descriptionField.optional() })
/** Org/updateOrganization doc: name and/or description; unknown fields are refused. */
export const updateOrganizationInput = z.object({ name: nameField, description: descriptionField }).partial().strict()

const notAuthorized = () => new DomainError('unauthenticated', 'Not authorized', 401)

function requireUserActor(actor: Actor | null): UserActor {
  if (!actor || actor.kind !== 'user') throw notAuthorized()
  return actor
}

/** Users with an access right in the organization, plus the owner (the owner is always a member). */
export async function organizationMemberIds(db: Tx | typeof prisma, organizationId: string, ownerId: string): Promise<string[]> {
  const rights = await db.accessRight.findMany({ where: { organizationId }, select: { userId: true }, distinct: ['userId'] })
  return [...new Set([ownerId, ...rights.map((r) => r.userId)])]
}

/**
 * Org/createOrganization: the signed-in user becomes the owner and gets the default
 * 'Organization Admin' role at organization level (compiled in the same transaction).
 * A site admin may name another user as owner (staff creating an organization for a customer).
 * No user (null or a non-user actor) is refused with 'Not authorized' (spec 02 section 8).
 */
export async function createOrganization(actor: Actor | null, raw: unknown, ownerId?: string | null) {
  const user = requireUserActor(actor)
  requireAccountWrite(user)
  const input = parseInput(createOrganizationInput, raw)
  const owner = ownerId && ownerId !== user.userId ? ownerId : user.userId
  if (owner !== user.userId) {
    if (!user.isSiteAdmin) throw accessDenied('Only site administrators may create an organization for another user')
    if (!(await prisma.user.findUnique({ where: { id: owner }, select: { id: true } }))) throw invalid('No such user', [{ path: 'owner', message: 'No such user' }])
  }
  const organization = await prisma.$transaction(async (tx) => {
    const org = await tx.organization.create({ data: { name: input.name, description: input.description ?? '', ownerId: owner } })
    await tx.accessRight.create({ data: { userId: owner, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await compileUserAcls(tx, owner, org.id)
    await audit(tx, user, { organizationId: org.id, action: 'organization.create', message: `Organization '${org.name}' created` })
    return org
  })
  emitChange({ organizationId: organization.id, kind: 'organization', ids: [organization.id] })
  return { organizationId: organization.id }
}

/** The organization's own fields with the actor's capability flags (settings pages). */
export async function getOrganization(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  const org = await prisma.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { id: true, name: true, description: true, ownerId: true, owner: { select: { name: true, email: true } } },
  })
  return {
    id: org.id,
    name: org.name,
    description: org.description,
    owner: { id: org.ownerId, name: org.owner.name, email: org.owner.email },
    linkTo: `/organization/${org.id}`,
    capabilities: access.capabilities(),
  }
}

/** Org/updateOrganization: name and/or description (org.update). Returns which fields changed. */
export async function updateOrganization(actor: Actor, organizationId: string, rawDoc: unknown) {
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('org.update')
  const doc = parseInput(updateOrganizationInput, rawDoc)
  const fields = (Object.keys(doc) as (keyof typeof doc)[]).filter((k) => doc[k] !== undefined)
  if (fields.length === 0) throw invalid('Nothing to update')
  await prisma.$transaction(async (tx) => {
    await tx.organization.update({ where: { id: organizationId }, data: doc })
    const what = fields.map((f) => (f === 'name' ? `name to '${doc.name}'` : 'description')).join(' and ')
    await audit(tx, actor, { organizationId, action: 'organization.update', message: `Organization '${access.organization.name}' changed: ${what}` })
  })
  emitChange({ organizationId, kind: 'organization', ids: [organizationId] })
  return { updated: fields }
}

/** The spec's success text for an organization update. */
export const organizationUpdatedMessage = (fields: string[]) =>
  fields.length === 1 && fields[0] === 'name' ? 'Organization name updated' : fields.length === 1 ? 'Organization description updated' : 'Organization updated'

/**
 * Org/deleteOrganization (owner, or org.delete): removes the organization and everything it holds
 * (projects, roles, access rights, ACLs, invites, notes, logs, invoices, subscriptions: database
 * cascades). Its agents are not deleted: they become unenrolled (no organization, systems
 * unassigned) so the hardware can be enrolled again elsewhere (docs/decisions/005-organization-delete-unenrolls-agents.md).
 */
export async function deleteOrganization(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.capabilities().canDelete) throw accessDenied()
  const { name } = access.organization
  await prisma.$transaction(async (tx) => {
    await endOrganizationProxySessions(tx, actor, organizationId)
    await tx.system.updateMany({ where: { agent: { organizationId } }, data: { projectId: null } })
    await tx.agent.updateMany({ where: { organizationId }, data: { organizationId: null, enrolledAt: null } })
    await tx.user.updateMany({ where: { preferenceDefaultOrg: organizationId }, data: { preferenceDefaultOrg: null } })
    await tx.user.updateMany({ where: { lastOrganizationId: organizationId }, data: { lastOrganizationId: null } })
    await tx.organization.delete({ where: { id: organizationId } })
    // The organization's own log goes with it; this site-level record remains.
    await audit(tx, actor, { organizationId: null, action: 'organization.delete', message: `Organization '${name}' (${organizationId}) deleted` })
  }, LARGE_TRANSACTION)
  emitChange({ organizationId, kind: 'organization', ids: [organizationId] })
  return { organizationId }
}

/** Org/leaveOrganization (memberLeave): a non-owner gives up all their access rights here. */
export async function leaveOrganization(actor: Actor, organizationId: string) {
  const user = requireUserActor(actor)
  requireAccountWrite(user)
  const access = await getOrganizationAccess(actor, organizationId)
  if (access.isOwner) throw invalid('The owner cannot leave the organization; transfer the ownership first')
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.deleteMany({ where: { organizationId, userId: user.userId } })
    await compileUserAcls(tx, user.userId, organizationId)
    // Without access, notifications about this organization would leak its data.
    await tx.subscription.deleteMany({ where: { organizationId, userId: user.userId } })
    await tx.user.updateMany({ where: { id: user.userId, preferenceDefaultOrg: organizationId }, data: { preferenceDefaultOrg: null } })
    await tx.user.updateMany({ where: { id: user.userId, lastOrganizationId: organizationId }, data: { lastOrganizationId: null } })
    await audit(tx, actor, { organizationId, action: 'member.leave', message: `${user.name || user.email} (${user.email}) left the organization` })
  })
  emitChange({ organizationId, kind: 'member', ids: [user.userId] })
  return { organizationId }
}

/** Members holding org.transfer at organization level (the owner included), minus the current user. */
async function transferCandidatesOf(access: OrganizationAccess) {
  const organizationId = access.organization.id
  // one query with the holders as a relation filter: an organization may have thousands of them,
  // too many ids to bind beside the order. The quoted name matches one element of the JSON list.
  const holdsTransfer: Prisma.UserWhereInput = { compiledAcls: { some: { organizationId, projectId: ORG_SCOPE, permissions: { contains: '"org.transfer"' } } } }
  return prisma.user.findMany({
    where: { ...(access.userId ? { NOT: { id: access.userId } } : {}), OR: [{ id: access.organization.ownerId }, holdsTransfer] },
    select: { id: true, name: true, email: true },
  }).then((rows) => rows.sort(byName))
}

/** Eligible new owners for the Transfer Ownership select (empty: 'No other owners available'). */
export async function listTransferCandidates(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.capabilities().canTransfer) return []
  return transferCandidatesOf(access)
}

/**
 * Org/transferOrganization (transferOwner): only the owner holding org.transfer, to a member
 * holding org.transfer. The new owner keeps (or is given) an organization-level role meeting
 * the owner rule; the former owner keeps their access rights as a regular member.
 */
export async function transferOwnership(actor: Actor, organizationId: string, newOwnerId: string | null | undefined) {
  if (!newOwnerId) throw invalid('Please select a new owner', [{ path: 'newOwnerId', message: 'Please select a new owner' }])
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.capabilities().canTransfer) throw accessDenied()
  const candidates = await transferCandidatesOf(access)
  const newOwner = candidates.find((c) => c.id === newOwnerId)
  if (!newOwner) throw invalid('The new owner must be a member holding the transfer permission', [{ path: 'newOwnerId', message: 'Not an eligible owner' }])
  await prisma.$transaction(async (tx) => {
    await tx.organization.update({ where: { id: organizationId }, data: { ownerId: newOwner.id } })
    const orgRoles = await tx.accessRight.findMany({
      where: { organizationId, userId: newOwner.id, projectId: null },
      select: { role: { select: { permissions: true } } },
    })
    const ownerCapable = orgRoles.some((r) => {
      const perms = parseJson<string[]>(r.role.permissions, [])
      return OWNER_REQUIRED_PERMISSIONS.every((p) => perms.includes(p))
    })
    if (!ownerCapable) {
      await tx.accessRight.create({ data: { userId: newOwner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId } })
      await compileUserAcls(tx, newOwner.id, organizationId)
    }
    await audit(tx, actor, {
      organizationId,
      action: 'organization.transfer',
      message: `Ownership transferred from ${actorName(actor)} to ${newOwner.name || newOwner.email} (${newOwner.email})`,
    })
  })
  emitChange({ organizationId, kind: 'organization', ids: [organizationId] })
  return { organizationId, ownerId: newOwner.id }
}

const actorName = (actor: Actor) => (actor.kind === 'user' ? `${actor.name || actor.email} (${actor.email})` : 'system')

/** The Billing tab: status and period (org.billing.view). */
export async function getBilling(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('org.billing.view')
  const org = await prisma.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { billingStatus: true, billingPeriod: true } })
  return { billingStatus: org.billingStatus as BillingStatus, billingPeriod: org.billingPeriod, canRequest: org.billingStatus === 'disabled' }
}

/** Org/billingStatusUpdateRequest: from 'disabled' the user asks for a billing agreement ('requested'). */
export async function requestBilling(actor: Actor, organizationId: string | null | undefined) {
  if (!organizationId) throw invalid('Organization is required', [{ path: 'id', message: 'Organization is required' }])
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('org.billing.view')
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.organization.updateMany({ where: { id: organizationId, billingStatus: 'disabled' }, data: { billingStatus: 'requested' } })
    if (count === 0) throw invalid('A billing agreement can be requested only while billing is disabled')
    await audit(tx, actor, { organizationId, action: 'billing.request', message: 'Billing agreement requested' })
  })
  emitChange({ organizationId, kind: 'organization', ids: [organizationId] })
  return { billingStatus: 'requested' as BillingStatus }
}

export type OrganizationListItem = {
  id: string
  name: string
  description: string
  isDefault: boolean
  isOwner: boolean
  linkTo: string
  projectCount: number | null
  agentCount: number | null
  memberCount: number | null
  capabilities: OrganizationCapabilities
}

/**
 * The organization grid: every organization the user belongs to (in reading order of names), with counts of what this user
 * can see: the projects they may view, the agents they may list (all, or those reporting to their
 * projects) and the members (only with the Members page, org.view). A count is null when the user
 * cannot open the matching page, so the card neither counts nor links it.
 */
export async function listOrganizationsForUser(actor: Actor): Promise<OrganizationListItem[]> {
  const user = requireUserActor(actor)
  const ids = await memberOrganizationIds(user)
  const [profile, orgs] = await Promise.all([
    prisma.user.findUnique({ where: { id: user.userId }, select: { preferenceDefaultOrg: true } }),
    prisma.organization.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, description: true, ownerId: true } }).then((rows) => rows.sort(byName)),
  ])
  return Promise.all(
    orgs.map(async (org) => {
      const [access, projects] = await Promise.all([
        getOrganizationAccess(actor, org.id),
        prisma.project.findMany({ where: { organizationId: org.id }, select: { id: true } }),
      ])
      const capabilities = access.capabilities()
      const agentProjectIds = projects.filter((p) => access.can('project.view', p.id) && access.can('agent.list', p.id)).map((p) => p.id)
      const [agentCount, memberIds] = await Promise.all([
        !capabilities.canListAgents
          ? null
          : prisma.agent.count({
              where: access.can('agent.list') ? { organizationId: org.id } : { organizationId: org.id, systems: { some: { projectId: { in: agentProjectIds } } } },
            }),
        capabilities.canListMembers ? organizationMemberIds(prisma, org.id, org.ownerId) : null,
      ])
      return {
        id: org.id,
        name: org.name,
        description: org.description,
        isDefault: profile?.preferenceDefaultOrg === org.id,
        isOwner: access.isOwner,
        // The bare organization path opens Projects; without that list, the first page this user can open.
        linkTo: `/organization/${org.id}${capabilities.canListProjects ? '' : capabilities.canListAgents ? '/agents' : '/settings'}`,
        projectCount: capabilities.canListProjects ? projects.filter((p) => access.can('project.view', p.id)).length : null,
        agentCount,
        memberCount: memberIds ? memberIds.length : null,
        capabilities,
      }
    }),
  )
}
