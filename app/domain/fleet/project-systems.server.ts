import { Prisma } from '@prisma/client'
import { type Actor } from '../actor'
import { presenceOf } from '../agents/presence.server'
import { isPostgres, prisma } from '~/utils/db.server'
import { cachedOrgRead, visibilityKey } from './org-read-cache.server'
import { projectSystemCounts } from './project-system-counts.server'
import { loadFleetScope } from './scope.server'

export type SystemTag = {
  id: string
  name: string
  agentId: string
  agentName: string
  /** unknown: the agent never reported */
  state: 'connected' | 'disconnected' | 'unknown'
  lastSeen: string | null
}

/** A project's System(s) cell: the first tags by name, and counts of all its systems. */
export type ProjectSystemTags = { tags: SystemTag[]; total: number; connected: number; unknown: number }

/** Tags listed per project; beyond it the cell shows counts and links to the project's Agents tab. */
export const SYSTEM_TAGS_PER_PROJECT = 6

const sql = Prisma.sql
const toDate = (v: Date | string | number | null) => (v === null ? null : v instanceof Date ? v : new Date(v))

/**
 * The projects list's System(s) column (spec 02 section 2): per project its systems' counts and the
 * first few systems with their agent's name, connection state and last seen; only projects the
 * viewer may view. A project holding thousands of systems costs a dozen tags, not thousands.
 */
export async function projectSystemTags(actor: Actor, organizationId: string): Promise<Record<string, ProjectSystemTags>> {
  const scope = await loadFleetScope(actor, organizationId, 'project.view')
  const ids = scope.viewableProjectIds
  if (!ids.length) return {}
  // Shared like the dashboard's figures (decision 016): every viewer seeing the same projects gets
  // one answer for ORG_READ_CACHE_MS, dropped by any change a person makes. Not by each report: a
  // reporting fleet would drop it every few milliseconds; 'connected' and 'last seen' lag by at most
  // the bound, as the counts beside them do.
  return cachedOrgRead(organizationId, `project-system-tags:${visibilityKey(scope)}`, () => loadTags(organizationId, ids))
}

async function loadTags(organizationId: string, ids: string[]): Promise<Record<string, ProjectSystemTags>> {
  const now = Date.now()
  const [rows, counts] = await Promise.all([
    // per project one range of the (projectId, name, key, id) index; a window over every system
    // sorted all of them (130 ms for 10,000). PostgreSQL ran the IN sub-query once per system of
    // the service and project (minutes at 100,000 systems), so there it is a LATERAL join.
    prisma.$queryRaw<{ id: string; key: string; name: string; projectId: string; agentId: string; agentName: string; enabled: number | boolean; lastSeen: Date | string | null }[]>(
      isPostgres()
        ? sql`
      SELECT s."id" AS id, s."key" AS key, s."name" AS name, s."projectId" AS "projectId", a."id" AS "agentId", a."clientName" AS "agentName",
        a."enabled" AS enabled, a."lastSeen" AS "lastSeen"
      FROM "Project" p CROSS JOIN LATERAL (
        SELECT s2."id", s2."key", s2."name", s2."projectId", s2."agentId" FROM "System" s2 WHERE s2."projectId" = p."id" ORDER BY s2."name", s2."key", s2."id" LIMIT ${SYSTEM_TAGS_PER_PROJECT}
      ) s JOIN "Agent" a ON a."id" = s."agentId"
      WHERE p."id" IN (${Prisma.join(ids)}) ORDER BY s."projectId", s."name", s."key", s."id"`
        : sql`
      SELECT s."id" AS id, s."key" AS key, s."name" AS name, s."projectId" AS "projectId", a."id" AS "agentId", a."clientName" AS "agentName",
        a."enabled" AS enabled, a."lastSeen" AS "lastSeen"
      FROM "Project" p JOIN "System" s ON s."id" IN (
        SELECT s2."id" FROM "System" s2 WHERE s2."projectId" = p."id" ORDER BY s2."name", s2."key", s2."id" LIMIT ${SYSTEM_TAGS_PER_PROJECT}
      ) JOIN "Agent" a ON a."id" = s."agentId"
      WHERE p."id" IN (${Prisma.join(ids)}) ORDER BY s."projectId", s."name", s."key", s."id"`,
    ),
    projectSystemCounts(organizationId, now),
  ])
  const result: Record<string, ProjectSystemTags> = {}
  for (const id of ids) {
    const c = counts.get(id)
    if (c) result[id] = { tags: [], ...c }
  }
  const presence = await presenceOf(rows.map((s) => ({ id: s.agentId, enabled: s.enabled, lastSeen: toDate(s.lastSeen) })), now)
  for (const s of rows) {
    const lastSeen = toDate(s.lastSeen)
    result[s.projectId]?.tags.push({
      id: s.id,
      name: s.name || s.key,
      agentId: s.agentId,
      agentName: s.agentName || s.agentId,
      state: lastSeen === null ? 'unknown' : presence.get(s.agentId)!.connected ? 'connected' : 'disconnected',
      lastSeen: lastSeen?.toISOString() ?? null,
    })
  }
  return result
}
