import nodemailer, { type Transporter } from 'nodemailer'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { singleton } from '~/utils/singleton.server'

export type OutgoingMail = { to: string; subject: string; text: string; html?: string; kind?: string }

const transport = () =>
  singleton<Transporter | null>('smtp', () => {
    const url = getConfig().SMTP_URL
    return url ? nodemailer.createTransport(url) : null
  })

/**
 * Every message is stored in the outbox first (nothing is lost if SMTP is down); with SMTP_URL it
 * is also sent. Without SMTP the developer page /dev/mail shows it and the log prints the subject.
 */
export async function sendMail(mail: OutgoingMail) {
  const config = getConfig()
  const record = await prisma.outboxEmail.create({
    data: { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? '', kind: mail.kind ?? '' },
  })
  const smtp = transport()
  if (!smtp) {
    if (config.LOG_LEVEL !== 'silent' && config.NODE_ENV !== 'test') {
      const link = mail.text.match(/https?:\/\/\S+/)?.[0]
      console.log(`[mail] to ${mail.to}: ${mail.subject}${link ? ` -> ${link}` : ''}`)
    }
    return record
  }
  try {
    await smtp.sendMail({ from: config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html || undefined })
    return prisma.outboxEmail.update({ where: { id: record.id }, data: { sentAt: new Date() } })
  } catch (error) {
    console.error(`[mail] SMTP delivery to ${mail.to} failed: ${(error as Error).message}`)
    return prisma.outboxEmail.update({ where: { id: record.id }, data: { error: (error as Error).message } })
  }
}
