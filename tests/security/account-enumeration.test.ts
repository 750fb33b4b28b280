/**
 * Issue 10 item 5: sign-up and sign-in must not tell whether an account exists, neither by their
 * answer nor by their timing. Timing is checked deterministically (the unknown-account path runs
 * an argon2 verification too) and by medians with a generous ratio bound (no absolute times).
 */
import type * as Argon2 from '@node-rs/argon2'
import { beforeAll, describe, expect, it, vi } from 'vitest'

const verifyCalls = vi.hoisted(() => ({ count: 0 }))
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof Argon2>()
  return {
    ...original,
    verify: (...args: Parameters<typeof original.verify>) => {
      verifyCalls.count++
      return original.verify(...args)
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

async function timed(fn: () => Promise<unknown>) {
  const start = performance.now()
  await fn().catch(() => undefined)
  return performance.now() - start
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

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

  it('takes about as long for an unknown account as for a known one (sign-in medians, sign-up best runs)', async () => {
    await signInWithPassword({ email: 'warmup@enum.test', password: 'x' }, info()).catch(() => undefined)
    const known: number[] = []
    const unknown: number[] = []
    for (let i = 0; i < 7; i++) {
      unknown.push(await timed(() => signInWithPassword({ email: `nobody${i}@enum.test`, password: 'Wrong-password-1' }, info())))
      known.push(await timed(() => signInWithPassword({ email: EXISTING, password: `Wrong-password-${i}` }, info())))
    }
    const ratio = median(known) / median(unknown)
    expect(ratio, `known ${median(known).toFixed(1)} ms / unknown ${median(unknown).toFixed(1)} ms`).toBeLessThan(2)
    expect(ratio).toBeGreaterThan(0.5)

    const fresh: number[] = []
    const taken: number[] = []
    for (let i = 0; i < 7; i++) {
      fresh.push(await timed(() => createAccount({ email: `timing${i}@enum.test`, name: 'T', password: PASSWORD }, info())))
      taken.push(await timed(() => createAccount({ email: EXISTING, name: 'T', password: PASSWORD }, { ip: `10.77.0.${i}`, userAgent: 'vitest' })))
    }
    // The least disturbed run of each: a new account makes a few more writes than a notice to an
    // existing one (milliseconds against the hash's tens), which a busy CI machine's stalls on the
    // database (PostgreSQL: a round trip per statement) can inflate in medians of a handful of runs.
    const signUpRatio = Math.min(...fresh) / Math.min(...taken)
    expect(signUpRatio, `new ${fresh.map((t) => t.toFixed(1)).join(', ')} ms / existing ${taken.map((t) => t.toFixed(1)).join(', ')} ms`).toBeLessThan(2)
    expect(signUpRatio).toBeGreaterThan(0.5)
  })
})
