import { RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible'
import { DomainError } from '../errors'
import { prisma } from '~/utils/db.server'
import { singleton } from '~/utils/singleton.server'

/**
 * Sign-in brute-force protection (rate-limiter-flexible, Prisma store: the counters live in the
 * database so every web node shares them; docs/decisions/007-login-limiter-and-proxies.md).
 * Only failed attempts count: a user who types the right password is never locked out by their
 * own successful sign-ins, and a success clears the account's counter.
 */
export const LOGIN_LIMITS = { perEmail: 10, perIp: 50, windowSeconds: 15 * 60 }

const limiters = () =>
  singleton('login-limiters', () => {
    const common = { storeClient: prisma, tableName: 'rateLimiterFlexible', duration: LOGIN_LIMITS.windowSeconds, clearExpiredByTimeout: false }
    return {
      email: new RateLimiterPrisma({ ...common, keyPrefix: 'login-fail:email', points: LOGIN_LIMITS.perEmail }),
      ip: new RateLimiterPrisma({ ...common, keyPrefix: 'login-fail:ip', points: LOGIN_LIMITS.perIp }),
    }
  })

const tooMany = (msBeforeNext: number) => {
  const minutes = Math.max(1, Math.ceil(msBeforeNext / 60_000))
  return new DomainError('resource-exhausted', `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`, 429)
}

/** Throws 429 when the e-mail or the address already used up its failures in the window. */
export async function assertLoginAllowed(email: string, ip: string) {
  const { email: byEmail, ip: byIp } = limiters()
  const checks: [RateLimiterPrisma, string, number][] = [[byEmail, email.toLowerCase(), LOGIN_LIMITS.perEmail]]
  if (ip) checks.push([byIp, ip, LOGIN_LIMITS.perIp])
  for (const [limiter, key, limit] of checks) {
    const state = await limiter.get(key)
    if (state && state.consumedPoints >= limit) throw tooMany(state.msBeforeNext)
  }
}

/** Counts one failed attempt against the e-mail and the address. */
export async function recordLoginFailure(email: string, ip: string) {
  const { email: byEmail, ip: byIp } = limiters()
  const consume = (limiter: RateLimiterPrisma, key: string) =>
    limiter.consume(key).catch((rejection: unknown) => {
      // Over the limit is an answer, not an error: the next attempt is refused by assertLoginAllowed.
      if (!(rejection instanceof RateLimiterRes)) throw rejection
    })
  await consume(byEmail, email.toLowerCase())
  if (ip) await consume(byIp, ip)
}

/** A successful sign-in clears the account's failures (the address keeps its count). */
export async function recordLoginSuccess(email: string) {
  await limiters().email.delete(email.toLowerCase())
  await prisma.rateLimiterFlexible.deleteMany({ where: { expire: { lt: new Date(Date.now() - 3600_000) } } })
}
