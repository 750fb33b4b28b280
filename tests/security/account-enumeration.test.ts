/**
 * Issue 10 item 5: sign-up and sign-in must not tell whether an account exists, neither by their
 * answer nor by their timing. Timing is checked by its cause: both paths run the same argon2 work
 * (one verification for sign-in, one hash for sign-up), counted here. Wall-clock ratios are
 * measured by `npm run bench:enumeration`: on a busy machine a test cannot tell a stall from a
 * difference.
 */
import type * as Argon2 from '@node-rs/argon2'
import { beforeAll, describe, expect, it, vi } from 'vitest'

const verifyCalls = vi.hoisted(() => ({ count: 0 }))
const hashCalls = vi.hoisted(() => ({ count: 0 }))
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof Argon2>()
  return {
    ...original,
    verify: (...args: Parameters<typeof original.verify>) => {
      verifyCalls.count++
      return original.verify(...args)
    },
    hash: (...args: Parameters<typeof original.hash>) => {
      hashCalls.count++
      return original.hash(...args)
    },
  }
})

const { createAccount, signInWithPassword } = await import('~/domain/auth/account.server')
const { action: apiAction } = await import('~/routes/client.v1.$')
const { action: loginAction } = await import('~/routes/login.($provider).($username)')
const { hashPassword } = await import('~/domain/auth/crypto.server')
const { prisma } = await import('~/utils/db.server')

const PASSWORD = 'Correct-horse-1'
const EXISTING = 'existing@enum.test'
let ipCounter = 0
const info = () => ({ ip: `10.5.${Math.floor(++ipCounter / 200)}.${ipCounter % 200}`, userAgent: 'vitest' })

describe('account enumeration', () => {
  beforeAll(async () => {
    await prisma.user.create({ data: { email: EXISTING, name: 'Existing Person', emailVerified: true, passwordHash: await hashPassword(PASSWORD) } })
  })

  it('answers sign-up the same for a new and an existing address (API and form), mailing the owner instead', async () => {
    const call = async (email: string) => {
      const request = new Request('http://portal.test/client/v1/public/auth/userCreate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, name: 'Someone', password: PASSWORD }),
      })
      const response = (await apiAction({ request, params: { '*': 'public/auth/userCreate' }, context: {} })) as Response
      return { status: response.status, body: await response.text() }
    }
    const fresh = await call('fresh@enum.test')
    const existing = await call(EXISTING)
    expect(existing).toEqual(fresh)
    expect(fresh.status).toBe(200)

    const form = async (email: string) => {
      const body = new URLSearchParams({ intent: 'create', email, name: 'Someone', password: PASSWORD, confirmation: PASSWORD })
      const request = new Request('http://portal.test/login', { method: 'POST', body })
      const result = (await loginAction({ request, params: {}, context: {} })) as { data: unknown; init: { status?: number } | null }
      return JSON.stringify([result.data, result.init?.status ?? 200])
    }
    expect(await form(EXISTING)).toEqual(await form('fresh-form@enum.test'))

    // The owner of the existing account is told; the existing account is unchanged.
    const notices = await prisma.outboxEmail.findMany({ where: { to: EXISTING } })
    expect(notices.map((m) => m.kind)).toEqual(['signUpAttempt', 'signUpAttempt'])
    expect(notices[0]!.subject).toContain('Someone tried to create a Pixelfleet account')
    expect((await prisma.user.findUniqueOrThrow({ where: { email: EXISTING } })).name).toBe('Existing Person')
    expect(await prisma.outboxEmail.count({ where: { to: 'fresh@enum.test', kind: 'emailVerify' } })).toBe(1)
  })

  it('runs an argon2 verification for an unknown account as for a known one', async () => {
    verifyCalls.count = 0
    await expect(signInWithPassword({ email: 'nobody@enum.test', password: 'Wrong-password-1' }, info())).rejects.toMatchObject({ status: 401 })
    expect(verifyCalls.count).toBe(1)
    verifyCalls.count = 0
    await expect(signInWithPassword({ email: EXISTING, password: 'Wrong-password-1' }, info())).rejects.toMatchObject({ status: 401 })
    expect(verifyCalls.count).toBe(1)
  })

  it('does the same argon2 work for sign-up with a new and with an existing address', async () => {
    verifyCalls.count = 0
    hashCalls.count = 0
    await createAccount({ email: 'work-new@enum.test', name: 'T', password: PASSWORD }, info())
    const forNew = { hashes: hashCalls.count, verifies: verifyCalls.count }
    hashCalls.count = 0
    verifyCalls.count = 0
    await createAccount({ email: EXISTING, name: 'T', password: PASSWORD }, info())
    expect({ hashes: hashCalls.count, verifies: verifyCalls.count }).toEqual(forNew)
    expect(forNew.hashes).toBe(1)
  })
})
