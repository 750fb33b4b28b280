import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { type Permission } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { accessDenied, DomainError, fromZodIssues, invalid, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { containsIgnoringCase, prisma } from '~/utils/db.server'
import { systemsInProjectsOf } from '../fleet/scope.server'
import { agentOfflineMinutes, isConnected } from './derived'

const agentName = (agent: { clientName: string; id: string }) => agent.clientName || agent.id

/** The agent, enrolled in this organization, with its systems; 404 otherwise. */
async function loadOrganizationAgent(organizationId: string, agentId: string) {
  const agent = await prisma.agent.findFirst({
    where: { id: agentId, organizationId },
    include: { systems: { select: { id: true, key: true, name: true, projectId: true } } },
  })
  if (!agent) throw notFound('Agent not found')
  return agent
}

/** Organization-wide, or on at least one project the agent's systems report to. */
function canOnAgent(access: OrganizationAccess, permission: Permission, systems: { projectId: string | null }[]) {
  return access.can(permission) || systems.some((s) => s.projectId && access.can(permission, s.projectId))
}

const projectName = async (projectId: string | null) =>
  projectId ? ((await prisma.project.findUnique({ where: { id: projectId }, select: { name: true } }))?.name ?? projectId) : '(None)'

export const assignSystemInput = z.object({
  organizationId: z.string().min(1),
  agentId: z.string().min(1),
  systemId: z.string().min(1),
  /** null (or '') = '(None)': the system is unassigned */
  projectId: z
    .string()
    .nullable()
    .optional()
    .transform((v) => v || null),
})

/**
 * project/systemAssign (Org/assignProjectSystem): moves one system to a project or to '(None)'.
 * Needs agent.assignToProject on the target project and, when moving away, on the current one.
 */
export async function assignSystemToProject(actor: Actor, raw: unknown) {
  const parsed = assignSystemInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { organizationId, agentId, systemId, projectId } = parsed.data
  const access = await getOrganizationAccess(actor, organizationId)
  const agent = await loadOrganizationAgent(organizationId, agentId)
  const system = agent.systems.find((s) => s.id === systemId || s.key === systemId)
  if (!system) throw notFound('System not found')
  if (projectId && !access.hasProject(projectId)) throw new DomainError('not-found', `No such project ${projectId} in org ${access.organization.name}`, 404)
  if (projectId) access.require('agent.assignToProject', projectId)
  if (system.projectId) access.require('agent.assignToProject', system.projectId)
  if (!projectId && !system.projectId) access.require('agent.assignToProject')
  if (system.projectId === projectId) return { systemId: system.id, projectId }

  const [from, to] = await Promise.all([projectName(system.projectId), projectName(projectId)])
  await prisma.$transaction(async (tx) => {
    await tx.system.update({ where: { id: system.id }, data: { projectId } })
    await audit(tx, actor, {
      organizationId,
      projectId: projectId ?? system.projectId,
      action: projectId ? 'system.assign' : 'system.unassign',
      message: projectId
        ? `Assigned system ${system.name || system.key} of agent ${agentName(agent)} to project ${to}` + (system.projectId ? ` (was ${from})` : '')
        : `Unassigned system ${system.name || system.key} of agent ${agentName(agent)} from project ${from}`,
    })
  })
  emitChange({ organizationId, kind: 'system', ids: [system.id] })
  emitChange({ organizationId, kind: 'agent', ids: [agent.id] })
  return { systemId: system.id, projectId }
}

export const removeAgentInput = z.object({ organizationId: z.string().min(1), agentId: z.string().min(1) })

/**
 * agent/remove (Org/removeOrganizationAgent): takes an enrolled agent out of the organization and
 * unassigns its systems. Needs agent.delete. To move it elsewhere it must be enrolled again.
 */
export async function removeAgentFromOrganization(actor: Actor, raw: unknown) {
  const parsed = removeAgentInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { organizationId, agentId } = parsed.data
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('agent.delete')
  const agent = await loadOrganizationAgent(organizationId, agentId)
  await prisma.$transaction(async (tx) => {
    await tx.system.updateMany({ where: { agentId }, data: { projectId: null } })
    await tx.agent.update({ where: { id: agentId }, data: { organizationId: null, enrolledAt: null, defaultProjectId: null } })
    await audit(tx, actor, { organizationId, action: 'agent.remove', message: `Removed agent ${agentName(agent)} from the organization` })
  })
  // The broker republishes the agent's config on 'agent' changes: the agent learns it is no longer enrolled.
  emitChange({ organizationId, kind: 'agent', ids: [agentId] })
  emitChange({ organizationId, kind: 'system' })
  return { removed: true }
}

export const updateLocationInput = z.object({
  organizationId: z.string().min(1),
  agentId: z.string().min(1),
  useLocationMode: z.enum(['geoip', 'manual']),
  locationManual: z
    .object({
      lati: z.number({ invalid_type_error: 'Latitude must be a number', required_error: 'Latitude is required' }).min(-90, 'Latitude must be between -90 and 90').max(90, 'Latitude must be between -90 and 90'),
      long: z.number({ invalid_type_error: 'Longitude must be a number', required_error: 'Longitude is required' }).min(-180, 'Longitude must be between -180 and 180').max(180, 'Longitude must be between -180 and 180'),
    })
    .optional(),
})

/**
 * agent/locationUpdate: 'Use Automatic' (geoip) or 'Use Manual' with a point picked on the map.
 * An agent setting, so it needs agent.assignToProject for the organization or one of the agent's projects.
 */
export async function updateAgentLocation(actor: Actor, raw: unknown) {
  const parsed = updateLocationInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { organizationId, agentId, useLocationMode, locationManual } = parsed.data
  const access = await getOrganizationAccess(actor, organizationId)
  const agent = await loadOrganizationAgent(organizationId, agentId)
  if (!canOnAgent(access, 'agent.assignToProject', agent.systems)) throw accessDenied()
  const manual = locationManual ?? (agent.locationManualLat !== null && agent.locationManualLong !== null ? { lati: agent.locationManualLat, long: agent.locationManualLong } : null)
  if (useLocationMode === 'manual' && !manual) throw invalid('Pick a point on the map', [{ path: 'locationManual', message: 'Pick a point on the map' }])
  await prisma.$transaction(async (tx) => {
    await tx.agent.update({
      where: { id: agentId },
      data: { useLocationMode, ...(locationManual ? { locationManualLat: locationManual.lati, locationManualLong: locationManual.long } : {}) },
    })
    await audit(tx, actor, {
      organizationId,
      action: 'agent.location',
      message:
        useLocationMode === 'manual'
          ? `Set the location of agent ${agentName(agent)} manually to ${manual!.lati.toFixed(4)}, ${manual!.long.toFixed(4)}`
          : `Set the location of agent ${agentName(agent)} to automatic (geoip)`,
    })
  })
  emitChange({ organizationId, kind: 'agent', ids: [agentId] })
  return { useLocationMode, locationManual: manual }
}

export const listAgentsInput = z.object({
  /** case-insensitive substring of the name, serial or product */
  filter: z.string().trim().max(200).optional(),
  limit: z.number().int().min(1).max(500).default(100),
  /** id of the last agent of the previous page */
  cursor: z.string().optional(),
})

export type AgentListItem = {
  id: string
  name: string
  product: string
  serial: string
  version: string
  isConnected: boolean
  /** minutes without a report after which it is offline and its offline alarm raised (presence rule, derived.ts) */
  offlineAfterMinutes: number
  lastSeen: string | null
  enrolledAt: string | null
  systems: { id: string; key: string; name: string; projectId: string | null; projectName: string | null }[]
}

/**
 * agent/list: the organization's agents, by name, a page at a time (the CLI and simple lists; the
 * full agents table has its own loader). Organization-wide agent.list sees every agent; a project
 * grant sees the agents with a system in such a project.
 */
export async function listAgents(actor: Actor, organizationId: string, raw: unknown = {}): Promise<{ agents: AgentListItem[]; nextCursor: string | null }> {
  const parsed = listAgentsInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { filter, limit, cursor } = parsed.data
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.canAnywhere('agent.list')) throw accessDenied()
  const allProjectIds = access.can('agent.list') ? null : (await prisma.project.findMany({ where: { organizationId }, select: { id: true } })).map((p) => p.id)
  // a member's projects may number thousands: bound as the shorter of the list and its complement
  const inProjects = allProjectIds && systemsInProjectsOf(organizationId, allProjectIds, allProjectIds.filter((id) => access.can('agent.list', id)))

  const rows = await prisma.agent.findMany({
    where: {
      organizationId,
      ...(inProjects ? { systems: { some: inProjects } } : {}),
      ...(filter ? { OR: [{ clientName: containsIgnoringCase(filter) }, { serial: containsIgnoringCase(filter) }, { product: containsIgnoringCase(filter) }] } : {}),
    },
    include: { systems: { select: { id: true, key: true, name: true, projectId: true, project: { select: { name: true, offlineAlarmMinutes: true } } }, orderBy: { key: 'asc' } } },
    orderBy: [{ clientName: 'asc' }, { id: 'asc' }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
  })
  const page = rows.slice(0, limit)
  const now = Date.now()
  const item = (a: (typeof page)[number], offlineAfterMinutes: number): AgentListItem => ({
    id: a.id,
    name: a.clientName,
    product: a.product,
    serial: a.serial,
    version: a.version,
    isConnected: isConnected(a.enabled, a.lastSeen, now, offlineAfterMinutes),
    offlineAfterMinutes,
    lastSeen: a.lastSeen?.toISOString() ?? null,
    enrolledAt: a.enrolledAt?.toISOString() ?? null,
    systems: a.systems.map((s) => ({ id: s.id, key: s.key, name: s.name, projectId: s.projectId, projectName: s.project?.name ?? null })),
  })
  return {
    agents: page.map((a) => item(a, agentOfflineMinutes(a.systems.map((s) => s.project?.offlineAlarmMinutes)))),
    nextCursor: rows.length > limit ? page[page.length - 1].id : null,
  }
}
