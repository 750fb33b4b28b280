import { Prisma } from '@prisma/client'
import { isTrue } from '../fleet/dialect.server'
import { LARGE_TRANSACTION } from '../large-transaction'
import { LEASE_MS } from '../jobs/retry'
import { sendMail } from '../mail/mail.server'
import { foldRootCauses } from './rootcause-mail.server'
import { STATUS } from './audience.server'
import { describeDeliveries, digestMail, singleMail } from './mail-content.server'
import { releaseMutedDeliveries } from './queue-deliveries.server'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { chunked } from '~/utils/id-chunks'

/** Claims rows still pending (so two flushers never send the same row) and returns the claimed ones. */
async function claim<R extends { id: string }>(rows: R[], now: Date): Promise<R[]> {
  const claimed = await prisma.$transaction(async (tx) => {
    const won: R[] = []
    for (const row of rows) {
      const { count } = await tx.notificationDelivery.updateMany({ where: { id: row.id, status: STATUS.pending }, data: { status: STATUS.sending, claimedAt: now } })
      if (count === 1) won.push(row)
    }
    return won
  }, LARGE_TRANSACTION)
  return claimed
}

/**
 * When the flusher next has something to send: now when an urgent row is pending, else the end of
 * the oldest pending row's batch window; null when nothing is pending. One indexed query over the
 * pending rows (index status, createdAt), cheap enough to run after every poller run.
 */
export async function nextFlushAt(windowMs: number): Promise<Date | null> {
  const [row] = await prisma.$queryRaw<{ oldest: Date | string | null; urgent: number | bigint | null }[]>(Prisma.sql`
    SELECT MIN("createdAt") AS oldest, MAX(CASE WHEN ${isTrue('"urgent"')} THEN 1 ELSE 0 END) AS urgent
    FROM "NotificationDelivery" WHERE "status" = ${STATUS.pending}`)
  if (!row?.oldest) return null
  return Number(row.urgent) > 0 ? new Date() : new Date(new Date(row.oldest).getTime() + windowMs)
}

/**
 * Sends every user's pending deliveries whose batch window has passed (`force` ignores the
 * window). One pending item makes one e-mail; several make one digest. Returns e-mails sent.
 */
export async function flushNotifications(options: { now?: Date; force?: boolean } = {}): Promise<number> {
  const now = options.now ?? new Date()
  const windowMs = getConfig().NOTIFY_BATCH_MS
  await releaseMutedDeliveries(now)
  // A flusher that died between claiming and sending: its rows are pending again after the lease
  // (at least once: its e-mail may have reached the outbox already).
  const expired = new Date(now.getTime() - LEASE_MS.notification)
  await prisma.notificationDelivery.updateMany({
    where: { status: STATUS.sending, OR: [{ claimedAt: { lt: expired } }, { claimedAt: null, createdAt: { lt: expired } }] },
    data: { status: STATUS.pending, claimedAt: null },
  })
  const pending = await prisma.notificationDelivery.findMany({
    where: { status: STATUS.pending },
    select: { id: true, userId: true, issueId: true, activation: true, severity: true, createdAt: true, urgent: true, event: true, round: true },
    orderBy: { createdAt: 'asc' },
  })
  const byUser = new Map<string, typeof pending>()
  for (const row of pending) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row])

  let sent = 0
  for (const [userId, rows] of byUser) {
    if (!options.force && !rows.some((r) => r.urgent) && now.getTime() - rows[0]!.createdAt.getTime() < windowMs) continue
    const claimed = await claim(rows, now)
    if (claimed.length === 0) continue
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true, disabled: true } })
    const items = user && !user.disabled ? await describeDeliveries(userId, claimed, now) : []
    const deliverable = new Set(items.map((i) => i.deliveryId))
    const skippedIds = claimed.filter((r) => !deliverable.has(r.id)).map((r) => r.id)
    for (const chunk of chunked(skippedIds)) await prisma.notificationDelivery.updateMany({ where: { id: { in: chunk } }, data: { status: STATUS.skipped } })
    if (!user || items.length === 0) continue
    const settingsLink = `${getConfig().publicUrl}/settings/notifications`
    // Issues an upstream failure explains become one item naming the cause (new activations only:
    // a resolved or repeat item stands for itself).
    const mailItems = [...(await foldRootCauses(items.filter((i) => i.event === 'active'))), ...items.filter((i) => i.event !== 'active')]
    const mail = mailItems.length === 1 ? singleMail(user, mailItems[0]!, settingsLink) : digestMail(user, mailItems, settingsLink)
    const email = await sendMail({ to: user.email, kind: mailItems.length === 1 ? 'issueNotification' : 'issueDigest', ...mail })
    await prisma.$transaction(chunked([...deliverable]).map((chunk) => prisma.notificationDelivery.updateMany({ where: { id: { in: chunk } }, data: { status: STATUS.sent, emailId: email.id } })))
    sent++
  }
  return sent
}
