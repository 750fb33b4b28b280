import { describe, expect, it } from 'vitest'
import { type UserActor } from '~/domain/actor'
import { hashPassword } from '~/domain/auth/crypto.server'
import { createApiToken, createApiTokenWithPassword, listApiTokens, revokeApiToken, revokeApiTokenValue } from '~/domain/auth/api-tokens.server'
import { resolveToken } from '~/domain/auth/session.server'
import { action as apiAction } from '~/routes/client.v1.$'
import { prisma } from '~/utils/db.server'

const PASSWORD = 'Correct-horse-1'
let counter = 0

async function person(extra: { emailVerified?: boolean; disabled?: boolean } = {}) {
  const email = `tokens.${Date.now()}.${++counter}@tokens.test`
  const user = await prisma.user.create({
    data: { email, name: 'Token Person', emailVerified: true, passwordHash: await hashPassword(PASSWORD), ...extra },
  })
  const actor: UserActor = { kind: 'user', userId: user.id, email, name: user.name, isSiteAdmin: false, ip: '10.2.0.1', userAgent: 'vitest' }
  return { user, actor, email }
}

const info = () => ({ ip: `10.3.0.${++counter}`, userAgent: 'vitest' })

async function callWithToken(name: string, token: string, body: object = {}) {
  const request = new Request(`http://portal.test/client/v1/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const response = await apiAction({ request, params: { '*': name }, context: {} })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('personal API tokens', () => {
  it('returns the token once, stores only its hash, and authenticates API calls until revoked', async () => {
    const { actor, user } = await person()
    const created = await createApiToken(actor, { name: 'Build server' })
    expect(created.token.startsWith(created.prefix)).toBe(true)
    const row = await prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } })
    expect(JSON.stringify(row)).not.toContain(created.token)

    const whoami = await callWithToken('auth/authorized', created.token)
    expect(whoami).toMatchObject({ status: 200, body: { uid: user.id } })
    expect((await listApiTokens(actor)).map((t) => t.name)).toEqual(['Build server'])
    expect((await listApiTokens(actor))[0].lastUsedAt).not.toBeNull()

    await revokeApiToken(actor, created.id)
    expect(await listApiTokens(actor)).toEqual([])
    expect((await callWithToken('auth/authorized', created.token)).status).toBe(401)
  })

  it('does not let one user revoke or list another user’s tokens', async () => {
    const a = await person()
    const b = await person()
    const created = await createApiToken(a.actor, { name: 'Mine' })
    await expect(revokeApiToken(b.actor, created.id)).rejects.toMatchObject({ status: 404 })
    expect(await listApiTokens(b.actor)).toEqual([])
    expect((await resolveToken(created.token)).status).toBe('ok')
  })

  it('exchanges e-mail and password for a token under the sign-in rules', async () => {
    const verified = await person()
    const created = await createApiTokenWithPassword({ email: verified.email, password: PASSWORD, name: 'CLI on laptop' }, info())
    expect((await resolveToken(created.token)).status).toBe('ok')
    // The sign-in is in the login history, but no web session is left behind.
    expect(await prisma.loginEvent.count({ where: { userId: verified.user.id } })).toBe(1)
    expect(await prisma.session.count({ where: { userId: verified.user.id } })).toBe(0)

    await expect(createApiTokenWithPassword({ email: verified.email, password: 'wrong-Password-1' }, info())).rejects.toMatchObject({ status: 401 })
    const unverified = await person({ emailVerified: false })
    await expect(createApiTokenWithPassword({ email: unverified.email, password: PASSWORD }, info())).rejects.toMatchObject({ code: 'mvr-auth/unverified' })
    const disabled = await person({ disabled: true })
    await expect(createApiTokenWithPassword({ email: disabled.email, password: PASSWORD }, info())).rejects.toMatchObject({ code: 'mvr-auth/disabled' })
  })

  it('revokes the calling token on CLI logout', async () => {
    const { actor } = await person()
    const created = await createApiToken(actor, { name: 'Laptop' })
    await revokeApiTokenValue(actor, created.token)
    expect((await resolveToken(created.token)).status).toBe('none')
  })
})
