import nodemailer, { type Transporter } from 'nodemailer'
import { type OutboxEmail } from '@prisma/client'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { singleton } from '~/utils/singleton.server'
import { counter } from '~/utils/metrics.server'

export type OutgoingMail = { to: string; subject: string; text: string; html?: string; kind?: string }

/** Waits before attempt 2, 3, ...: a failed send is retried for about a day, then given up. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000, 3 * 3600_000, 6 * 3600_000, 12 * 3600_000]
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1
/** A claimed message is not picked up again by another sender (node) for this long. */
const CLAIM_MS = 60_000

const transport = () =>
  singleton<Transporter | null>('smtp', () => {
    const url = getConfig().SMTP_URL
    return url ? nodemailer.createTransport(url) : null
  })

/**
 * Every message is stored in the outbox first, so nothing is lost while SMTP is down. With SMTP_URL
 * it is sent at once; a failed send is retried with backoff by the background sender
 * (mail-sender.server.ts), across restarts. Without SMTP the developer page /dev/mail shows it and
 * the log prints the subject.
 */
export async function sendMail(mail: OutgoingMail) {
  const config = getConfig()
  const smtp = transport()
  const record = await prisma.outboxEmail.create({
    data: { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? '', kind: mail.kind ?? '', nextAttemptAt: smtp ? new Date(Date.now() + CLAIM_MS) : null },
  })
  if (!smtp) {
    if (config.LOG_LEVEL !== 'silent' && config.NODE_ENV !== 'test') {
      const link = mail.text.match(/https?:\/\/\S+/)?.[0]
      console.log(`[mail] to ${mail.to}: ${mail.subject}${link ? ` -> ${link}` : ''}`)
    }
    return record
  }
  return attemptDelivery(record)
}

/** One delivery attempt of a stored message; records the outcome and the next try. */
const mailAttempts = counter({ name: 'pixelfleet_mail_delivery_attempts_total', help: 'SMTP delivery attempts by outcome (sent, retry = failed and retried later, failed = given up)', labelNames: ['outcome'] })

export async function attemptDelivery(record: OutboxEmail): Promise<OutboxEmail> {
  const smtp = transport()
  if (!smtp) return record
  const config = getConfig()
  const attempts = record.attempts + 1
  try {
    await smtp.sendMail({ from: config.MAIL_FROM, to: record.to, subject: record.subject, text: record.text, html: record.html || undefined })
    mailAttempts.inc({ outcome: 'sent' })
    return prisma.outboxEmail.update({ where: { id: record.id }, data: { sentAt: new Date(), attempts, nextAttemptAt: null } })
  } catch (error) {
    const message = (error as Error).message.slice(0, 1000)
    const delay = RETRY_DELAYS_MS[attempts - 1]
    mailAttempts.inc({ outcome: delay === undefined ? 'failed' : 'retry' })
    if (config.LOG_LEVEL !== 'silent') {
      console.error(`[mail] SMTP delivery to ${record.to} failed (attempt ${attempts}${delay ? `, retry in ${Math.round(delay / 1000)} s` : ', giving up'}): ${message}`)
    }
    return prisma.outboxEmail.update({
      where: { id: record.id },
      data: { attempts, error: message, nextAttemptAt: delay === undefined ? null : new Date(Date.now() + delay) },
    })
  }
}

/**
 * Sends every message whose next attempt is due. Each is claimed first with a conditional update
 * (its nextAttemptAt moves forward), so two senders never send the same message.
 */
export async function deliverDueMail(now = new Date(), batch = 20) {
  if (!transport()) return 0
  const due = await prisma.outboxEmail.findMany({ where: { sentAt: null, nextAttemptAt: { lte: now } }, orderBy: { nextAttemptAt: 'asc' }, take: batch })
  let sent = 0
  for (const row of due) {
    const claimed = await prisma.outboxEmail.updateMany({ where: { id: row.id, nextAttemptAt: row.nextAttemptAt }, data: { nextAttemptAt: new Date(now.getTime() + CLAIM_MS) } })
    if (claimed.count !== 1) continue
    const result = await attemptDelivery(row)
    if (result.sentAt) sent++
  }
  return sent
}
