import { prisma } from '~/utils/db.server'

/** The stored outgoing e-mail, newest first (the developer outbox page). */
export async function listOutbox({ to, limit = 100 }: { to?: string; limit?: number } = {}) {
  return prisma.outboxEmail.findMany({
    where: to ? { to: to.trim().toLowerCase() } : {},
    orderBy: { createdAt: 'desc' },
    take: limit,
  })
}
