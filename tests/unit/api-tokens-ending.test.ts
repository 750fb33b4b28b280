/**
 * Issue 10 item 6: API tokens end with auth/logout made with them, a password reset, an e-mail
 * change and a disable, and Settings > API Tokens says what ended each one.
 */
import { describe, expect, it } from 'vitest'
import { type UserActor } from '~/domain/actor'
import { createApiToken, listApiTokens, listEndedApiTokens, revokeApiToken } from '~/domain/auth/api-tokens.server'
import { hashPassword } from '~/domain/auth/crypto.server'
import { requestPasswordReset, resetPassword } from '~/domain/auth/email-flows.server'
import { changeEmail, changePassword } from '~/domain/auth/own-account.server'
import { resolveToken } from '~/domain/auth/session.server'
import { action as apiAction } from '~/routes/client.v1.$'
import { prisma } from '~/utils/db.server'

const PASSWORD = 'Correct-horse-1'
let counter = 0

async function person() {
  const email = `ending.${Date.now()}.${++counter}@tokens.test`
  const user = await prisma.user.create({ data: { email, name: 'Ending Person', emailVerified: true, passwordHash: await hashPassword(PASSWORD) } })
  const actor: UserActor = { kind: 'user', userId: user.id, email, name: user.name, isSiteAdmin: false, ip: `10.4.0.${counter}`, userAgent: 'vitest' }
  return { user, actor, email }
}

async function callWithToken(name: string, token: string, body: object = {}) {
  const request = new Request(`http://portal.test/client/v1/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const response = await apiAction({ request, params: { '*': name }, context: {} })
  return response.status
}

describe('API tokens that end', () => {
  it('auth/logout with a bearer token ends that token only', async () => {
    const { actor } = await person()
    const used = await createApiToken(actor, { name: 'Laptop' })
    const other = await createApiToken(actor, { name: 'Build server' })
    expect(await callWithToken('auth/logout', used.token)).toBe(200)
    expect(await callWithToken('auth/authorized', used.token)).toBe(401)
    expect(await callWithToken('auth/authorized', other.token)).toBe(200)
    expect(await listEndedApiTokens(actor)).toMatchObject([{ name: 'Laptop', endedReason: 'signed out' }])
  })

  it('a password reset ends every token of the account', async () => {
    const { actor, email } = await person()
    const a = await createApiToken(actor, { name: 'One' })
    const b = await createApiToken(actor, { name: 'Two' })
    await requestPasswordReset({ email }, { ip: '10.4.1.1', userAgent: 'vitest' })
    const mail = await prisma.outboxEmail.findFirstOrThrow({ where: { to: email, kind: 'passwordReset' } })
    const code = new URL(mail.text.match(/https?:\/\/\S+/)![0]).pathname.split('/').at(-1)
    await resetPassword({ email, code, password: 'Brand-new-pass-2' })
    for (const t of [a, b]) expect((await resolveToken(t.token)).status).toBe('none')
    expect(await listApiTokens(actor)).toEqual([])
    const ended = await listEndedApiTokens(actor)
    expect(ended.map((t) => t.endedReason)).toEqual(['password reset', 'password reset'])
    expect(ended[0].endedAt).toBeInstanceOf(Date)
  })

  it('an e-mail change ends every token; a password change does not; a manual revoke says revoked', async () => {
    const { actor } = await person()
    const kept = await createApiToken(actor, { name: 'Survives password change' })
    const revoked = await createApiToken(actor, { name: 'Revoked by hand' })
    await changePassword(actor, { currentPassword: PASSWORD, password: 'Another-pass-3' })
    expect((await resolveToken(kept.token)).status).toBe('ok')
    await revokeApiToken(actor, revoked.id)
    await changeEmail(actor, { email: `moved.${++counter}@tokens.test`, currentPassword: 'Another-pass-3' })
    expect((await resolveToken(kept.token)).status).toBe('none')
    const ended = Object.fromEntries((await listEndedApiTokens(actor)).map((t) => [t.name, t.endedReason]))
    expect(ended).toEqual({ 'Survives password change': 'e-mail change', 'Revoked by hand': 'revoked' })
  })
})
