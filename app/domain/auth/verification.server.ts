import { type User } from '@prisma/client'
import { DomainError } from '../errors'
import { sendMail } from '../mail/mail.server'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { randomToken, sha256 } from './crypto.server'

export type ActionCodeType = 'emailVerify' | 'passwordReset'
const CODE_TTL_MS: Record<ActionCodeType, number> = { emailVerify: 3 * 24 * 3600_000, passwordReset: 3600_000 }

/** Issues a one-time code for `email`; earlier unused codes of the same type stop working. */
export async function issueActionCode(user: Pick<User, 'id'>, email: string, type: ActionCodeType) {
  const code = randomToken(24)
  await prisma.$transaction([
    prisma.actionCode.updateMany({ where: { userId: user.id, type, usedAt: null }, data: { usedAt: new Date() } }),
    prisma.actionCode.create({
      data: { userId: user.id, email, type, codeHash: sha256(code), expiresAt: new Date(Date.now() + CODE_TTL_MS[type]) },
    }),
  ])
  return code
}

/**
 * Checks a code from a link. The e-mail in the link must be the one the code was issued for
 * ('Incorrect email address'). Marks the code used.
 */
export async function consumeActionCode(type: ActionCodeType, email: string, code: string | undefined) {
  if (!code) throw new DomainError('auth/missing-code', 'Missing auth code')
  const record = await prisma.actionCode.findUnique({ where: { codeHash: sha256(code) } })
  if (!record || record.type !== type) throw new DomainError('auth/invalid-action-code', 'The link is invalid or has already been used.')
  if (record.email.toLowerCase() !== email.trim().toLowerCase()) {
    throw new DomainError('mvr-auth/mismatchemail', 'Incorrect email address')
  }
  if (record.usedAt) throw new DomainError('auth/invalid-action-code', 'The link is invalid or has already been used.')
  if (record.expiresAt < new Date()) throw new DomainError('auth/expired-action-code', 'The link has expired. Please request a new one.')
  await prisma.actionCode.update({ where: { id: record.id }, data: { usedAt: new Date() } })
  return record
}

export async function sendVerificationEmail(user: Pick<User, 'id' | 'email' | 'name'>) {
  const code = await issueActionCode(user, user.email, 'emailVerify')
  const link = `${getConfig().publicUrl}/auth/emailVerify/${encodeURIComponent(user.email)}/${code}`
  await sendMail({
    to: user.email,
    kind: 'emailVerify',
    subject: 'Verify your email address for Pixelfleet',
    text: `Hello ${user.name},\n\nConfirm your email address by opening this link:\n${link}\n\nIf you did not create a Pixelfleet account you can ignore this message.`,
    html: `<p>Hello ${escapeHtml(user.name)},</p><p>Confirm your email address by opening this link:</p><p><a href="${link}">Verify email address</a></p><p>If you did not create a Pixelfleet account you can ignore this message.</p>`,
  })
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
