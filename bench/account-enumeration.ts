// npm run bench:enumeration [-- --runs N] [-- --database postgresql://...]: does a sign-in or sign-up
// take about as long for an unknown account as for a known one? (docs/security.md, account
// enumeration). Wall-clock ratios belong here, not in tests/: on a busy machine a handful of runs
// cannot tell a stall from a difference. tests/security/account-enumeration.test.ts asserts the
// behaviour instead (the same argon2 work on both paths).
// Prints the medians and best runs per path and the known/unknown ratios (target 0.5-2).
import path from 'node:path'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { setConfig } from '../app/utils/env.server'
import { benchDatabase, databaseOption } from './bench-database'

const root = path.resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 15
const db = benchDatabase(databaseOption(), '/tmp/pixelfleet-bench-enumeration.db', 'enumeration')

await db.reset()
await migrateDatabase(db.url, root)
setConfig(loadConfig({ NODE_ENV: 'test', DATABASE_URL: db.url, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://portal.test', RELAY_PUBLIC_URL: 'http://relay.test', SEED_DEMO: 'false' }))
const { createAccount, signInWithPassword } = await import('../app/domain/auth/account.server')
const { hashPassword } = await import('../app/domain/auth/crypto.server')
const { disconnectDatabase, prisma } = await import('../app/utils/db.server')

const PASSWORD = 'Correct-horse-1'
const EXISTING = 'existing@bench.test'
await prisma.user.create({ data: { email: EXISTING, name: 'Existing Person', emailVerified: true, passwordHash: await hashPassword(PASSWORD) } })

let ip = 0
const info = () => ({ ip: `10.${Math.floor(++ip / 250)}.${ip % 250}.1`, userAgent: 'bench' })
// Every attempt counts against the account's limit: cleared so the runs measure the work, not a 429.
const clearLimits = () => prisma.rateLimiterFlexible.deleteMany()

async function timed(fn: () => Promise<unknown>) {
  await clearLimits()
  const started = performance.now()
  await fn().catch(() => undefined)
  return performance.now() - started
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

function report(name: string, known: number[], unknown: number[]) {
  const ratio = median(known) / median(unknown)
  const best = Math.min(...known) / Math.min(...unknown)
  const ok = ratio > 0.5 && ratio < 2
  console.log(
    `${name.padEnd(8)} known median ${median(known).toFixed(1).padStart(6)} ms, best ${Math.min(...known).toFixed(1).padStart(6)} ms | ` +
      `unknown median ${median(unknown).toFixed(1).padStart(6)} ms, best ${Math.min(...unknown).toFixed(1).padStart(6)} ms | ` +
      `ratio median ${ratio.toFixed(2)}, best ${best.toFixed(2)} (target 0.5-2) ${ok ? 'OK' : 'DIFFERENT'}`,
  )
  return ok
}

await signInWithPassword({ email: 'warmup@bench.test', password: 'x' }, info()).catch(() => undefined)
const signIn = { known: [] as number[], unknown: [] as number[] }
const signUp = { known: [] as number[], unknown: [] as number[] }
for (let i = 0; i < RUNS; i++) {
  signIn.unknown.push(await timed(() => signInWithPassword({ email: `nobody${i}@bench.test`, password: 'Wrong-password-1' }, info())))
  signIn.known.push(await timed(() => signInWithPassword({ email: EXISTING, password: `Wrong-password-${i}` }, info())))
  signUp.unknown.push(await timed(() => createAccount({ email: `new${i}@bench.test`, name: 'T', password: PASSWORD }, info())))
  signUp.known.push(await timed(() => createAccount({ email: EXISTING, name: 'T', password: PASSWORD }, info())))
}
console.log(`account enumeration timing, ${RUNS} runs per path, ${db.postgres ? 'PostgreSQL' : 'SQLite'}`)
const allOk = [report('sign-in', signIn.known, signIn.unknown), report('sign-up', signUp.known, signUp.unknown)].every(Boolean)
await disconnectDatabase()
await db.remove()
process.exitCode = allOk ? 0 : 1
