import { Prisma } from '@prisma/client'
import { presenceSql } from '../agents/presence.server'
import { isIngestChange } from '../events/ingest-origin.server'
import { onChange } from '../events/bus.server'
import { prisma } from '~/utils/db.server'

export type ProjectSystemCounts = {
  total: number
  connected: number
  unknown: number
}

/**
 * How long an organization's per-project system counts are reused. 'Connected' is the presence
 * rule (agents/presence.server.ts), so an agent going quiet shows at most this much later than it
 * would otherwise; every other change drops the entry at once (below).
 */
export const PROJECT_COUNTS_CACHE_MS = 5_000

const sql = Prisma.sql
/** An expired entry older than this is loaded again before answering, not behind (see projectSystemCounts). */
export const PROJECT_COUNTS_REFRESH_BEHIND_MAX_MS = 60_000
type Entry = { at: number; value: Promise<Map<string | null, ProjectSystemCounts>>; settled?: Map<string | null, ProjectSystemCounts>; refreshing?: boolean }
const entries = new Map<string, Entry>()
let listening = false

/**
 * Dropped on any change to the organization's systems, projects or agents (assign, move, enable,
 * remove, enrol), except ingest's own agent changes: a report only moves an agent's last seen,
 * which the time bound above covers; a report that adds a system emits a 'system' change.
 */
function listen() {
  if (listening) return
  listening = true
  onChange((e) => {
    if (e.kind !== 'system' && e.kind !== 'project' && e.kind !== 'organization' && e.kind !== 'agent') return
    if (e.kind === 'agent' && isIngestChange()) return
    if (e.organizationId === null) entries.clear()
    else entries.delete(e.organizationId)
  })
}

/**
 * Per project of the organization (key null: its unassigned systems): the systems of its agents,
 * how many of those agents are connected and how many never reported. One join of every agent of
 * the organization with its systems (~100-300 ms for 20,000 on a busy machine), so the projects
 * list shares it between viewers and requests for a few seconds, and takes both its System(s)
 * column and its totals from it. Callers filter the projects the viewer may see.
 */
export function projectSystemCounts(organizationId: string, now = Date.now()): Promise<Map<string | null, ProjectSystemCounts>> {
  listen()
  const hit = entries.get(organizationId)
  if (hit && now - hit.at < PROJECT_COUNTS_CACHE_MS && now >= hit.at) return hit.value
  // Expired but dropped by no change (decision 062, as the dashboard): it keeps answering while one
  // load in the background replaces it, so no viewer waits for the pass (seconds at load on 20,000
  // agents) once per expiry; only 'connected' may lag, by at most the bound.
  if (hit?.settled && now >= hit.at && now - hit.at < PROJECT_COUNTS_REFRESH_BEHIND_MAX_MS) {
    if (!hit.refreshing) refresh(organizationId, hit, now)
    return Promise.resolve(hit.settled)
  }
  return store(organizationId, loadCounts(organizationId, now), now)
}

function store(organizationId: string, value: Promise<Map<string | null, ProjectSystemCounts>>, now: number) {
  const entry: Entry = { at: now, value }
  entries.set(organizationId, entry)
  value.then(
    (counts) => void (entry.settled = counts),
    () => entries.get(organizationId) === entry && entries.delete(organizationId),
  )
  return value
}

/** Loads an expired entry again; it replaces the entry only if no change dropped that meanwhile. */
function refresh(organizationId: string, stale: Entry, now: number) {
  stale.refreshing = true
  loadCounts(organizationId, now).then(
    (counts) => {
      if (entries.get(organizationId) === stale) entries.set(organizationId, { at: now, value: Promise.resolve(counts), settled: counts })
    },
    // a failed refresh forgets the entry: the next request loads and sees the error
    () => entries.get(organizationId) === stale && entries.delete(organizationId),
  )
}

async function loadCounts(organizationId: string, now: number) {
  const connected = await presenceSql(organizationId, now)
  const rows = await prisma.$queryRaw<
    {
      projectId: string | null
      total: bigint | number
      connected: bigint | number | null
      unknown: bigint | number | null
    }[]
  >(sql`
    SELECT s."projectId" AS "projectId", COUNT(*) AS total,
      SUM(CASE WHEN ${connected} THEN 1 ELSE 0 END) AS connected,
      SUM(CASE WHEN a."lastSeen" IS NULL THEN 1 ELSE 0 END) AS unknown
    FROM "Agent" a JOIN "System" s ON s."agentId" = a."id"
    WHERE a."organizationId" = ${organizationId} GROUP BY s."projectId"`)
  return new Map(
    rows.map((r) => [
      r.projectId,
      {
        total: Number(r.total),
        connected: Number(r.connected ?? 0),
        unknown: Number(r.unknown ?? 0),
      },
    ])
  )
}

/** Forgets every cached count (tests that write rows without a change event). */
export function clearProjectSystemCounts() {
  entries.clear()
}
