import { type Session, type User } from '@prisma/client'
import { prisma } from '~/utils/db.server'
import { fastAll, selectModel, toModel } from '~/utils/fast-read.server'

const SESSION_WITH_USER = `SELECT ${selectModel('Session', 's')}, ${selectModel('User', 'u')}
  FROM "Session" s JOIN "User" u ON u."id" = s."userId" WHERE s."tokenHash" = ?`

/**
 * The session of a token hash with its user: every signed-in request asks, so on SQLite it is one
 * prepared statement instead of a Prisma query (app/utils/fast-read.server.ts). Read fresh each time.
 */
export async function findSessionWithUser(tokenHash: string): Promise<(Session & { user: User }) | null> {
  const rows = await fastAll<Record<string, unknown>>(SESSION_WITH_USER, tokenHash)
  if (!rows) return prisma.session.findUnique({ where: { tokenHash }, include: { user: true } })
  const row = rows[0]
  if (!row) return null
  return { ...toModel<Session>('Session', row, 's'), user: toModel<User>('User', row, 'u') }
}
