import { DomainError } from '../errors'
import { prisma } from '~/utils/db.server'

/**
 * Fixed-window counter shared by every web node (it lives in the database).
 * Throws 429 with a readable message once `limit` hits fall in the current window.
 */
export async function rateLimit(key: string, limit: number, windowMs: number, now = new Date()) {
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs)
  const bucket = await prisma.$transaction(async (tx) => {
    const current = await tx.rateLimitBucket.findUnique({ where: { key } })
    if (!current || current.windowStart.getTime() !== windowStart.getTime()) {
      return tx.rateLimitBucket.upsert({
        where: { key },
        create: { key, windowStart, count: 1 },
        update: { windowStart, count: 1 },
      })
    }
    return tx.rateLimitBucket.update({ where: { key }, data: { count: { increment: 1 } } })
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
