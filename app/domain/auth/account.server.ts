import { z } from 'zod'
import { DomainError, fromZodIssues } from '../errors'
import { prisma } from '~/utils/db.server'
import { hashPassword, verifyPassword } from './crypto.server'
import { failedPasswordRules, isValidEmail } from './password-rules'
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess } from './login-limiter.server'
import { rateLimitAuth } from './rate-limit.server'
import { createSession, type RequestInfo } from './session.server'
import { sendSignUpAttemptNotice, sendVerificationEmail } from './verification.server'

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

export const emailField = z
  .string({ required_error: 'Enter a valid email address' })
  .transform(normalizeEmail)
  .refine(isValidEmail, 'Enter a valid email address')

export const passwordField = z.string({ required_error: 'Password is required' }).superRefine((password, ctx) => {
  const failed = failedPasswordRules(password, password)
  if (failed.length > 0) ctx.addIssue({ code: z.ZodIssueCode.custom, message: failed.map((r) => r.description).join('. ') })
})

export const createAccountInput = z.object({
  email: emailField,
  name: z.string({ required_error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name is too long'),
  password: passwordField,
})

/**
 * public/auth/userCreate. Answers the same (`{ ok: true }`) whether or not the account existed, and
 * does the same work either way (one password hash, one e-mail), so neither the answer nor its
 * timing tells who has an account. A new account gets a verification e-mail; the owner of an
 * existing one gets a note that someone tried to sign up with their address.
 */
export async function createAccount(raw: unknown, info: RequestInfo): Promise<{ ok: true }> {
  const parsed = createAccountInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { email, name, password } = parsed.data
  await rateLimitAuth('userCreate', email, info.ip)
  const passwordHash = await hashPassword(password)
  const existing = await prisma.user.findUnique({ where: { email } })
  if (existing) {
    await sendSignUpAttemptNotice(existing)
    return { ok: true }
  }
  const user = await prisma.user.create({ data: { email, name, passwordHash, provider: 'password' } })
  await sendVerificationEmail(user)
  return { ok: true }
}

export const signInInput = z.object({
  email: emailField,
  password: z.string({ required_error: 'Password is required' }).min(1, 'Password is required'),
})

export const INVALID_CREDENTIALS = 'Incorrect email address or password'

/** Password sign-in: rate-limited per e-mail and IP; unverified and disabled accounts are refused. */
export async function signInWithPassword(raw: unknown, info: RequestInfo) {
  const parsed = signInInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { email, password } = parsed.data
  await assertLoginAllowed(email, info.ip)
  const user = await prisma.user.findUnique({ where: { email } })
  // An unknown account (or one without a password) is checked against a dummy hash: the same
  // argon2 work, so the answer's timing does not tell which accounts exist.
  const passwordOk = await verifyPassword(user && !user.isAgent ? user.passwordHash : null, password)
  if (!user || user.isAgent || !passwordOk) {
    await recordLoginFailure(email, info.ip)
    throw new DomainError('auth/invalid-credential', INVALID_CREDENTIALS, 401)
  }
  await recordLoginSuccess(email)
  if (user.disabled) throw new DomainError('mvr-auth/disabled', 'Account was administratively disabled', 403)
  if (!user.emailVerified) throw new DomainError('mvr-auth/unverified', 'Unverified email address', 403)
  return startSignedInSession(user.id, info, 'password')
}

/** Records the sign-in in the login history and opens a session. */
export async function startSignedInSession(userId: string, info: RequestInfo, method: string) {
  const now = new Date()
  await prisma.$transaction([
    prisma.loginEvent.create({ data: { userId, ip: info.ip, userAgent: info.userAgent.slice(0, 500), method, timeStamp: now } }),
    prisma.user.update({ where: { id: userId }, data: { lastSignInAt: now, lastSeenAt: now } }),
  ])
  return createSession(userId, info)
}
