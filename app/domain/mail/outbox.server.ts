import { type Actor } from '../actor'
import { accessDenied } from '../errors'
import { prisma } from '~/utils/db.server'

/** The stored outgoing e-mail, newest first (the developer outbox page). */
export async function listOutbox({ to, limit = 100 }: { to?: string; limit?: number } = {}) {
  return prisma.outboxEmail.findMany({
    where: to ? { to: to.trim().toLowerCase() } : {},
    orderBy: { createdAt: 'desc' },
    take: limit,
  })
}

export type OutboxState = 'sent' | 'sending' | 'retrying' | 'failed' | 'stored'

/** sent; sending (first attempt under way); retrying (failed, another attempt planned); failed (given up); stored (no SMTP). */
export function outboxState(row: { sentAt: Date | null; nextAttemptAt: Date | null; attempts: number }): OutboxState {
  if (row.sentAt) return 'sent'
  if (row.nextAttemptAt) return row.attempts > 0 ? 'retrying' : 'sending'
  return row.attempts > 0 ? 'failed' : 'stored'
}

/** Admin > Mail: the newest messages with their delivery state, and counts of the ones in trouble. */
export async function adminOutbox(actor: Actor, { onlyProblems = false, limit = 200 } = {}) {
  if (actor.kind !== 'user' || !actor.isSiteAdmin) throw accessDenied('Only site administrators can see the mail outbox')
  const problems = { sentAt: null, attempts: { gt: 0 } }
  const [rows, retrying, failed, total] = await Promise.all([
    prisma.outboxEmail.findMany({
      where: onlyProblems ? problems : {},
      orderBy: { createdAt: 'desc' },
      take: limit,
      select: { id: true, to: true, subject: true, kind: true, createdAt: true, sentAt: true, attempts: true, nextAttemptAt: true, error: true },
    }),
    prisma.outboxEmail.count({ where: { ...problems, nextAttemptAt: { not: null } } }),
    prisma.outboxEmail.count({ where: { ...problems, nextAttemptAt: null } }),
    prisma.outboxEmail.count(),
  ])
  return { rows: rows.map((r) => ({ ...r, state: outboxState(r) })), counts: { retrying, failed, total } }
}
