import { DomainError } from '../errors'
import { isUniqueViolation, prisma } from '~/utils/db.server'

/**
 * Fixed-window counter shared by every web node (it lives in the database).
 * Throws 429 with a readable message once `limit` hits fall in the current window.
 * Concurrent hits must all count (a burst of guesses is what it limits): a stale window is reset
 * by a conditional update only one caller wins, then the hit is one upsert incrementing in the
 * database (PostgreSQL runs it as INSERT ... ON CONFLICT DO UPDATE); a read-then-write
 * transaction lost increments under PostgreSQL's read committed isolation.
 */
export async function rateLimit(key: string, limit: number, windowMs: number, now = new Date()) {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs)
  await prisma.rateLimitBucket.updateMany({ where: { key, windowStart: { not: windowStart } }, data: { windowStart, count: 0 } })
  const hit = () => prisma.rateLimitBucket.upsert({ where: { key }, create: { key, windowStart, count: 1 }, update: { count: { increment: 1 } } })
  // (where the upsert is not native, two first hits of a key can race on the insert: the loser increments)
  const bucket = await hit().catch((error: unknown) => {
    if (isUniqueViolation(error)) return hit()
    throw error
  })
  if (bucket.count > limit) {
    const retryMs = windowStart.getTime() + windowMs - now.getTime()
    const minutes = Math.max(1, Math.ceil(retryMs / 60_000))
    throw new DomainError(
      'resource-exhausted',
      `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
      429,
    )
  }
}

/** Limits one action per e-mail and per IP address. */
export async function rateLimitAuth(action: string, email: string, ip: string, limits = { perEmail: 10, perIp: 30, windowMs: 15 * 60_000 }) {
  await rateLimit(`${action}:email:${email.toLowerCase()}`, limits.perEmail, limits.windowMs)
  if (ip) await rateLimit(`${action}:ip:${ip}`, limits.perIp, limits.windowMs)
}
