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
 * Checks a code from a link without using it up. The e-mail in the link must be the one the code
 * was issued for ('Incorrect email address').
 */
export async function checkActionCode(type: ActionCodeType, email: string, code: string | undefined) {
  if (!code) throw new DomainError('auth/missing-code', 'Missing auth code')
  const record = await prisma.actionCode.findUnique({ where: { codeHash: sha256(code) } })
  if (!record || record.type !== type) throw new DomainError('auth/invalid-action-code', 'The link is invalid or has already been used.')
  if (record.email.toLowerCase() !== email.trim().toLowerCase()) {
    throw new DomainError('mvr-auth/mismatchemail', 'Incorrect email address')
  }
  if (record.usedAt) throw new DomainError('auth/invalid-action-code', 'The link is invalid or has already been used.')
  if (record.expiresAt < new Date()) throw new DomainError('auth/expired-action-code', 'The link has expired. Please request a new one.')
  return record
}

/** Checks a code from a link (see checkActionCode) and marks it used. */
export async function consumeActionCode(type: ActionCodeType, email: string, code: string | undefined) {
  const record = await checkActionCode(type, email, code)
  // Conditional update: two concurrent uses of one code cannot both succeed.
  const { count } = await prisma.actionCode.updateMany({ where: { id: record.id, usedAt: null }, data: { usedAt: new Date() } })
  if (count !== 1) throw new DomainError('auth/invalid-action-code', 'The link is invalid or has already been used.')
  return record
}

const ACTION_MAILS: Record<ActionCodeType, { subject: string; intro: string; button: string; outro: string }> = {
  emailVerify: {
    subject: 'Verify your email address for Pixelfleet',
    intro: 'Confirm your email address by opening this link:',
    button: 'Verify email address',
    outro: 'If you did not create a Pixelfleet account you can ignore this message.',
  },
  passwordReset: {
    subject: 'Reset your Pixelfleet password',
    intro: 'Choose a new password by opening this link (valid for one hour):',
    button: 'Reset password',
    outro: 'If you did not ask for a password reset you can ignore this message; your password stays unchanged.',
  },
}

/** Issues a code and mails its link (/auth/{emailVerify|passwordReset}/{email}/{code}) to `user.email`. */
async function sendActionLink(user: Pick<User, 'id' | 'email' | 'name'>, type: ActionCodeType) {
  const mail = ACTION_MAILS[type]
  const code = await issueActionCode(user, user.email, type)
  const link = `${getConfig().publicUrl}/auth/${type}/${encodeURIComponent(user.email)}/${code}`
  await sendMail({
    to: user.email,
    kind: type,
    subject: mail.subject,
    text: `Hello ${user.name},\n\n${mail.intro}\n${link}\n\n${mail.outro}`,
    html: `<p>Hello ${escapeHtml(user.name)},</p><p>${mail.intro}</p><p><a href="${link}">${mail.button}</a></p><p>${mail.outro}</p>`,
  })
}

export const sendVerificationEmail = (user: Pick<User, 'id' | 'email' | 'name'>) => sendActionLink(user, 'emailVerify')
export const sendPasswordResetEmail = (user: Pick<User, 'id' | 'email' | 'name'>) => sendActionLink(user, 'passwordReset')

/**
 * Sent instead of a verification link when someone signs up with an address that already has an
 * account: the owner learns of it, the person signing up sees the same answer as for a new address.
 */
export async function sendSignUpAttemptNotice(user: Pick<User, 'email' | 'name'>) {
  const base = getConfig().publicUrl
  const login = `${base}/login/email/${encodeURIComponent(user.email)}`
  const intro = 'Someone tried to create a Pixelfleet account with your email address. You already have an account, so nothing was changed.'
  const outro = 'If this was you, sign in instead (or reset your password from the sign-in page). If it was not you, you can ignore this message.'
  await sendMail({
    to: user.email,
    kind: 'signUpAttempt',
    subject: 'Someone tried to create a Pixelfleet account with your address',
    text: `Hello ${user.name},\n\n${intro}\n\n${outro}\n${login}`,
    html: `<p>Hello ${escapeHtml(user.name)},</p><p>${intro}</p><p>${outro}</p><p><a href="${login}">Sign in to Pixelfleet</a></p>`,
  })
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
