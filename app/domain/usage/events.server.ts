import { z } from 'zod'
import { type Actor } from '../actor'
import { requireOrganizationPermission } from '../access/access.server'
import { invalid } from '../errors'
import { parseInput } from '../parse-input'
import { parseJson, prisma } from '~/utils/db.server'

export const EVENTS_PAGE_SIZE = 50
const EVENTS_PAGE_MAX = 200

export type AgentEventView = {
  id: string
  type: string
  created: Date
  agentId: string
  agentName: string
  systemId: string | null
  systemName: string | null
  /** empty = unassigned */
  projects: { id: string; name: string }[]
}

export type AgentEventPage = { events: AgentEventView[]; nextCursor: string | null }

const pageInput = z.object({
  cursor: z.string().min(1).max(64).nullish(),
  limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_MAX).default(EVENTS_PAGE_SIZE),
})

/**
 * The organization's metric events log (org.events.view): newest first, `limit` per page.
 * `cursor` is the id of the last event of the previous page; `nextCursor` is null at the end.
 */
export async function listAgentEvents(actor: Actor, organizationId: string, raw: { cursor?: string | null; limit?: number | string } = {}): Promise<AgentEventPage> {
  await requireOrganizationPermission(actor, organizationId, 'org.events.view')
  const { cursor, limit } = parseInput(pageInput, raw)
  if (cursor && !(await prisma.agentEvent.findFirst({ where: { id: cursor, organizationId }, select: { id: true } }))) {
    throw invalid('Unknown page cursor', [{ path: 'cursor', message: 'Unknown page cursor' }])
  }
  const rows = await prisma.agentEvent.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    ...(cursor ? { cursor: { id: cursor }, skip: 1 } : {}),
    include: { agent: { select: { clientName: true } } },
  })
  const page = rows.slice(0, limit)
  const systemIds = [...new Set(page.map((e) => e.systemId).filter((id): id is string => Boolean(id)))]
  const projectIds = [...new Set(page.flatMap((e) => parseJson<string[]>(e.projectIds, [])))]
  const [systems, projects] = await Promise.all([
    systemIds.length ? prisma.system.findMany({ where: { id: { in: systemIds } }, select: { id: true, name: true, key: true } }) : [],
    projectIds.length ? prisma.project.findMany({ where: { id: { in: projectIds }, organizationId }, select: { id: true, name: true } }) : [],
  ])
  const systemName = new Map(systems.map((s) => [s.id, s.name || s.key]))
  const projectName = new Map(projects.map((p) => [p.id, p.name]))
  return {
    events: page.map((e) => ({
      id: e.id,
      type: e.type,
      created: e.createdAt,
      agentId: e.agentId,
      agentName: e.agent.clientName || e.agentId,
      systemId: e.systemId,
      systemName: e.systemId ? (systemName.get(e.systemId) ?? e.systemId) : null,
      // Projects deleted since the event are left out.
      projects: parseJson<string[]>(e.projectIds, []).flatMap((id) => (projectName.has(id) ? [{ id, name: projectName.get(id)! }] : [])),
    })),
    nextCursor: rows.length > limit ? page.at(-1)!.id : null,
  }
}
