/**
 * Admin > Agents (spec 01 sections 2, 7, 9): every agent across organizations for site admins,
 * by name, with a word filter and keyset paging. Removal goes through the organization's own
 * agent removal (removeAgentFromOrganization), which site admins pass and which audits it.
 */
import { z } from 'zod'
import { type Actor } from '../actor'
import { ENROLLMENT_CODE_VALIDITY_MS, formatEnrollmentCode } from '../agents/enrollment-code'
import { parseInput } from '../parse-input'
import { listTunnelConnections } from '../relay/tunnels.server'
import { containsIgnoringCase, prisma } from '~/utils/db.server'
import { decodePageToken, encodePageToken } from './keyset-page-token'
import { requireSiteAdminActor } from './users-admin.server'

/** Spec 01 section 9: admin agents load 20 at a time. */
export const ADMIN_AGENTS_PAGE_SIZE = 20
/** Codes shown per agent in the expanded row (newest first). */
const CODES_SHOWN = 5

export const listAgentsInput = z.object({
  limit: z.number().int().min(1).max(100).default(ADMIN_AGENTS_PAGE_SIZE),
  pageToken: z.string().nullish(),
  filter: z.string().max(200, 'The filter is too long').default(''),
})

/** The filter's words: split on whitespace, empty parts dropped; an agent matching any word is listed. */
export const filterWords = (filter: string) => filter.split(/\s+/).filter(Boolean).slice(0, 20)

export type AdminAgentView = {
  id: string
  clientName: string
  product: string
  version: string
  enabled: boolean
  organizationId: string | null
  organizationName: string | null
  enrollmentCodes: { code: string; created: string; current: boolean }[]
}

/**
 * admin/agents: agents by name (then id). The filter matches names containing any of its words,
 * case-insensitively (SQLite LIKE folds ASCII letters; names are compared as stored otherwise).
 */
export async function listAdminAgents(actor: Actor, raw: unknown): Promise<{ items: AdminAgentView[]; nextPageToken: string | null }> {
  requireSiteAdminActor(actor)
  const { limit, pageToken, filter } = parseInput(listAgentsInput, raw)
  const after = pageToken ? decodePageToken(pageToken) : null
  const words = filterWords(filter)
  const rows = await prisma.agent.findMany({
    where: {
      AND: [
        words.length ? { OR: words.map((w) => ({ clientName: containsIgnoringCase(w) })) } : {},
        after ? { OR: [{ clientName: { gt: after.k } }, { clientName: after.k, id: { gt: after.id } }] } : {},
      ],
    },
    orderBy: [{ clientName: 'asc' }, { id: 'asc' }],
    take: limit + 1,
    select: {
      id: true,
      clientName: true,
      product: true,
      version: true,
      enabled: true,
      organizationId: true,
      organization: { select: { name: true } },
      applications: { orderBy: { createdAt: 'desc' }, take: CODES_SHOWN, select: { code: true, createdAt: true, usedAt: true } },
    },
  })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const now = Date.now()
  return {
    items: page.map((a) => ({
      id: a.id,
      clientName: a.clientName,
      product: a.product,
      version: a.version,
      enabled: a.enabled,
      organizationId: a.organizationId,
      organizationName: a.organization?.name ?? null,
      // Only the newest code can enroll, once, within 14 days, and only while the agent is not enrolled.
      enrollmentCodes: a.applications.map((c, i) => ({
        code: formatEnrollmentCode(c.code),
        created: c.createdAt.toISOString(),
        current: i === 0 && !c.usedAt && !a.organizationId && now - c.createdAt.getTime() <= ENROLLMENT_CODE_VALIDITY_MS,
      })),
    })),
    nextPageToken: rows.length > limit && last ? encodePageToken({ k: last.clientName, id: last.id }) : null,
  }
}

export const tunnelConnectionsInput = z.object({ agentId: z.string().min(1) })

/** admin/tunnelConnections: the agent's open tunnels (address, port, since, last seen, forwards). */
export async function listAdminTunnelConnections(actor: Actor, raw: unknown) {
  requireSiteAdminActor(actor)
  const { agentId } = parseInput(tunnelConnectionsInput, raw)
  return { items: await listTunnelConnections(actor, agentId) }
}
