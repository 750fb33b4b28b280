import { type User } from '@prisma/client'
import { type UserActor } from '../actor'
import { prisma } from '~/utils/db.server'
import { randomToken, sha256 } from './crypto.server'
import { parseGrantPermissions, type TokenGrant } from './token-scope'
import { findSessionWithUser } from './session-lookup.server'

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
const TOUCH_AFTER_MS = 60_000

export type RequestInfo = { ip: string; userAgent: string }

/** Starts a stored (revocable) session; only the token's hash is kept. */
export async function createSession(userId: string, info: RequestInfo) {
  const token = randomToken()
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS)
  await prisma.session.create({
    data: { tokenHash: sha256(token), userId, expiresAt, ip: info.ip, userAgent: info.userAgent.slice(0, 500) },
  })
  return { token, expiresAt }
}

export type ResolvedIdentity =
  | { status: 'ok'; user: User; via: 'session' | 'token'; grant?: TokenGrant }
  | { status: 'disabled'; user: User }
  /** an API token past its expiry: refused with a message naming it (401) */
  | { status: 'expired'; tokenName: string; expiredAt: Date }
  | { status: 'none' }

/** Resolves a session cookie token or a bearer token (session or personal API token). */
export async function resolveToken(token: string | null | undefined): Promise<ResolvedIdentity> {
  if (!token) return { status: 'none' }
  const tokenHash = sha256(token)
  const now = new Date()
  const session = await findSessionWithUser(tokenHash)
  if (session) {
    if (session.expiresAt < now) {
      await prisma.session.delete({ where: { id: session.id } }).catch(() => undefined)
      return { status: 'none' }
    }
    if (session.user.disabled) {
      // Kept (marked ended) so every later request with this cookie still learns why it stopped working.
      await endSessionsOf(session.userId, 'disabled')
      return { status: 'disabled', user: session.user }
    }
    if (session.endedReason) {
      await prisma.session.delete({ where: { id: session.id } }).catch(() => undefined)
      return { status: 'none' }
    }
    if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      await prisma.$transaction([
        prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: now } }),
        prisma.user.update({ where: { id: session.userId }, data: { lastSeenAt: now } }),
      ])
    }
    return { status: 'ok', user: session.user, via: 'session' }
  }
  const apiToken = await prisma.apiToken.findUnique({ where: { tokenHash }, include: { user: true } })
  if (!apiToken) return { status: 'none' }
  // A token ended by the disable keeps answering 'disabled' while the account stays disabled.
  if (apiToken.user.disabled && (!apiToken.revokedAt || apiToken.revokedReason === 'disabled')) return { status: 'disabled', user: apiToken.user }
  if (apiToken.revokedAt) return { status: 'none' }
  if (apiToken.expiresAt && apiToken.expiresAt < now) return { status: 'expired', tokenName: apiToken.name, expiredAt: apiToken.expiresAt }
  // last used is written at most once a minute per token: a busy CI job costs no write per call
  if (!apiToken.lastUsedAt || now.getTime() - apiToken.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    await prisma.apiToken.update({ where: { id: apiToken.id }, data: { lastUsedAt: now } })
  }
  // a service token's permissions are the list fixed when it was created
  const scope = apiToken.organizationId ? 'custom' : apiToken.scope
  const grant: TokenGrant = {
    id: apiToken.id,
    name: apiToken.name,
    scope: apiToken.scope as TokenGrant['scope'],
    permissions: parseGrantPermissions(scope, apiToken.permissions),
    organizationId: apiToken.organizationId,
  }
  return { status: 'ok', user: apiToken.user, via: 'token', grant }
}

export async function revokeSession(token: string) {
  await prisma.session.deleteMany({ where: { tokenHash: sha256(token) } })
}

export async function revokeAllSessions(userId: string) {
  await prisma.session.deleteMany({ where: { userId } })
}

/** Why a session was ended for its user; only 'disabled' is told to the browser (mvr-auth/disabled). */
export type SessionEndReason = 'disabled'

/** Ends every session of a user at once, remembering why (the rows go when the account is enabled again). */
export function endSessionsOf(userId: string, reason: SessionEndReason, db: Pick<typeof prisma, 'session'> = prisma) {
  return db.session.updateMany({ where: { userId, endedReason: null }, data: { endedReason: reason } })
}

/**
 * The actor of a request. With an API token the actor is narrowed here, once, for every call: a
 * limited (read-only or custom) token carries its permission list, which the access engine checks,
 * and loses the site-admin claim (staff calls need a full personal token).
 */
export function userActor(user: Pick<User, 'id' | 'email' | 'name' | 'isAdmin'>, info: RequestInfo, grant?: TokenGrant): UserActor {
  const isSiteAdmin = user.isAdmin && (!grant || grant.permissions === null)
  const actor: UserActor = { kind: 'user', userId: user.id, email: user.email, name: user.name, isSiteAdmin, ip: info.ip, userAgent: info.userAgent }
  return grant ? { ...actor, token: grant } : actor
}
