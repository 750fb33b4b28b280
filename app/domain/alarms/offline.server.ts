import { Prisma } from '@prisma/client'
import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { SEVERITY } from '../agents/derived'
import { audit } from '../audit/audit.server'
import { accessDenied } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { recordClears } from './clears.server'
import { OFFLINE_ISSUE, OFFLINE_MINUTES } from './state'
import { isTrue } from '../fleet/dialect.server'
import { prisma, isPostgres } from '~/utils/db.server'
import { chunked } from '~/utils/id-chunks'
import { newId } from '~/utils/row-id.server'
import { LARGE_TRANSACTION } from '../large-transaction'
import { startPoller } from '../jobs/poller.server'

/**
 * Offline alarm: an agent not seen for its project's "Offline alarm after" delay gets an 'Agent
 * offline' critical issue on each of its systems (issues belong to systems, and each system's
 * project has its own delay and subscribers); it clears once the agent is seen again.
 *
 * The sweeper runs on every web node. Raising is a conditional write, 200 systems per transaction
 * (an insert that skips a key another node inserted, or an update guarded by isActive = false),
 * so several nodes never raise it twice nor bump the activation twice (decision 098).
 * Notifications follow through the usual 'issue' change event (app/domain/notifications).
 */

/** A system whose agent went silent for longer than its project's delay and has no active offline issue. */
type SilentSystem = { id: string; organizationId: string; minutes: number | bigint; issueId: string | null }
type Raised = { id: string; organizationId: string; systemId: string }

/** Systems raised per transaction: a few statements each, short enough not to hold the write lock long. */
export const RAISE_CHUNK = 200

/**
 * Raises the offline issues of a chunk of systems in one transaction and a few statements: the new
 * issues in one INSERT ... ON CONFLICT DO NOTHING, the reactivations in one UPDATE guarded by
 * isActive = false per offline delay (the message names it), their history in one INSERT.
 *
 * Which write wins: the node whose statement changed the row, told by RETURNING. The other node's
 * statement changes nothing (PostgreSQL waits for the first transaction on the key or row lock and
 * then skips it; SQLite's BEGIN IMMEDIATE serializes the writers), so its transaction commits with
 * nothing raised instead of failing. That matters on SQLite: the process's one connection runs
 * statements from outside a transaction inside whichever transaction is open on it, and an
 * earlier chunked insert failed on the unique key and rolled back, taking the notification rows
 * the delivery poller had just written on the same connection with it (decision 098).
 */
async function raiseChunk(chunk: SilentSystem[], now: Date): Promise<Raised[]> {
  const fresh = chunk.filter((system) => !system.issueId)
  const byMinutes = new Map<number, string[]>()
  for (const system of chunk) if (system.issueId) byMinutes.set(Number(system.minutes), [...(byMinutes.get(Number(system.minutes)) ?? []), system.issueId])
  const won = await prisma.$transaction(async (tx) => {
    const rows: { id: string; systemId: string }[] = []
    if (fresh.length) {
      const values = fresh.map(
        (system) =>
          Prisma.sql`(${newId()}, ${system.id}, ${OFFLINE_ISSUE.kind}, ${OFFLINE_ISSUE.key}, ${OFFLINE_ISSUE.component}, ${message(Number(system.minutes))}, ${SEVERITY.critical}, 1, ${now}, TRUE, 1, '', ${now}, ${now})`,
      )
      rows.push(
        ...(await tx.$queryRaw<{ id: string; systemId: string }[]>(Prisma.sql`
          INSERT INTO "Issue" ("id", "systemId", "kind", "key", "component", "message", "severity", "latestCount", "latestAt", "isActive", "activation", "clearedBy", "createdAt", "updatedAt")
          VALUES ${Prisma.join(values)}
          ON CONFLICT ("systemId", "kind", "key") DO NOTHING RETURNING "id" AS id, "systemId" AS "systemId"`)),
      )
    }
    for (const [minutes, ids] of byMinutes) {
      rows.push(
        ...(await tx.$queryRaw<{ id: string; systemId: string }[]>(Prisma.sql`
          UPDATE "Issue" SET "component" = ${OFFLINE_ISSUE.component}, "message" = ${message(minutes)}, "severity" = ${SEVERITY.critical}, "latestCount" = 1,
            "latestAt" = ${now}, "isActive" = TRUE, "clearedAt" = NULL, "clearedBy" = '', "activation" = "activation" + 1, "updatedAt" = ${now}
          WHERE "id" IN (${Prisma.join(ids)}) AND NOT (${isTrue('"isActive"')})
          RETURNING "id" AS id, "systemId" AS "systemId"`)),
      )
    }
    if (rows.length) {
      await tx.$executeRaw(Prisma.sql`INSERT INTO "IssueHistory" ("id", "issueId", "timestamp", "count") VALUES ${Prisma.join(rows.map((row) => Prisma.sql`(${newId()}, ${row.id}, ${now}, 1)`))}`)
    }
    return rows
  }, LARGE_TRANSACTION)
  const organizationOf = new Map(chunk.map((system) => [system.id, system.organizationId]))
  return won.map((row) => ({ id: row.id, systemId: row.systemId, organizationId: organizationOf.get(row.systemId)! }))
}

/** Tells notification delivery and live views, as ingest does: an 'issue' change naming the systems, one per organization. */
function announce(changes: { organizationId: string | null; systemId: string }[]) {
  const byOrganization = new Map<string | null, string[]>()
  for (const change of changes) byOrganization.set(change.organizationId, [...(byOrganization.get(change.organizationId) ?? []), change.systemId])
  for (const [organizationId, ids] of byOrganization) emitChange({ organizationId, kind: 'issue', ids })
}

/** Agents silent for longer than this are left alone: an upgrade must not raise alarms for long-dead agents. */
const LOOK_BACK_MS = 2 * 86_400_000
export const OFFLINE_SWEEP_MS = 15_000

const message = (minutes: number) => `Agent offline: not seen for ${minutes} minute${minutes === 1 ? '' : 's'}`

/**
 * `now` minus the offline delay of the system's project (`p`, left-joined; the default without
 * one), in the form the database keeps DateTime columns: SQLite ISO text as the driver adapter
 * writes it, PostgreSQL timestamp(3).
 */
function delayCutoff(now: Date): Prisma.Sql {
  const minutes = Prisma.sql`COALESCE(p."offlineAlarmMinutes", ${Prisma.raw(String(OFFLINE_MINUTES.default))})`
  if (isPostgres()) return Prisma.sql`(${now}::timestamp(3) - make_interval(mins => ${minutes}))`
  return Prisma.sql`strftime('%Y-%m-%dT%H:%M:%f+00:00', ${now}, '-' || ${minutes} || ' minutes')`
}

const offlineIssue = Prisma.sql`i."kind" = ${OFFLINE_ISSUE.kind} AND i."key" = ${OFFLINE_ISSUE.key}`

export type SweepResult = { raised: string[]; cleared: string[] }

/**
 * One sweep at `now`: raises and clears offline issues. Returns the issue ids it changed.
 *
 * Both checks are one query each that returns only the systems whose state changes (the presence
 * rule of the Connected tag, agents/derived.ts isConnected, with each project's delay, written in
 * SQL): raising walks the index on Agent.lastSeen over the agents silent for longer than the
 * shortest delay (and at most LOOK_BACK_MS) only, clearing the index
 * on (Issue.kind, key, isActive) over the active offline issues only. Loading every silent system
 * into the process cost 160-200 ms of CPU per sweep on 10,000 agents (issue #26).
 */
export async function sweepOfflineAgents(now = new Date()): Promise<SweepResult> {
  const t = now.getTime()
  const cutoff = delayCutoff(now)
  // The shortest delay any system has bounds the index range from above: with a bound of the
  // smallest allowed delay (1 minute) the range held every healthy agent pinging every few minutes.
  const [shortest] = await prisma.$queryRaw<{ minutes: number | bigint | null }[]>(Prisma.sql`SELECT MIN("offlineAlarmMinutes") AS minutes FROM "Project"`)
  // systems without a project have the default delay
  const minMinutes = Math.max(OFFLINE_MINUTES.min, Math.min(OFFLINE_MINUTES.default, Number(shortest?.minutes ?? OFFLINE_MINUTES.default)))
  const silent = await prisma.$queryRaw<SilentSystem[]>(Prisma.sql`
    SELECT s."id" AS id, a."organizationId" AS "organizationId", COALESCE(p."offlineAlarmMinutes", ${Prisma.raw(String(OFFLINE_MINUTES.default))}) AS minutes, i."id" AS "issueId"
    FROM "Agent" a JOIN "System" s ON s."agentId" = a."id" LEFT JOIN "Project" p ON p."id" = s."projectId"
    LEFT JOIN "Issue" i ON i."systemId" = s."id" AND ${offlineIssue}
    WHERE a."lastSeen" <= ${new Date(t - minMinutes * 60_000)} AND a."lastSeen" >= ${new Date(t - LOOK_BACK_MS)}
      AND a."organizationId" IS NOT NULL AND ${isTrue('a."enabled"')}
      AND a."lastSeen" <= ${cutoff} AND (i."id" IS NULL OR NOT (${isTrue('i."isActive"')}))`)
  const raised: Raised[] = []
  // Chunks in system id order, so two sweepers on PostgreSQL take the keys in the same order (no deadlock).
  // Each chunk is announced once committed: a later chunk failing does not hold back its notifications.
  for (const chunk of chunked([...silent].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)), RAISE_CHUNK)) {
    const won = await raiseChunk(chunk, now)
    announce(won)
    raised.push(...won)
  }

  // Clear: active offline issues whose agent was seen within its delay, or is no longer watched
  // (disabled, or it left the organization).
  const back = await prisma.$queryRaw<{ id: string; systemId: string; organizationId: string | null }[]>(Prisma.sql`
    SELECT i."id" AS id, i."systemId" AS "systemId", a."organizationId" AS "organizationId"
    FROM "Issue" i JOIN "System" s ON s."id" = i."systemId" JOIN "Agent" a ON a."id" = s."agentId" LEFT JOIN "Project" p ON p."id" = s."projectId"
    WHERE ${offlineIssue} AND ${isTrue('i."isActive"')}
      AND (NOT (${isTrue('a."enabled"')}) OR a."organizationId" IS NULL OR a."lastSeen" > ${cutoff})`)
  const cleared: typeof back = []
  // 200 per transaction like the raise: a fleet coming back clears in a few statements. The guarded
  // UPDATE's RETURNING names what this node cleared (another sweeper's clears are skipped, not failed).
  for (const chunk of chunked(back, RAISE_CHUNK)) {
    const won = await prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<{ id: string }[]>(Prisma.sql`
        UPDATE "Issue" SET "isActive" = FALSE, "latestCount" = 0, "latestAt" = ${now}, "updatedAt" = ${now}
        WHERE "id" IN (${Prisma.join(chunk.map((issue) => issue.id))}) AND ${isTrue('"isActive"')} RETURNING "id" AS id`)
      // a count-0 entry ends the activation in the history, so its 'cleared' entry states the outage
      if (rows.length) await tx.$executeRaw(Prisma.sql`INSERT INTO "IssueHistory" ("id", "issueId", "timestamp", "count") VALUES ${Prisma.join(rows.map((row) => Prisma.sql`(${newId()}, ${row.id}, ${now}, 0)`))}`)
      return new Set(rows.map((row) => row.id))
    }, LARGE_TRANSACTION)
    cleared.push(...chunk.filter((issue) => won.has(issue.id)))
  }
  await recordClears(cleared.map((c) => c.id), now)

  announce(cleared)
  return { raised: raised.map((r) => r.id), cleared: cleared.map((c) => c.id) }
}

/** The periodic sweeper of this server process (app/domain/jobs/poller.server.ts); `stop` waits for a sweep in progress. */
export function startOfflineSweeper(intervalMs = OFFLINE_SWEEP_MS): { stop: () => Promise<void> } {
  return startPoller({ name: 'offline sweep', intervalMs, run: () => sweepOfflineAgents() })
}

export const offlineDelayInput = z.object({
  minutes: z.coerce
    .number({ invalid_type_error: 'Enter a number of minutes' })
    .int('Enter whole minutes')
    .min(OFFLINE_MINUTES.min, `At least ${OFFLINE_MINUTES.min} minute`)
    .max(OFFLINE_MINUTES.max, `At most ${OFFLINE_MINUTES.max} minutes (24 hours)`),
})

export async function getOfflineDelay(actor: Actor, organizationId: string, projectId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.hasProject(projectId)) throw accessDenied()
  access.require('project.view', projectId)
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { offlineAlarmMinutes: true } })
  return { minutes: project.offlineAlarmMinutes }
}

/** Project setting "Offline alarm after" (project.update). */
export async function updateOfflineDelay(actor: Actor, organizationId: string, projectId: string, raw: unknown) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.hasProject(projectId)) throw accessDenied()
  access.require('project.update', projectId)
  const { minutes } = parseInput(offlineDelayInput, raw)
  const project = await prisma.$transaction(async (tx) => {
    const before = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { offlineAlarmMinutes: true, name: true } })
    await tx.project.update({ where: { id: projectId }, data: { offlineAlarmMinutes: minutes } })
    await audit(tx, actor, { organizationId, projectId, action: 'project.update', message: `Project '${before.name}' offline alarm after ${before.offlineAlarmMinutes} -> ${minutes} minutes` })
    return before
  })
  emitChange({ organizationId, kind: 'project', ids: [projectId] })
  return { projectId, minutes, previous: project.offlineAlarmMinutes }
}
