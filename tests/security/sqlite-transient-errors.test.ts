/**
 * Issue 28 (high): a SQLite transaction that failed to begin or commit left the adapter's
 * connection mutex taken, so every later write (sign-in included) timed out until a restart.
 * With patches/@prisma+adapter-better-sqlite3+*.patch the failed request fails (classified as
 * "unavailable", which the portal answers with 503) and the next ones succeed once the condition
 * is gone: a lock another connection holds past the busy timeout, and a full disk (a small tmpfs).
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { TMP_DIR } from '../setup/test-db'
import { signInWithPassword } from '~/domain/auth/account.server'
import { hashPassword } from '~/domain/auth/crypto.server'
import { disconnectDatabase, prisma, tuneDatabase } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { isUnavailableError } from '~/utils/errors.server'

const info = { ip: '192.0.2.44', userAgent: 'vitest' }
const password = 'Correct-horse-1'
let counter = 0

/** A call that must settle: a wedged mutex shows as this limit passing instead of a hang. */
async function settles<T>(promise: Promise<T>, limitMs = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${limitMs} ms (wedged?)`)), limitMs)))
  try {
    return await Promise.race([promise, limit])
  } finally {
    clearTimeout(timer)
  }
}

async function createUser(label: string) {
  const email = `${label}-${++counter}@transient.test`
  await prisma.user.create({ data: { email, name: label, emailVerified: true, passwordHash: await hashPassword(password) } })
  return email
}

/** The writes the report saw wedge: a sign-in (a batch transaction), an interactive transaction, a plain insert. */
async function writesSucceed(email: string) {
  const session = await settles(signInWithPassword({ email, password }, info))
  expect(session.token).toBeTruthy()
  await settles(prisma.$transaction(async (tx) => tx.user.update({ where: { email }, data: { name: `renamed ${counter}` } })))
  await settles(prisma.user.create({ data: { email: `after-${++counter}@transient.test`, name: 'after' } }))
}

/** The error a write gets; it must be one the portal answers with 503. */
async function failingWrite(write: () => Promise<unknown>): Promise<unknown> {
  const error = await settles(write().then(() => null, (e: unknown) => e))
  expect(error, 'the write should have failed').not.toBeNull()
  expect(isUnavailableError(error), String(error)).toBe(true)
  return error
}

// SQLite only: the PostgreSQL run (npm run test:scaleout) has no SQLite file to lock
const onSqlite = process.env.PIXELFLEET_TEST_DATABASE !== 'postgres'
;(onSqlite ? describe : describe.skip)('a lock held by another connection past the busy timeout', () => {
  it('fails that request as unavailable and leaves later sign-ins and writes working', async () => {
    const email = await createUser('lock')
    await prisma.$executeRawUnsafe('PRAGMA busy_timeout = 300')
    const other = new Database(getConfig().DATABASE_URL.replace(/^file:/, ''))
    try {
      other.prepare('BEGIN IMMEDIATE').run()
      // interactive, batch (sign-in) and single-statement writes all fail while the lock is held
      await failingWrite(() => prisma.$transaction(async (tx) => tx.user.update({ where: { email }, data: { name: 'blocked' } })))
      await failingWrite(() => signInWithPassword({ email, password }, info))
      await failingWrite(() => prisma.$transaction(async (tx) => tx.user.update({ where: { email }, data: { name: 'blocked again' } })))
      other.prepare('ROLLBACK').run()
    } finally {
      other.close()
    }
    await writesSucceed(email)
    await prisma.$executeRawUnsafe('PRAGMA busy_timeout = 5000')
  })
})

const canMount = process.platform === 'linux' && process.getuid?.() === 0
const describeDiskFull = canMount && onSqlite ? describe : describe.skip
if (!canMount) console.warn('sqlite-transient-errors: the disk-full case needs root to mount a small tmpfs; skipped')

describeDiskFull('a full disk (a 4 MiB tmpfs)', () => {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-full-'))
  const previous = getConfig()
  afterAll(async () => {
    await disconnectDatabase()
    execFileSync('umount', [mountPoint])
    fs.rmSync(mountPoint, { recursive: true, force: true })
    setConfig(previous)
  })

  it('fails writes as unavailable while full and works again once space is freed, without a restart', async () => {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint])
    const file = path.join(mountPoint, 'portal.db')
    fs.copyFileSync(path.join(TMP_DIR, 'template.db'), file)
    await disconnectDatabase()
    setConfig(loadConfig({ NODE_ENV: 'test', DATABASE_URL: `file:${file}`, LOG_LEVEL: 'silent', PORT: '0', MQTT_PORT: '0', RELAY_PORT: '0', PUBLIC_URL: 'http://portal.test', RELAY_PUBLIC_URL: 'http://relay.test', SEED_DEMO: 'false' }))
    await tuneDatabase()
    const email = await createUser('full')
    await writesSucceed(email)

    // Fill the disk: one file takes whatever space is left.
    const filler = path.join(mountPoint, 'filler')
    const fd = fs.openSync(filler, 'w')
    const chunk = Buffer.alloc(64 * 1024, 1)
    try {
      for (;;) fs.writeSync(fd, chunk)
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC')
    } finally {
      fs.closeSync(fd)
    }
    // Each write adds rows until the WAL cannot grow: at the latest within a few hundred rows.
    const bigText = 'x'.repeat(8 * 1024)
    await failingWrite(async () => {
      for (let i = 0; i < 2000; i++) await prisma.$transaction(async (tx) => tx.user.create({ data: { email: `fill-${i}-${++counter}@transient.test`, name: bigText } }))
    })
    await failingWrite(() => signInWithPassword({ email, password }, info))

    fs.rmSync(filler)
    await writesSucceed(email)
  })
})
