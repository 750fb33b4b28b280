import { createRequire } from 'node:module'
import type Nodemailer from 'nodemailer'
import type { Transporter } from 'nodemailer'
import { Prisma, type OutboxEmail } from '@prisma/client'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { singleton } from '~/utils/singleton.server'
import { counter } from '~/utils/metrics.server'
import { announceWork } from '../events/bus.server'
import { workDue } from '../jobs/due.server'
import { LEASE_MS, MAIL_MAX_ATTEMPTS, retryDelayMs } from '../jobs/retry'

export type OutgoingMail = { to: string; subject: string; text: string; html?: string; kind?: string }

/** A failed send is retried for about a day (the mail delay table, app/domain/jobs/retry.ts), then given up. */
export const MAX_ATTEMPTS = MAIL_MAX_ATTEMPTS
/** The queue name the background sender wakes on (announceWork): a failed attempt set a new nextAttemptAt. */
export const MAIL_QUEUE = 'mail'
/** A message being sent at once is not picked up by a sender (node) before this. */
const CLAIM_MS = LEASE_MS.mail

const transport = () =>
  singleton<Transporter | null>('smtp', () => {
    const url = getConfig().SMTP_URL
    // loaded with the first transport: processes that send no mail (tests, CLI, ingest) skip its ~90 ms
    return url ? (createRequire(import.meta.url)('nodemailer') as typeof Nodemailer).createTransport(url) : null
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
    const delay = retryDelayMs('mail', attempts) ?? undefined
    mailAttempts.inc({ outcome: delay === undefined ? 'failed' : 'retry' })
    if (config.LOG_LEVEL !== 'silent') {
      console.error(`[mail] SMTP delivery to ${record.to} failed (attempt ${attempts}${delay ? `, retry in ${Math.round(delay / 1000)} s` : ', giving up'}): ${message}`)
    }
    const updated = await prisma.outboxEmail.update({
      where: { id: record.id },
      data: { attempts, error: message, nextAttemptAt: delay === undefined ? null : new Date(Date.now() + delay) },
    })
    // the sender sleeps until the earliest retry it knows of: this one may be earlier
    if (delay !== undefined) announceWork(MAIL_QUEUE)
    return updated
  }
}

/** When the earliest unsent message is due for an attempt (one indexed MIN); null without SMTP or when none waits. */
export async function nextMailAttemptAt(): Promise<Date | null> {
  if (!transport()) return null
  const [row] = await prisma.$queryRaw<{ at: Date | string | null }[]>(
    Prisma.sql`SELECT MIN("nextAttemptAt") AS at FROM "OutboxEmail" WHERE "nextAttemptAt" IS NOT NULL AND "sentAt" IS NULL`,
  )
  return row?.at ? new Date(row.at) : null
}

/**
 * Sends every message whose next attempt is due, each claimed first with a lease
 * (app/domain/jobs/due.server.ts), so two senders never send the same message.
 */
export async function deliverDueMail(now = new Date(), batch = 20) {
  if (!transport()) return 0
  return workDue(
    {
      kind: 'mail',
      due: (at, take) => prisma.outboxEmail.findMany({ where: { sentAt: null, nextAttemptAt: { lte: at } }, orderBy: { nextAttemptAt: 'asc' }, take }),
      claim: async (row, until) => (await prisma.outboxEmail.updateMany({ where: { id: row.id, sentAt: null, nextAttemptAt: row.nextAttemptAt }, data: { nextAttemptAt: until } })).count === 1,
      attempt: async (row) => Boolean((await attemptDelivery(row)).sentAt),
    },
    now,
    batch,
  )
}
