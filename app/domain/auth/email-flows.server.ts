import { z } from 'zod'
import { DomainError } from '../errors'
import { prisma } from '~/utils/db.server'
import { parseInput } from '../parse-input'
import { emailField, passwordField } from './account.server'
import { hashPassword } from './crypto.server'
import { endApiTokensOf } from './token-ending.server'
import { rateLimitAuth } from './rate-limit.server'
import { type RequestInfo } from './session.server'
import { consumeActionCode, sendPasswordResetEmail, sendVerificationEmail } from './verification.server'

/** Mail-sending requests are limited tighter than sign-in: each one lands in someone's inbox. */
const MAIL_REQUEST_LIMITS = { perEmail: 5, perIp: 30, windowMs: 15 * 60_000 }

const emailRequestInput = z.object({ email: emailField })

/**
 * public/auth/emailVerifyRequest: mails a new verification link to an unverified account. The answer
 * is the same whether or not the account exists, so it cannot be used to probe for accounts.
 */
export async function requestEmailVerification(raw: unknown, info: RequestInfo) {
  const { email } = parseInput(emailRequestInput, raw)
  await rateLimitAuth('emailVerifyRequest', email, info.ip, MAIL_REQUEST_LIMITS)
  const user = await prisma.user.findUnique({ where: { email } })
  if (user && !user.emailVerified && !user.disabled && !user.isAgent) await sendVerificationEmail(user)
  return { ok: true }
}

/** public/auth/passwordResetRequest: same answer whether or not the account exists. */
export async function requestPasswordReset(raw: unknown, info: RequestInfo) {
  const { email } = parseInput(emailRequestInput, raw)
  await rateLimitAuth('passwordResetRequest', email, info.ip, MAIL_REQUEST_LIMITS)
  const user = await prisma.user.findUnique({ where: { email } })
  // Google accounts have no password to reset; disabled accounts cannot sign in anyway.
  if (user && user.provider === 'password' && !user.disabled && !user.isAgent) await sendPasswordResetEmail(user)
  return { ok: true }
}

/** The user behind a used code, provided the code was issued for the address the account has now. */
async function userOfCode(record: { userId: string; email: string }) {
  const user = await prisma.user.findUnique({ where: { id: record.userId } })
  if (!user || user.email.toLowerCase() !== record.email.toLowerCase()) {
    throw new DomainError('mvr-auth/mismatchemail', 'Incorrect email address')
  }
  return user
}

/** /auth/emailVerify/{email}/{code}: marks the address verified. */
export async function verifyEmail(email: string, code: string | undefined) {
  const record = await consumeActionCode('emailVerify', email, code)
  const user = await userOfCode(record)
  await prisma.user.update({ where: { id: user.id }, data: { emailVerified: true } })
  return { email: user.email }
}

export const resetPasswordInput = z.object({ email: z.string(), code: z.string().optional(), password: passwordField })

/**
 * /auth/passwordReset/{email}/{code}: sets a new password and signs the account out everywhere.
 * The link proves control of the mailbox, so the address counts as verified afterwards.
 */
export async function resetPassword(raw: unknown) {
  // Check the password first so a rule failure does not use up the code.
  const { email, code, password } = parseInput(resetPasswordInput, raw)
  const record = await consumeActionCode('passwordReset', email, code)
  const user = await userOfCode(record)
  const passwordHash = await hashPassword(password)
  await prisma.$transaction([
    prisma.user.update({ where: { id: user.id }, data: { passwordHash, emailVerified: true } }),
    prisma.session.deleteMany({ where: { userId: user.id } }),
    endApiTokensOf(user.id, 'passwordReset'),
  ])
  return { email: user.email }
}
