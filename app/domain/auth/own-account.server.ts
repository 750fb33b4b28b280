import { type User } from '@prisma/client'
import { z } from 'zod'
import { type Actor } from '../actor'
import { DomainError, notLoggedIn } from '../errors'
import { requireAccountWrite } from './token-scope'
import { sendMail } from '../mail/mail.server'
import { prisma } from '~/utils/db.server'
import { parseInput } from '../parse-input'
import { emailField, passwordField } from './account.server'
import { hashPassword, sha256, verifyPassword } from './crypto.server'
import { rateLimitAuth } from './rate-limit.server'
import { sendVerificationEmail } from './verification.server'
import { endApiTokensOf } from './token-ending.server'

/** Only password-provider accounts own their name, e-mail, password and photo (Google owns the rest). */
export function accountFlags(user: Pick<User, 'provider'>) {
  const own = user.provider === 'password'
  return { canChangeName: own, canChangeEmail: own, canChangePassword: own, canChangePhoto: own }
}

type Flag = keyof ReturnType<typeof accountFlags>

/** The acting user's own account, refused when the provider owns the detail being changed. */
async function ownAccount(actor: Actor, flag: Flag) {
  if (actor.kind !== 'user') throw notLoggedIn()
  requireAccountWrite(actor)
  const user = await prisma.user.findUnique({ where: { id: actor.userId } })
  if (!user) throw notLoggedIn()
  if (!accountFlags(user)[flag]) {
    throw new DomainError('auth/provider-managed', 'This account is managed by its sign-in provider and cannot be changed here', 403)
  }
  return { user, ip: actor.ip }
}

/** Re-authentication with the current password; attempts count against the sign-in rate limit. */
async function reauthenticate(user: User, ip: string, currentPassword: string) {
  await rateLimitAuth('reauthenticate', user.email, ip)
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw new DomainError('auth/wrong-password', 'The current password is incorrect', 400, [
      { path: 'currentPassword', message: 'The current password is incorrect' },
    ])
  }
}

const currentPasswordField = z.string({ required_error: 'Enter your current password' }).min(1, 'Enter your current password')

export const changeNameInput = z.object({
  name: z.string({ required_error: 'Name is required' }).trim().min(1, 'Name is required').max(200, 'Name is too long'),
})

/** auth/nameChange */
export async function changeName(actor: Actor, raw: unknown) {
  const { user } = await ownAccount(actor, 'canChangeName')
  const { name } = parseInput(changeNameInput, raw)
  await prisma.user.update({ where: { id: user.id }, data: { name } })
  return { name }
}

export const changeEmailInput = z.object({ email: emailField, currentPassword: currentPasswordField })

/**
 * auth/emailChange: after re-authentication the address changes, becomes unverified and every
 * session ends (the user is signed out); the new address gets a verification link and the old one
 * a notice, so a hijacked session cannot quietly move the account away.
 */
export async function changeEmail(actor: Actor, raw: unknown) {
  const { user, ip } = await ownAccount(actor, 'canChangeEmail')
  const { email, currentPassword } = parseInput(changeEmailInput, raw)
  if (email === user.email) {
    throw new DomainError('invalid-argument', 'This is already your email address', 400, [{ path: 'email', message: 'This is already your email address' }])
  }
  await reauthenticate(user, ip, currentPassword)
  if (await prisma.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new DomainError('auth/email-already-in-use', 'The email address is already in use by another account', 409, [
      { path: 'email', message: 'The email address is already in use by another account' },
    ])
  }
  const [updated] = await prisma.$transaction([
    prisma.user.update({ where: { id: user.id }, data: { email, emailVerified: false } }),
    prisma.session.deleteMany({ where: { userId: user.id } }),
    endApiTokensOf(user.id, 'emailChange'),
    // Links mailed to the old address stop working.
    prisma.actionCode.updateMany({ where: { userId: user.id, usedAt: null }, data: { usedAt: new Date() } }),
  ])
  await sendVerificationEmail(updated)
  await sendMail({
    to: user.email,
    kind: 'emailChanged',
    subject: 'Your Pixelfleet email address was changed',
    text: `Hello ${user.name},\n\nThe email address of your Pixelfleet account was changed to ${email}.\n\nIf you did not make this change, contact your administrator immediately.`,
  })
  return { email, signedOut: true }
}

export const changePasswordInput = z.object({ currentPassword: currentPasswordField, password: passwordField })

/**
 * auth/passwordChange: after re-authentication sets the new password and ends every other session;
 * the session making the change (`keepSessionToken`) stays signed in.
 */
export async function changePassword(actor: Actor, raw: unknown, keepSessionToken?: string | null) {
  const { user, ip } = await ownAccount(actor, 'canChangePassword')
  const { currentPassword, password } = parseInput(changePasswordInput, raw)
  await reauthenticate(user, ip, currentPassword)
  const passwordHash = await hashPassword(password)
  await prisma.$transaction([
    prisma.user.update({ where: { id: user.id }, data: { passwordHash } }),
    prisma.session.deleteMany({
      where: { userId: user.id, ...(keepSessionToken ? { NOT: { tokenHash: sha256(keepSessionToken) } } : {}) },
    }),
  ])
  return { ok: true }
}
