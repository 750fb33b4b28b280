import { Prisma } from '@prisma/client'
import { isTrue } from '../fleet/dialect.server'
import { agentOfflineMinutes, isConnected, OFFLINE_MINUTES } from './derived'
import { isPostgres, prisma } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'

/**
 * The presence rule of derived.ts (isConnected with the agent's offline delay) for the database:
 * the delays of a set of agents, and the same rule as SQL for lists that filter, sort and count in
 * the database. docs/decisions/037-one-presence-model.md.
 */

const sql = Prisma.sql

/** Per agent id: its offline delay in minutes (the shortest of its systems' projects). Agents without systems get the default. */
export async function offlineMinutesOf(agentIds: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(agentIds)]
  const rows = await inChunks(unique, (chunk) =>
    prisma.system.findMany({ where: { agentId: { in: chunk } }, select: { agentId: true, project: { select: { offlineAlarmMinutes: true } } } }),
  )
  const delays = new Map<string, (number | null)[]>()
  for (const r of rows) delays.set(r.agentId, [...(delays.get(r.agentId) ?? []), r.project?.offlineAlarmMinutes ?? null])
  return new Map(unique.map((id) => [id, agentOfflineMinutes(delays.get(id) ?? [])]))
}

/** Whether each agent is connected now, by the presence rule. */
export async function presenceOf<A extends { id: string; enabled: boolean | number; lastSeen: Date | string | null }>(agents: readonly A[], now = Date.now()) {
  const minutes = await offlineMinutesOf(agents.map((a) => a.id))
  return new Map(agents.map((a) => [a.id, { connected: isConnected(Boolean(a.enabled), a.lastSeen, now, minutes.get(a.id)), offlineMinutes: minutes.get(a.id)! }]))
}

/**
 * The rule as a SQL condition on the agent row `alias`. The delay is the minimum over the agent's
 * systems (a correlated sub-query on System's agentId index); the cut-off per delay is bound as a
 * parameter, one CASE branch per delay the organization's projects use, so the same text runs on
 * SQLite and PostgreSQL without date arithmetic. Two-valued, so `NOT` of it is the disconnected agents.
 */
export async function presenceSql(organizationId: string | null, now = Date.now(), alias = 'a'): Promise<Prisma.Sql> {
  const projects = await prisma.project.findMany({ where: organizationId ? { organizationId } : {}, distinct: ['offlineAlarmMinutes'], select: { offlineAlarmMinutes: true } })
  const delays = [...new Set([OFFLINE_MINUTES.default, ...projects.map((p) => p.offlineAlarmMinutes)])].sort((x, y) => x - y)
  const a = Prisma.raw(alias)
  // true or false, never NULL: an agent never seen compared as NULL made `NOT connected` (the
  // Disconnected filter, offline counts) skip it
  const seen = sql`${a}."lastSeen" IS NOT NULL`
  const delay = sql`COALESCE((SELECT MIN(COALESCE(pp."offlineAlarmMinutes", ${OFFLINE_MINUTES.default})) FROM "System" ps LEFT JOIN "Project" pp ON pp."id" = ps."projectId" WHERE ps."agentId" = ${a}."id"), ${OFFLINE_MINUTES.default})`
  // PostgreSQL types a parameter in a CASE result as text: cast it to the column's type
  const at = (minutes: number) => (isPostgres() ? sql`CAST(${new Date(now - minutes * 60_000)} AS TIMESTAMP(3))` : sql`${new Date(now - minutes * 60_000)}`)
  // One delay in use (every project on the same one): the CASE below would pick it for every agent,
  // so the correlated sub-query per agent (half the cost of counting 20,000 agents) is left out.
  if (delays.length === 1) return sql`(${isTrue(`${alias}."enabled"`)} AND ${seen} AND ${a}."lastSeen" > ${at(delays[0]!)})`
  const branches = delays.map((m) => sql`WHEN ${m} THEN ${at(m)}`)
  // a delay set meanwhile by another request falls to the strictest cut-off (the shortest delay)
  const cutoff = sql`CASE ${delay} ${Prisma.join(branches, ' ')} ELSE ${at(delays[0]!)} END`
  return sql`(${isTrue(`${alias}."enabled"`)} AND ${seen} AND ${a}."lastSeen" > ${cutoff})`
}
