import { Prisma } from '@prisma/client'
import { recordClears } from '../alarms/clears.server'
import { queueResolved } from './follow-ups.server'
import { isPostgres, prisma } from '~/utils/db.server'
import { chunked, inChunks } from '~/utils/id-chunks'

/**
 * The end of an activation, told even when its change event was lost (decision 104). When an
 * alarm clears, its 'cleared' thread entry is recorded (alarms/clears.server.ts) and the people
 * told about it get their resolved message (follow-ups.server.ts), both on ingest's change event.
 * That event lives in memory: a process that died between ingest's commit and the evaluation left
 * the clear without either. `Issue.clearEvaluated` names the activation whose clear was evaluated;
 * an inactive issue below its activation still has to be, and the minute's check finds those
 * through a partial index (migration issue_clear_evaluated). Recording and queueing are idempotent,
 * and the mark comes last, so a process that dies anywhere in between leaves the clear to the next
 * check: told once, never lost.
 */

/** How many unevaluated clears one check takes on (the rest wait for the next). */
export const UNEVALUATED_CLEARS_PER_CHECK = 2000

type Cleared = { id: string; activation: number }

/** Records and tells the clears among the issues of these systems (or these issue ids); returns how many e-mails were queued. */
export async function evaluateClears(ids: readonly string[], now = new Date()): Promise<number> {
  const unique = [...new Set(ids)]
  if (!unique.length) return 0
  // read first: the mark below covers only the activations seen here, not one that began since
  const pending = await inChunks(unique, (chunk) =>
    prisma.issue.findMany({
      where: { isActive: false, clearEvaluated: { lt: prisma.issue.fields.activation }, OR: [{ systemId: { in: chunk } }, { id: { in: chunk } }] },
      select: { id: true, activation: true },
    }),
  )
  await recordClears(unique, now)
  const queued = await queueResolved(unique, now)
  await markClearEvaluated(pending)
  return queued
}

/** Marks these activations' clears evaluated, each only while the issue is still inactive in it. */
async function markClearEvaluated(issues: readonly Cleared[]) {
  const byActivation = new Map<number, string[]>()
  for (const { id, activation } of issues) {
    const ids = byActivation.get(activation) ?? []
    ids.push(id)
    byActivation.set(activation, ids)
  }
  for (const [activation, ids] of byActivation) {
    for (const chunk of chunked([...new Set(ids)])) {
      await prisma.issue.updateMany({ where: { id: { in: chunk }, activation, isActive: false }, data: { clearEvaluated: activation } })
    }
  }
}

/**
 * The inactive issues whose clear was never evaluated, evaluated now. The WHERE clause repeats
 * the partial index's own (literal values: SQLite uses a partial index only for the same terms),
 * so the check reads those few rows, not every inactive issue. Returns how many were evaluated.
 */
export async function evaluateLostClears(now = new Date()): Promise<number> {
  const rows = await prisma.$queryRaw<{ id: string }[]>(Prisma.sql`${Prisma.raw(UNEVALUATED_CLEARS_QUERY())} LIMIT ${UNEVALUATED_CLEARS_PER_CHECK}`)
  if (!rows.length) return 0
  await evaluateClears(
    rows.map((row) => row.id),
    now,
  )
  return rows.length
}

/** The partial index that serves evaluateLostClears (its name in both migrations). */
export const UNEVALUATED_CLEAR_INDEX = 'Issue_clear_unevaluated_idx'

/**
 * The lost clears, through their partial index: its condition as the migrations write it (keep
 * them in step). SQLite's planner, without statistics, would rather read every inactive issue by
 * the (isActive, severity) index; INDEXED BY holds it to this one (and fails loudly, not slowly,
 * should the condition and the index ever drift apart).
 */
export const UNEVALUATED_CLEARS_QUERY = () =>
  isPostgres()
    ? 'SELECT "id" FROM "Issue" WHERE NOT "isActive" AND "clearEvaluated" < "activation"'
    : `SELECT "id" FROM "Issue" INDEXED BY "${UNEVALUATED_CLEAR_INDEX}" WHERE "isActive" = 0 AND "clearEvaluated" < "activation"`
