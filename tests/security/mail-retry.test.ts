/**
 * Issue 10 item 13: a failed SMTP send is retried with backoff by the background sender (state in
 * the outbox rows, so restart safe); site admins see failures; a GET of the verification link (a
 * mail scanner) does not use the code up.
 */
import { type AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAccount } from '~/domain/auth/account.server'
import { deliverDueMail, sendMail } from '~/domain/mail/mail.server'
import { adminOutbox } from '~/domain/mail/outbox.server'
import { action as verifyAction, loader as verifyLoader } from '~/routes/auth.emailVerify.$email.($code)'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'

/** An in-process SMTP server that refuses the first `failures` messages with a 451, then accepts. */
function fakeSmtp() {
  const received: string[] = []
  const state = { failures: 0 }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      let body = ''
      stream.on('data', (chunk: Buffer) => (body += chunk.toString()))
      stream.on('end', () => {
        if (state.failures > 0) {
          state.failures--
          const error = Object.assign(new Error('Mailbox temporarily unavailable'), { responseCode: 451 })
          return callback(error)
        }
        received.push(body)
        callback()
      })
    },
  })
  return { server, received, state }
}

const smtp = fakeSmtp()
const original = getConfig()

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve))
  const { port } = smtp.server.server.address() as AddressInfo
  setConfig({ ...original, SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` })
})
afterAll(async () => {
  setConfig(original)
  await new Promise<void>((resolve) => smtp.server.close(() => resolve()))
})

const admin = { kind: 'user' as const, userId: 'x', email: 'admin@mail.test', name: 'Admin', isSiteAdmin: true, ip: '', userAgent: '' }

describe('outgoing e-mail', () => {
  it('retries a send the SMTP server refused, with backoff, until it is delivered', async () => {
    smtp.state.failures = 2
    const first = await sendMail({ to: 'retry@mail.test', subject: 'Hello once', text: 'body' })
    expect(first).toMatchObject({ attempts: 1, sentAt: null })
    expect(first.error).toMatch(/451/)
    const firstDelay = first.nextAttemptAt!.getTime() - Date.now()
    expect(firstDelay).toBeGreaterThan(20_000)
    expect(smtp.received).toHaveLength(0)

    // Site admins see it among the problems.
    const problems = await adminOutbox(admin, { onlyProblems: true })
    expect(problems.counts.retrying).toBe(1)
    expect(problems.rows[0]).toMatchObject({ to: 'retry@mail.test', state: 'retrying', attempts: 1 })
    await expect(adminOutbox({ ...admin, isSiteAdmin: false })).rejects.toMatchObject({ status: 403 })

    // Not due yet: nothing happens. Then (as after a restart: only the row's state counts) it is due.
    expect(await deliverDueMail()).toBe(0)
    await deliverDueMail(new Date(first.nextAttemptAt!.getTime() + 1))
    const second = await prisma.outboxEmail.findUniqueOrThrow({ where: { id: first.id } })
    expect(second).toMatchObject({ attempts: 2, sentAt: null })
    expect(second.nextAttemptAt!.getTime() - Date.now()).toBeGreaterThan(firstDelay) // backoff grows

    expect(await deliverDueMail(new Date(second.nextAttemptAt!.getTime() + 1))).toBe(1)
    const delivered = await prisma.outboxEmail.findUniqueOrThrow({ where: { id: first.id } })
    expect(delivered).toMatchObject({ attempts: 3, nextAttemptAt: null })
    expect(delivered.sentAt).not.toBeNull()
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]).toContain('Subject: Hello once')
    expect((await adminOutbox(admin, { onlyProblems: true })).counts).toMatchObject({ retrying: 0, failed: 0 })
  })

  it('does not use up a verification code when the link is only fetched (GET); the button (POST) verifies', async () => {
    const email = 'scanned@mail.test'
    await createAccount({ email, name: 'Scanned', password: 'Correct-horse-1' }, { ip: '10.1.1.1', userAgent: 'vitest' })
    const mail = await prisma.outboxEmail.findFirstOrThrow({ where: { to: email, kind: 'emailVerify' } })
    const [, , code] = new URL(mail.text.match(/https?:\/\/\S+/)![0]).pathname.split('/').slice(2)
    const params = { email, code: code! }
    const request = new Request(`http://portal.test/auth/emailVerify/${email}/${code}`)
    for (let i = 0; i < 3; i++) expect(await verifyLoader({ request, params, context: {} })).toEqual({ email, error: null })
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).emailVerified).toBe(false)

    const post = new Request(request.url, { method: 'POST' })
    const outcome = await verifyAction({ request: post, params, context: {} }).catch((e: unknown) => e)
    expect((outcome as Response).headers.get('location')).toBe(`/login/email/${encodeURIComponent(email)}?notice=verified`)
    expect((await prisma.user.findUniqueOrThrow({ where: { email } })).emailVerified).toBe(true)
    expect(await verifyLoader({ request, params, context: {} })).toMatchObject({ error: { code: 'auth/invalid-action-code' } })
  })
})
