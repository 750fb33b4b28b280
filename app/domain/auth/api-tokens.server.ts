import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { DomainError, fromZodIssues, notFound, notLoggedIn } from '../errors'
import { prisma } from '~/utils/db.server'
import { signInWithPassword } from './account.server'
import { randomToken, sha256 } from './crypto.server'
import { resolveToken, revokeSession, userActor, type RequestInfo } from './session.server'
import { API_TOKEN_END_LABELS, type ApiTokenEndReason } from './token-ending.server'

/** Personal API tokens start with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'pft_'
/** How much of the token is kept in clear to tell tokens apart in the list. */
const VISIBLE_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6
const MAX_ACTIVE_TOKENS = 50

export type ApiTokenSummary = { id: string; name: string; prefix: string; createdAt: Date; lastUsedAt: Date | null; expiresAt: Date | null }

export type EndedApiToken = ApiTokenSummary & { endedAt: Date; endedReason: string }
/** How many ended tokens Settings > API Tokens shows. */
const ENDED_TOKENS_SHOWN = 20
export type CreatedApiToken = ApiTokenSummary & { token: string }

const tokenNameInput = z.object({
  name: z.string({ required_error: 'Token name is required' }).trim().min(1, 'Token name is required').max(100, 'Token name is too long'),
})

function requireUserActor(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw notLoggedIn()
  return actor
}

const summarySelect = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, expiresAt: true } as const

/** Creates a token for the signed-in user. The plaintext is returned here once and never stored. */
export async function createApiToken(actor: Actor, raw: unknown): Promise<CreatedApiToken> {
  const user = requireUserActor(actor)
  const parsed = tokenNameInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const active = await prisma.apiToken.count({ where: { userId: user.userId, revokedAt: null } })
  if (active >= MAX_ACTIVE_TOKENS) {
    throw new DomainError('resource-exhausted', `You already have ${MAX_ACTIVE_TOKENS} API tokens. Revoke one you no longer use first.`, 429)
  }
  const token = API_TOKEN_PREFIX + randomToken(32)
  const row = await prisma.apiToken.create({
    data: { userId: user.userId, name: parsed.data.name, tokenHash: sha256(token), prefix: token.slice(0, VISIBLE_PREFIX_LENGTH) },
    select: summarySelect,
  })
  return { ...row, token }
}

/** The user's own tokens that still work, newest first. */
export async function listApiTokens(actor: Actor): Promise<ApiTokenSummary[]> {
  const user = requireUserActor(actor)
  return prisma.apiToken.findMany({
    where: { userId: user.userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: summarySelect,
    orderBy: { createdAt: 'desc' },
  })
}

/** Revokes one of the user's own tokens; someone else's token id answers 404 like a missing one. */
export async function revokeApiToken(actor: Actor, id: string) {
  const user = requireUserActor(actor)
  const { count } = await prisma.apiToken.updateMany({ where: { id, userId: user.userId, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: 'revoked' } })
  if (count === 0) throw notFound('API token not found')
  return { revoked: true }
}

/** Revokes the token the caller authenticated with (auth/logout, CLI logout). A session token is ended instead. */
export async function revokeApiTokenValue(actor: Actor, token: string) {
  const user = requireUserActor(actor)
  const { count } = await prisma.apiToken.updateMany({
    where: { tokenHash: sha256(token), userId: user.userId, revokedAt: null },
    data: { revokedAt: new Date(), revokedReason: 'logout' },
  })
  if (count === 0) await revokeSession(token)
  return { revoked: true }
}

/** The user's most recently ended tokens (revoked or expired) with what ended them, newest first. */
export async function listEndedApiTokens(actor: Actor): Promise<EndedApiToken[]> {
  const user = requireUserActor(actor)
  const now = new Date()
  const rows = await prisma.apiToken.findMany({
    where: { userId: user.userId, OR: [{ revokedAt: { not: null } }, { expiresAt: { lt: now } }] },
    select: { ...summarySelect, revokedAt: true, revokedReason: true },
    orderBy: [{ revokedAt: 'desc' }, { expiresAt: 'desc' }],
    take: ENDED_TOKENS_SHOWN,
  })
  return rows.map(({ revokedAt, revokedReason, ...t }) => {
    const reason = revokedAt ? ((revokedReason ?? 'revoked') as ApiTokenEndReason) : 'expired'
    return { ...t, endedAt: revokedAt ?? t.expiresAt!, endedReason: API_TOKEN_END_LABELS[reason] ?? reason }
  })
}

const tokenSignInInput = z.object({ email: z.string(), password: z.string(), name: z.string().optional() })

/**
 * CLI login (public/auth/tokenCreate): e-mail and password -> a personal API token. It is a real
 * sign-in (same rate limits, unverified and disabled accounts refused, recorded in the login
 * history); the web session that sign-in opens is exchanged for the token and closed at once.
 */
export async function createApiTokenWithPassword(raw: unknown, info: RequestInfo): Promise<CreatedApiToken> {
  const parsed = tokenSignInInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const session = await signInWithPassword({ email: parsed.data.email, password: parsed.data.password }, info)
  try {
    const identity = await resolveToken(session.token)
    if (identity.status !== 'ok') throw notLoggedIn()
    const name = parsed.data.name?.trim() || `CLI ${new Date().toISOString().slice(0, 10)}`
    return await createApiToken(userActor(identity.user, info), { name })
  } finally {
    await revokeSession(session.token)
  }
}
