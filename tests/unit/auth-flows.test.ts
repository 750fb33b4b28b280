import { describe, expect, it } from 'vitest'
import { type UserActor } from '~/domain/actor'
import { createAccount, signInWithPassword } from '~/domain/auth/account.server'
import { requestEmailVerification, requestPasswordReset, resetPassword, verifyEmail } from '~/domain/auth/email-flows.server'
import { changeEmail, changeName, changePassword } from '~/domain/auth/own-account.server'
import { resolveToken } from '~/domain/auth/session.server'
import { action as apiAction } from '~/routes/client.v1.$'
import { commitSessionCookie } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

const PASSWORD = 'Correct-horse-1'
let counter = 0
const uniqueEmail = (label: string) => `${label}.${Date.now()}.${++counter}@flows.test`
const info = (ip = `10.0.0.${counter % 250}`) => ({ ip, userAgent: 'vitest' })

/** The link of the newest stored e-mail of one kind to `to`, split into its parts. */
async function lastLink(to: string, kind: 'emailVerify' | 'passwordReset') {
  const mail = await prisma.outboxEmail.findFirstOrThrow({ where: { to, kind }, orderBy: { createdAt: 'desc' } })
  const link = mail.text.match(/https?:\/\/\S+/)![0]
  const [, type, email, code] = new URL(link).pathname.split('/').slice(1)
  return { type, email: decodeURIComponent(email), code }
}

async function verifiedUser(label: string) {
  const email = uniqueEmail(label)
  await createAccount({ email, name: 'Test Person', password: PASSWORD }, info())
  const link = await lastLink(email, 'emailVerify')
  await verifyEmail(link.email, link.code)
  const user = await prisma.user.findUniqueOrThrow({ where: { email } })
  const actor: UserActor = { kind: 'user', userId: user.id, email, name: user.name, isSiteAdmin: false, ip: '10.9.9.9', userAgent: 'vitest' }
  return { email, user, actor }
}

describe('sign-in and account e-mail flows', () => {
  it('refuses an unverified account until its verification link is used', async () => {
    const email = uniqueEmail('unverified')
    expect(await createAccount({ email, name: 'New Person', password: PASSWORD }, info())).toEqual({ ok: true })
    await expect(signInWithPassword({ email, password: PASSWORD }, info())).rejects.toMatchObject({ code: 'mvr-auth/unverified' })

    await requestEmailVerification({ email }, info())
    expect(await prisma.outboxEmail.count({ where: { to: email, kind: 'emailVerify' } })).toBe(2)
    const link = await lastLink(email, 'emailVerify')
    expect(link.type).toBe('emailVerify')
    await verifyEmail(link.email, link.code)
    const session = await signInWithPassword({ email, password: PASSWORD }, info())
    expect((await resolveToken(session.token)).status).toBe('ok')
    await expect(verifyEmail(link.email, link.code)).rejects.toMatchObject({ code: 'auth/invalid-action-code' })
  })

  it("answers requests for unknown accounts like known ones and rejects a malformed address", async () => {
    await expect(requestEmailVerification({ email: uniqueEmail('nobody') }, info())).resolves.toEqual({ ok: true })
    await expect(requestPasswordReset({ email: uniqueEmail('nobody') }, info())).resolves.toEqual({ ok: true })
    await expect(requestPasswordReset({ email: 'not-an-address' }, info())).rejects.toMatchObject({ message: 'Enter a valid email address' })
  })

  it('gives a wrong password and a disabled account their errors', async () => {
    const { email, user } = await verifiedUser('disabled')
    await expect(signInWithPassword({ email, password: 'Wrong-password-1' }, info())).rejects.toMatchObject({ code: 'auth/invalid-credential', status: 401 })
    await prisma.user.update({ where: { id: user.id }, data: { disabled: true } })
    await expect(signInWithPassword({ email, password: PASSWORD }, info())).rejects.toMatchObject({
      code: 'mvr-auth/disabled',
      message: 'Account was administratively disabled',
    })
  })

  it('rate-limits sign-in attempts per e-mail with a clear 429 message', async () => {
    const { email } = await verifiedUser('ratelimit')
    for (let i = 0; i < 10; i++) {
      await expect(signInWithPassword({ email, password: 'Wrong-password-1' }, info(`10.1.${i}.1`))).rejects.toMatchObject({ status: 401 })
    }
    await expect(signInWithPassword({ email, password: PASSWORD }, info('10.2.0.1'))).rejects.toMatchObject({
      status: 429,
      message: expect.stringMatching(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/),
    })
  })

  it("refuses a link whose e-mail is not the one the code was sent to", async () => {
    const email = uniqueEmail('mismatch')
    await createAccount({ email, name: 'Mismatch', password: PASSWORD }, info())
    const link = await lastLink(email, 'emailVerify')
    await expect(verifyEmail(uniqueEmail('other'), link.code)).rejects.toMatchObject({ code: 'mvr-auth/mismatchemail', message: 'Incorrect email address' })
    await expect(verifyEmail(email, undefined)).rejects.toMatchObject({ message: 'Missing auth code' })
    // the refused attempt did not use the code up
    await expect(verifyEmail(email, link.code)).resolves.toEqual({ email })
  })

  it('resets a password through the mailed link and ends every session', async () => {
    const { email } = await verifiedUser('reset')
    const session = await signInWithPassword({ email, password: PASSWORD }, info())
    await requestPasswordReset({ email }, info())
    const link = await lastLink(email, 'passwordReset')
    expect(link.type).toBe('passwordReset')
    // a weak password is refused without using the code up
    await expect(resetPassword({ email, code: link.code, password: 'short' })).rejects.toMatchObject({ status: 400 })
    await resetPassword({ email, code: link.code, password: 'Brand-new-pass-2' })
    expect((await resolveToken(session.token)).status).toBe('none')
    await expect(signInWithPassword({ email, password: PASSWORD }, info())).rejects.toMatchObject({ code: 'auth/invalid-credential' })
    await expect(signInWithPassword({ email, password: 'Brand-new-pass-2' }, info())).resolves.toHaveProperty('token')
  })

  it('changes the e-mail only with the current password, signs the user out and verifies the new address', async () => {
    const { email, actor } = await verifiedUser('change')
    const session = await signInWithPassword({ email, password: PASSWORD }, info())
    const newEmail = uniqueEmail('changed')
    await expect(changeEmail(actor, { email: newEmail, currentPassword: 'Wrong-password-1' })).rejects.toMatchObject({ code: 'auth/wrong-password' })
    await changeEmail(actor, { email: newEmail, currentPassword: PASSWORD })
    expect((await resolveToken(session.token)).status).toBe('none')
    await expect(signInWithPassword({ email: newEmail, password: PASSWORD }, info())).rejects.toMatchObject({ code: 'mvr-auth/unverified' })
    expect(await prisma.outboxEmail.count({ where: { to: email, kind: 'emailChanged' } })).toBe(1)
    const link = await lastLink(newEmail, 'emailVerify')
    await verifyEmail(link.email, link.code)
    await expect(signInWithPassword({ email: newEmail, password: PASSWORD }, info())).resolves.toHaveProperty('token')
  })

  it('changes the password keeping only the current session, and the name', async () => {
    const { email, actor } = await verifiedUser('password')
    const current = await signInWithPassword({ email, password: PASSWORD }, info())
    const other = await signInWithPassword({ email, password: PASSWORD }, info())
    await expect(changePassword(actor, { currentPassword: PASSWORD, password: 'weak' }, current.token)).rejects.toMatchObject({ status: 400 })
    await changePassword(actor, { currentPassword: PASSWORD, password: 'Another-pass-3' }, current.token)
    expect((await resolveToken(current.token)).status).toBe('ok')
    expect((await resolveToken(other.token)).status).toBe('none')
    expect(await changeName(actor, { name: '  Renamed Person ' })).toEqual({ name: 'Renamed Person' })
    await expect(changeName(actor, { name: ' ' })).rejects.toMatchObject({ message: 'Name is required' })
  })

  it('refuses name, e-mail and password changes on a Google account', async () => {
    const user = await prisma.user.create({ data: { email: uniqueEmail('google'), name: 'G', provider: 'google', emailVerified: true } })
    const actor: UserActor = { kind: 'user', userId: user.id, email: user.email, name: user.name, isSiteAdmin: false, ip: '', userAgent: '' }
    await expect(changeName(actor, { name: 'New' })).rejects.toMatchObject({ status: 403 })
    await expect(changeEmail(actor, { email: uniqueEmail('g2'), currentPassword: 'x' })).rejects.toMatchObject({ status: 403 })
    await expect(changePassword(actor, { currentPassword: 'x', password: 'Another-pass-3' })).rejects.toMatchObject({ status: 403 })
  })
})

describe('account API calls', () => {
  async function call(name: string, body: object, token?: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (token) headers.cookie = await commitSessionCookie(token, new Date(Date.now() + 60_000))
    const request = new Request(`http://portal.test/client/v1/${name}?time=1`, { method: 'POST', headers, body: JSON.stringify(body) })
    const response = await apiAction({ request, params: { '*': name }, context: {} })
    return { status: response.status, body: await response.json() }
  }

  it("refuses to change another user's account and changes the caller's own", async () => {
    const a = await verifiedUser('api-a')
    const b = await verifiedUser('api-b')
    const { token } = await signInWithPassword({ email: a.email, password: PASSWORD }, info())
    const refused = await call('auth/nameChange', { uid: b.user.id, name: 'Hijacked' }, token)
    expect(refused.status).toBe(403)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: b.user.id } })).name).toBe('Test Person')
    const accepted = await call('auth/nameChange', { uid: a.user.id, name: 'Own Name' }, token)
    expect(accepted).toEqual({ status: 200, body: { name: 'Own Name' } })
  })

  it('answers the public request calls without a session and reports a bad address', async () => {
    expect(await call('public/auth/passwordResetRequest', { email: uniqueEmail('api-anon') })).toEqual({ status: 200, body: { ok: true } })
    const bad = await call('public/auth/emailVerifyRequest', { email: 'nope' })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toBe('Enter a valid email address')
    expect((await call('auth/nameChange', { uid: 'x', name: 'y' })).body.code).toBe('mvr-auth/notloggedin')
  })
})
