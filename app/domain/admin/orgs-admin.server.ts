/**
 * Site-administrator reads and changes of organizations (spec 01 section 2, "Organizations list"
 * and "Organization detail"). Every function refuses anyone without the admin claim, cloud.admin
 * holders and organization owners included: these screens cross organization boundaries.
 */
import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { audit } from '../audit/audit.server'
import { accessDenied, invalid, notFound, notLoggedIn } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { parseJson, prisma } from '~/utils/db.server'
import { byName, sortedByName } from '~/utils/name-order'

export const BILLING_STATUSES = ['disabled', 'requested', 'enabled', 'suspended', 'internal'] as const
export const BILLING_PERIODS = ['monthly', 'quarterly', 'yearly', 'custom'] as const
export const ORGS_PAGE_SIZE = 20
export const CLIENTS_PAGE_SIZE = 20
export const EVENTS_PAGE_SIZE = 20

/** The admin claim, nothing else: the one gate of every admin organization call. */
export function requireStaff(actor: Actor | null | undefined): UserActor {
  if (!actor) throw notLoggedIn()
  if (actor.kind !== 'user' || !actor.isSiteAdmin) throw accessDenied()
  return actor
}

export const requireOrganizationId = (id: unknown): string => {
  if (typeof id !== 'string' || !id.trim()) throw invalid('Organization ID is required', [{ path: 'organizationId', message: 'Organization ID is required' }])
  return id
}

export const pageSchema = (max: number, size: number) =>
  z.object({ limit: z.coerce.number().int().min(1).max(max).default(size), pageToken: z.string().max(64).nullish() })

/** A page of rows fetched with one extra row: `nextPageToken` is the last id when more exist. */
function pageOf<T extends { id: string }>(rows: T[], limit: number) {
  const items = rows.slice(0, limit)
  return { items, nextPageToken: rows.length > limit ? items.at(-1)!.id : null }
}

export type AdminOrgRow = {
  id: string
  name: string
  ownerId: string
  ownerName: string
  billingStatus: string
  billingPeriod: string
  createdAt: Date
}

/** admin/orgs: every organization by name, 20 per page. */
export async function listOrgsAdmin(actor: Actor | null, raw: unknown) {
  requireStaff(actor)
  const { limit, pageToken } = parseInput(pageSchema(100, ORGS_PAGE_SIZE), raw ?? {})
  const rows = await prisma.organization.findMany({
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
    take: limit + 1,
    ...(pageToken ? { cursor: { id: pageToken }, skip: 1 } : {}),
    select: { id: true, name: true, ownerId: true, billingStatus: true, billingPeriod: true, createdAt: true, owner: { select: { name: true, email: true } } },
  })
  const page = pageOf(rows, limit)
  return {
    items: page.items.map(({ owner, ...o }): AdminOrgRow => ({ ...o, ownerName: owner.name || owner.email || o.ownerId })),
    nextPageToken: page.nextPageToken,
  }
}

/** The header of the organization detail. */
export async function getOrgAdmin(actor: Actor | null, organizationId: unknown) {
  requireStaff(actor)
  const id = requireOrganizationId(organizationId)
  const org = await prisma.organization.findUnique({
    where: { id },
    select: {
      id: true,
      name: true,
      description: true,
      ownerId: true,
      billingStatus: true,
      billingPeriod: true,
      createdAt: true,
      owner: { select: { name: true, email: true } },
      projects: { select: { id: true, name: true, parentId: true } },
      _count: { select: { agents: true, projects: true, accessRights: true } },
    },
  })
  if (!org) throw notFound('Organization not found')
  const { owner, _count, ...rest } = org
  return { ...rest, projects: rest.projects.sort(byName), ownerName: owner.name || owner.email, agentCount: _count.agents, projectCount: _count.projects }
}

export const billingInput = z.object({
  organizationId: z.string().nullish(),
  status: z.enum(BILLING_STATUSES, { errorMap: () => ({ message: 'Unknown billing status' }) }),
  period: z.enum(BILLING_PERIODS, { errorMap: () => ({ message: 'Unknown billing period' }) }),
})

/** admin/updateOrgBillingStatus: staff set any status and period directly (spec 01 section 4). */
export async function updateOrgBillingStatus(actor: Actor | null, raw: unknown) {
  const staff = requireStaff(actor)
  const input = parseInput(billingInput, raw)
  const organizationId = requireOrganizationId(input.organizationId)
  await prisma.$transaction(async (tx) => {
    const before = await tx.organization.findUnique({ where: { id: organizationId }, select: { billingStatus: true, billingPeriod: true } })
    if (!before) throw notFound('Organization not found')
    await tx.organization.update({ where: { id: organizationId }, data: { billingStatus: input.status, billingPeriod: input.period } })
    await audit(tx, staff, {
      organizationId,
      action: 'billing.status',
      message: `Billing status set to ${input.status} / ${input.period} (was ${before.billingStatus} / ${before.billingPeriod})`,
    })
  })
  emitChange({ organizationId, kind: 'organization', ids: [organizationId] })
  return { organizationId, billingStatus: input.status, billingPeriod: input.period }
}

export const orgClientsInput = pageSchema(100, CLIENTS_PAGE_SIZE).extend({ orgId: z.string().nullish() })

/** admin/orgClients: the organization's agents by name, with every raw field the expanded row shows. */
export async function listOrgClients(actor: Actor | null, raw: unknown) {
  requireStaff(actor)
  const input = parseInput(orgClientsInput, raw ?? {})
  const organizationId = requireOrganizationId(input.orgId)
  const rows = await prisma.agent.findMany({
    where: { organizationId },
    orderBy: [{ clientName: 'asc' }, { id: 'asc' }],
    take: input.limit + 1,
    ...(input.pageToken ? { cursor: { id: input.pageToken }, skip: 1 } : {}),
    omit: { secretHash: true, config: true },
    include: { _count: { select: { systems: true } } },
  })
  const page = pageOf(rows, input.limit)
  return { items: page.items.map(({ _count, ...a }) => ({ ...a, systemsCount: _count.systems })), nextPageToken: page.nextPageToken }
}

export const clientSystemsInput = z.object({ agentId: z.string().min(1, 'Agent ID is required') })

/** admin/clientSystems: one agent's systems, loaded when its row is expanded. */
export async function listClientSystems(actor: Actor | null, raw: unknown) {
  requireStaff(actor)
  const { agentId } = parseInput(clientSystemsInput, raw)
  const systems = await prisma.system.findMany({
    where: { agentId },
    orderBy: [{ name: 'asc' }, { key: 'asc' }], // then in reading order below (ties keep the key order)
    select: {
      id: true,
      key: true,
      name: true,
      alertsCount: true,
      deviationsCount: true,
      updatedAt: true,
      project: { select: { id: true, name: true } },
      _count: { select: { devices: true } },
    },
  })
  return { items: sortedByName(systems, (s) => s.name).map(({ _count, ...s }) => ({ ...s, devicesCount: _count.devices })) }
}

export const orgEventsInput = pageSchema(200, EVENTS_PAGE_SIZE).extend({ orgId: z.string().nullish() })

/** admin/orgEvents: the organization's raw agent events, newest first, 20 per page. */
export async function listOrgEventsAdmin(actor: Actor | null, raw: unknown) {
  requireStaff(actor)
  const input = parseInput(orgEventsInput, raw ?? {})
  const organizationId = requireOrganizationId(input.orgId)
  const rows = await prisma.agentEvent.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: input.limit + 1,
    ...(input.pageToken ? { cursor: { id: input.pageToken }, skip: 1 } : {}),
    include: { agent: { select: { clientName: true } } },
  })
  const page = pageOf(rows, input.limit)
  const systemIds = [...new Set(page.items.map((e) => e.systemId).filter((s): s is string => !!s))]
  const projectIds = [...new Set(page.items.flatMap((e) => parseJson<string[]>(e.projectIds, [])))]
  const [systems, projects] = await Promise.all([
    prisma.system.findMany({ where: { id: { in: systemIds } }, select: { id: true, key: true } }),
    prisma.project.findMany({ where: { id: { in: projectIds } }, select: { id: true, name: true } }),
  ])
  const systemKey = new Map(systems.map((s) => [s.id, s.key]))
  const projectName = new Map(projects.map((p) => [p.id, p.name]))
  return {
    items: page.items.map((e) => ({
      id: e.id,
      type: e.type,
      agentId: e.agentId,
      agentName: e.agent.clientName || e.agentId,
      // The system id the agent reports (its key), falling back to our row id.
      systemId: e.systemId ? (systemKey.get(e.systemId) ?? e.systemId) : null,
      projects: parseJson<string[]>(e.projectIds, []).map((id) => ({ id, name: projectName.get(id) ?? id })),
      created: e.createdAt,
    })),
    nextPageToken: page.nextPageToken,
  }
}
