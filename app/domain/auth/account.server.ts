import { z } from 'zod'
import { DomainError, fromZodIssues } from '../errors'
import { prisma } from '~/utils/db.server'
import { hashPassword, verifyPassword } from './crypto.server'
import { failedPasswordRules, isValidEmail } from './password-rules'
import { rateLimitAuth } from './rate-limit.server'
import { createSession, type RequestInfo } from './session.server'
import { sendVerificationEmail } from './verification.server'

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
 * public/auth/userCreate. Answers the same whether or not the account existed, so the form cannot
 * be used to find out who has an account; a new account gets a verification e-mail.
 */
export async function createAccount(raw: unknown, info: RequestInfo): Promise<{ created: boolean }> {
  const parsed = createAccountInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { email, name, password } = parsed.data
  await rateLimitAuth('userCreate', email, info.ip)
  const existing = await prisma.user.findUnique({ where: { email } })
  if (existing) return { created: false }
  const user = await prisma.user.create({
    data: { email, name, passwordHash: await hashPassword(password), provider: 'password' },
  })
  await sendVerificationEmail(user)
  return { created: true }
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
  await rateLimitAuth('signIn', email, info.ip)
  const user = await prisma.user.findUnique({ where: { email } })
  if (!user || user.isAgent || !(await verifyPassword(user.passwordHash, password))) {
    throw new DomainError('auth/invalid-credential', INVALID_CREDENTIALS, 401)
  }
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
