import { type RateLimiterPrisma, RateLimiterRes } from 'rate-limiter-flexible'
import { prismaLimiter, removeExpiredLimits, tooManyAttempts } from './rate-limit.server'

/**
 * Sign-in brute-force protection on the portal's one rate limiter (rate-limit.server.ts; counters
 * in the database, shared by every web node; docs/decisions/007-login-limiter-and-proxies.md and
 * 043-one-rate-limiter.md). Only failed attempts count: a user who types the right password is
 * never locked out by their own successful sign-ins, and a success clears the account's counter.
 */
export const LOGIN_LIMITS = { perEmail: 10, perIp: 50, windowSeconds: 15 * 60 }

const limiters = () => ({
  email: prismaLimiter('login-fail:email', LOGIN_LIMITS.perEmail, LOGIN_LIMITS.windowSeconds * 1000),
  ip: prismaLimiter('login-fail:ip', LOGIN_LIMITS.perIp, LOGIN_LIMITS.windowSeconds * 1000),
})

/** Throws 429 when the e-mail or the address already used up its failures in the window. */
export async function assertLoginAllowed(email: string, ip: string) {
  const { email: byEmail, ip: byIp } = limiters()
  const checks: [RateLimiterPrisma, string, number][] = [[byEmail, email.toLowerCase(), LOGIN_LIMITS.perEmail]]
  if (ip) checks.push([byIp, ip, LOGIN_LIMITS.perIp])
  for (const [limiter, key, limit] of checks) {
    const state = await limiter.get(key)
    if (state && state.consumedPoints >= limit) throw tooManyAttempts(state.msBeforeNext)
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
  await removeExpiredLimits()
}
