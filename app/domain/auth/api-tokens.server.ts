import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { audit } from '../audit/audit.server'
import { DomainError, fromZodIssues, notFound, notLoggedIn } from '../errors'
import { parseInput } from '../parse-input'
import { prisma, parseJson } from '~/utils/db.server'
import { signInWithPassword } from './account.server'
import { randomToken, sha256 } from './crypto.server'
import { resolveToken, revokeSession, userActor, type RequestInfo } from './session.server'
import { API_TOKEN_END_LABELS, type ApiTokenEndReason } from './token-ending.server'
import { tokenSpecInput } from './token-input'
import { requireAccountWrite } from './token-scope'

/** Personal API tokens start with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'pft_'
/** How much of the token is kept in clear to tell tokens apart in the list. */
const VISIBLE_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6
export const MAX_ACTIVE_TOKENS = 50

export type ApiTokenSummary = {
  id: string
  name: string
  prefix: string
  createdAt: Date
  lastUsedAt: Date | null
  expiresAt: Date | null
  /** full, read or custom */
  scope: string
  /** the permissions of a custom scope (empty otherwise) */
  permissions: string[]
}

export type EndedApiToken = ApiTokenSummary & { endedAt: Date; endedReason: string }
/** How many ended tokens Settings > API Tokens shows. */
const ENDED_TOKENS_SHOWN = 20
export type CreatedApiToken = ApiTokenSummary & { token: string }

function requireUserActor(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw notLoggedIn()
  return actor
}

export const summarySelect = { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, expiresAt: true, scope: true, permissions: true } as const

/** The stored row as the list shows it (permissions kept as JSON text). */
export const toSummary = <T extends { permissions: string; scope: string }>(row: T) => ({
  ...row,
  permissions: row.scope === 'custom' ? parseJson<string[]>(row.permissions, []) : [],
})

/** A new random token: the plaintext (shown once), its hash (stored) and the visible prefix. */
export function newTokenSecret() {
  const token = API_TOKEN_PREFIX + randomToken(32)
  return { token, tokenHash: sha256(token), prefix: token.slice(0, VISIBLE_PREFIX_LENGTH) }
}

/**
 * Creates a token for the signed-in user with a name, a scope (full, read-only or a list of
 * permissions) and an expiry. The plaintext is returned here once and only its hash is stored.
 */
export async function createApiToken(actor: Actor, raw: unknown): Promise<CreatedApiToken> {
  const user = requireUserActor(actor)
  // a token cannot mint a wider one
  requireAccountWrite(user)
  const spec = parseInput(tokenSpecInput, raw)
  const active = await prisma.apiToken.count({ where: { userId: user.userId, revokedAt: null } })
  if (active >= MAX_ACTIVE_TOKENS) {
    throw new DomainError('resource-exhausted', `You already have ${MAX_ACTIVE_TOKENS} API tokens. Revoke one you no longer use first.`, 429)
  }
  const { token, tokenHash, prefix } = newTokenSecret()
  const row = await prisma.$transaction(async (tx) => {
    const created = await tx.apiToken.create({
      data: { userId: user.userId, name: spec.name, tokenHash, prefix, scope: spec.scope, permissions: JSON.stringify(spec.permissions), expiresAt: spec.expiresAt },
      select: summarySelect,
    })
    await audit(tx, user, { action: 'token.create', message: `${user.email} created the API token "${spec.name}"` })
    return created
  })
  return { ...toSummary(row), token }
}

/** The user's own tokens that still work, newest first. */
export async function listApiTokens(actor: Actor): Promise<ApiTokenSummary[]> {
  const user = requireUserActor(actor)
  const rows = await prisma.apiToken.findMany({
    where: { userId: user.userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: summarySelect,
    orderBy: { createdAt: 'desc' },
  })
  return rows.map(toSummary)
}

/** Revokes one of the user's own tokens; someone else's token id answers 404 like a missing one. */
export async function revokeApiToken(actor: Actor, id: string) {
  const user = requireUserActor(actor)
  requireAccountWrite(user)
  await prisma.$transaction(async (tx) => {
    const token = await tx.apiToken.findFirst({ where: { id, userId: user.userId, revokedAt: null }, select: { name: true } })
    if (!token) throw notFound('API token not found')
    await tx.apiToken.update({ where: { id }, data: { revokedAt: new Date(), revokedReason: 'revoked' } })
    await audit(tx, user, { action: 'token.revoke', message: `${user.email} revoked the API token "${token.name}"` })
  })
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
  return rows.map(({ revokedAt, revokedReason, ...row }) => {
    const t = toSummary(row)
    const reason = revokedAt ? ((revokedReason ?? 'revoked') as ApiTokenEndReason) : 'expired'
    return { ...t, endedAt: revokedAt ?? t.expiresAt!, endedReason: API_TOKEN_END_LABELS[reason] ?? reason }
  })
}

/** E-mail and password, and the new token's name, scope and expiry (checked by tokenSpecInput). */
const tokenSignInInput = z.object({
  email: z.string(),
  password: z.string(),
  name: z.string().optional(),
  scope: z.unknown().optional(),
  permissions: z.unknown().optional(),
  expiresInDays: z.unknown().optional(),
})

/**
 * CLI login (public/auth/tokenCreate): e-mail and password -> a personal API token. It is a real
 * sign-in (same rate limits, unverified and disabled accounts refused, recorded in the login
 * history); the web session that sign-in opens is exchanged for the token and closed at once.
 */
export async function createApiTokenWithPassword(raw: unknown, info: RequestInfo): Promise<CreatedApiToken> {
  const parsed = tokenSignInInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { email, password, ...rest } = parsed.data
  const spec = { ...rest, name: rest.name?.trim() || `CLI ${new Date().toISOString().slice(0, 10)}` }
  // a bad scope or expiry is refused before the sign-in, which would count as one
  parseInput(tokenSpecInput, spec)
  const session = await signInWithPassword({ email, password }, info)
  try {
    const identity = await resolveToken(session.token)
    if (identity.status !== 'ok') throw notLoggedIn()
    return await createApiToken(userActor(identity.user, info), spec)
  } finally {
    await revokeSession(session.token)
  }
}
