import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible'
import { DomainError } from '../errors'
import { isUniqueViolation, prisma } from '~/utils/db.server'
import { singleton } from '~/utils/singleton.server'

/**
 * Every request limit of the portal (sign-in failures, sign-up, verification and reset mails,
 * re-authentication, enrollment-code guesses, test messages) is a rate-limiter-flexible limiter
 * on its Prisma store: the counters live in the database table `RateLimiterFlexible`, so every
 * web node shares them on SQLite and PostgreSQL (docs/decisions/043-one-rate-limiter.md).
 * A window starts at a key's first hit and lasts `windowMs`; every hit in it counts, concurrent
 * ones too (the store increments in the database).
 */

/** The limiter for one (limit, window) pair, made once per process. */
export function prismaLimiter(keyPrefix: string, points: number, windowMs: number): RateLimiterPrisma {
  return singleton(`rate-limiter:${keyPrefix}:${points}:${windowMs}`, () => {
    return new RateLimiterPrisma({
      storeClient: prisma,
      tableName: 'rateLimiterFlexible',
      keyPrefix,
      points,
      duration: Math.ceil(windowMs / 1000),
      // expired rows are removed by removeExpiredLimits (no timer per limiter)
      clearExpiredByTimeout: false,
    })
  })
}

export function tooManyAttempts(msBeforeNext: number) {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000))
  return new DomainError('resource-exhausted', `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, 429)
}

/**
 * Counts one hit of `key`; throws 429 with a readable message once more than `limit` hits fall
 * in its window. Two first hits of a key can race on the row's insert where the database has no
 * native upsert: the loser's hit is counted by a second try.
 */
export async function rateLimit(key: string, limit: number, windowMs: number) {
  const limiter = prismaLimiter('limit', limit, windowMs)
  const consume = () => limiter.consume(key)
  try {
    await consume().catch((error: unknown) => (isUniqueViolation(error) ? consume() : Promise.reject(error)))
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) throw tooManyAttempts(rejection.msBeforeNext)
    throw rejection
  }
}

/** Limits one action per e-mail and per IP address. */
export async function rateLimitAuth(action: string, email: string, ip: string, limits = { perEmail: 10, perIp: 30, windowMs: 15 * 60_000 }) {
  await rateLimit(`${action}:email:${email.toLowerCase()}`, limits.perEmail, limits.windowMs)
  if (ip) await rateLimit(`${action}:ip:${ip}`, limits.perIp, limits.windowMs)
}

/** Deletes counters whose window ended more than an hour ago (called on successful sign-ins). */
export async function removeExpiredLimits(now = Date.now()) {
  await prisma.rateLimiterFlexible.deleteMany({ where: { expire: { lt: new Date(now - 3600_000) } } })
}
