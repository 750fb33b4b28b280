import { type Prisma } from '@prisma/client'
import { prisma } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'
import { formatDuration, lastActivationSpan } from './clears'
import { OFFLINE_ISSUE } from './state'

/**
 * 'Cleared' entries: when an alarm stops being active by itself (its device reported it healthy
 * past the hold-down, it left the report, or its agent was seen again) the issue gets its clearedAt
 * and one 'cleared' entry in its thread saying how long the activation lasted. Issue.clearRecorded
 * names the activation whose clear is recorded; recording it is a conditional update on it, so two
 * web nodes never write it twice. A manual clear (lifecycle.server.ts) writes its own entry and
 * marks its activation recorded.
 */

export const CLEARED_ENTRY_KIND = 'cleared'
export const CLEARED_ENTRY_AUTHOR = 'Pixelfleet'

const unrecorded: Prisma.IssueWhereInput = { isActive: false, clearRecorded: { lt: prisma.issue.fields.activation } }

/** Records the clears among the issues of these systems (or these issue ids, both accepted); returns the issue ids recorded. */
export async function recordClears(ids: readonly string[], now = new Date()): Promise<string[]> {
  const unique = [...new Set(ids)]
  const found = await inChunks(unique, (chunk) =>
    prisma.issue.findMany({
      where: { AND: [unrecorded, { OR: [{ systemId: { in: chunk } }, { id: { in: chunk } }] }] },
      select: { id: true, kind: true, key: true, activation: true },
    }),
  )
  const issues = [...new Map(found.map((i) => [i.id, i])).values()]
  const recorded: string[] = []
  for (const issue of issues) {
    const history = await prisma.issueHistory.findMany({ where: { issueId: issue.id }, orderBy: { timestamp: 'desc' }, take: 200, select: { timestamp: true, count: true } })
    const span = lastActivationSpan(history, now)
    const offline = issue.kind === OFFLINE_ISSUE.kind && issue.key === OFFLINE_ISSUE.key
    const reason = offline ? 'the agent was seen again' : span?.healthy ? 'the device reported it healthy' : 'it is no longer reported'
    const text = span ? `Cleared after ${formatDuration(span.end.getTime() - span.start.getTime())} active: ${reason}` : `Cleared: ${reason}`
    const done = await prisma.$transaction(async (tx) => {
      const { count } = await tx.issue.updateMany({
        where: { id: issue.id, isActive: false, activation: issue.activation, clearRecorded: { lt: issue.activation } },
        data: { clearRecorded: issue.activation, clearedAt: now, clearedBy: '' },
      })
      if (count === 0) return false
      await tx.issueComment.create({ data: { issueId: issue.id, userId: null, authorName: CLEARED_ENTRY_AUTHOR, kind: CLEARED_ENTRY_KIND, text, createdAt: now } })
      return true
    })
    if (done) recorded.push(issue.id)
  }
  return recorded
}
