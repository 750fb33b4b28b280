/**
 * Issues 24 and 28: while the database is unavailable the portal answers 503 + Retry-After (pages
 * with the "briefly unavailable" page, the API with JSON `{ code: 'unavailable' }`), and once the
 * database is back it works again without a restart. On SQLite: another connection holds the write
 * lock past the busy timeout. On PostgreSQL: the test's own throwaway cluster (initdb + pg_ctl on
 * an ephemeral port) is stopped and started again.
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { withoutVitest } from '../../server/build'
import { serverCommand, type RunningPortal } from '../e2e/harness'
import { createTestDatabase } from '../setup/test-db'
import { runToExit } from '../setup/run-to-exit'

/**
 * The real portal (server/start.ts, production build) in a child process on ephemeral ports, as
 * tests/e2e/harness.ts starts it but allowing 10 minutes to get ready: a start (migrations, demo
 * seed) can take longer than the harness's 90 s on a busy machine.
 */
async function startPortalPatiently(env: Record<string, string> = {}): Promise<RunningPortal> {
  const db = createTestDatabase('unavailable', { demo: true })
  const child = spawn(process.execPath, serverCommand(), {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: { ...withoutVitest(process.env), PIXELFLEET_SKIP_BUILD: '1', NODE_ENV: 'production', PORT: '0', MQTT_PORT: '0', RELAY_PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url, SEED_DEMO: 'true', SIMULATOR_AGENTS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    db.remove()
  }
  try {
    const ports = await new Promise<{ port: number; mqttPort: number; relayPort: number }>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const m = output.match(/web :(\d+), MQTT :(\d+), relay :(\d+)/)
        if (m) resolve({ port: Number(m[1]), mqttPort: Number(m[2]), relayPort: Number(m[3]) })
      }
      child.stdout!.on('data', onData)
      child.stderr!.on('data', onData)
      child.once('exit', (code) => reject(new Error(`portal exited with ${code} before it was ready:\n${output}`)))
      setTimeout(() => reject(new Error(`portal not ready in 10 min:\n${output}`)), 600_000).unref()
    })
    return { url: `http://127.0.0.1:${ports.port}`, ...ports, databaseUrl: env.DATABASE_URL ?? db.url, pid: child.pid!, output: () => output, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, what: string, limitMs = 120_000): Promise<T> {
  const deadline = Date.now() + limitMs
  let last: T | undefined
  while (Date.now() < deadline) {
    last = await probe().catch(() => undefined)
    if (last !== undefined && accept(last)) return last
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`)
}

type Answer = { status: number; retryAfter: string | null; type: string; body: string; cookie: string | null; location: string | null }

/** The portal as a browser without JavaScript and an API client see it. */
function client(portal: RunningPortal) {
  const request = async (pathname: string, init: RequestInit = {}): Promise<Answer> => {
    const response = await fetch(`${portal.url}${pathname}`, { redirect: 'manual', ...init, headers: { origin: portal.url, ...(init.headers as Record<string, string>) } })
    return { status: response.status, retryAfter: response.headers.get('retry-after'), type: response.headers.get('content-type') ?? '', body: await response.text(), cookie: response.headers.get('set-cookie'), location: response.headers.get('location') }
  }
  const signInForm = (target = '/login') =>
    request(target, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ intent: 'login', email: DEMO_USERS.owner.email, password: DEMO_PASSWORD }).toString() })
  let session = ''
  const signIn = async () => {
    const answer = await signInForm()
    expect(answer.status, answer.body.slice(0, 300)).toBe(302)
    session = answer.cookie!.split(';')[0]!
  }
  const createNote = () =>
    request('/client/v1/note/create', {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session },
      body: JSON.stringify({ organization: DEMO_ORG_ID, content: 'written while testing availability', resourcePath: `/organization/${DEMO_ORG_ID}` }),
    })
  const page = (pathname: string) => request(pathname, { headers: { cookie: session } })
  return { signInForm, signIn, createNote, page }
}

function expectUnavailablePage(answer: Answer) {
  expect(answer.status, `${answer.location ?? ''} ${answer.body.slice(0, 300)}`).toBe(503)
  expect(answer.retryAfter).toMatch(/^\d+$/)
  expect(answer.type).toMatch(/text\/html/)
  expect(answer.body).toContain('The service is briefly unavailable')
}

function expectUnavailableApi(answer: Answer) {
  expect(answer.status, answer.body.slice(0, 300)).toBe(503)
  expect(answer.retryAfter).toMatch(/^\d+$/)
  expect(answer.type).toMatch(/application\/json/)
  expect(JSON.parse(answer.body)).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/briefly unavailable/) })
}

// SQLite's own lock: not part of the PostgreSQL run (npm run test:scaleout), which covers the case below
;(process.env.PIXELFLEET_TEST_DATABASE === 'postgres' ? describe.skip : describe)('SQLite: a write lock held elsewhere past the busy timeout', () => {
  let portal: RunningPortal
  afterAll(async () => portal?.stop())

  it('answers 503 with Retry-After to pages, data requests and the API, and recovers without a restart', async () => {
    portal = await startPortalPatiently()
    const c = client(portal)
    await c.signIn()
    expect((await c.createNote()).status).toBe(200)

    const other = new Database(portal.databaseUrl.replace(/^file:/, ''))
    try {
      other.prepare('BEGIN IMMEDIATE').run()
      expectUnavailableApi(await c.createNote())
      expectUnavailablePage(await c.signInForm())
      // a client-side navigation's data request: same status and Retry-After
      const data = await c.signInForm('/login.data')
      expect([data.status, data.retryAfter]).toEqual([503, expect.stringMatching(/^\d+$/)])
    } finally {
      other.prepare('ROLLBACK').run()
      other.close()
    }

    await c.signIn()
    expect((await c.createNote()).status).toBe(200)
    expect((await c.page(`/organization/${DEMO_ORG_ID}/projects`)).status).toBe(200)
  }, 900_000)
})

const pgBin = fs.existsSync('/usr/lib/postgresql') ? fs.readdirSync('/usr/lib/postgresql').map((v) => `/usr/lib/postgresql/${v}/bin`).find((dir) => fs.existsSync(`${dir}/initdb`)) : undefined
const isRoot = process.getuid?.() === 0
// Engine-specific, so it runs once: in the PostgreSQL run when there is one (`npm test` with
// PIXELFLEET_TEST_POSTGRES_URL runs scripts/test-scaleout.mjs after the SQLite run), else here.
const pgRunCovers = Boolean(process.env.PIXELFLEET_TEST_POSTGRES_URL) && process.env.PIXELFLEET_TEST_DATABASE !== 'postgres'
const pgSkipReason = !pgBin ? 'PostgreSQL binaries are not installed' : pgRunCovers ? 'PIXELFLEET_TEST_POSTGRES_URL is set: the PostgreSQL run (npm run test:scaleout) covers it' : null
if (pgSkipReason) console.warn(`unavailable.test.ts: PostgreSQL case skipped: ${pgSkipReason}`)

async function freePort(): Promise<number> {
  const probe = http.createServer()
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
  const { port } = probe.address() as AddressInfo
  await new Promise((r) => probe.close(r))
  return port
}

;(pgSkipReason ? describe.skip : describe)('PostgreSQL: the server stops and starts again', () => {
  let portal: RunningPortal | undefined
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-pg-down-'))
  // initdb refuses to run as root: the cluster belongs to the postgres user then
  // Asynchronous on purpose: initdb and pg_ctl take minutes at load 20, and a synchronous child
  // freezes the vitest worker (its calls to the main process then time out, tests/setup/run-to-exit.ts).
  const asOwner = async (command: string, args: string[]) => {
    const result = await runToExit(isRoot ? 'runuser' : command, isRoot ? ['-u', 'postgres', '--', command, ...args] : args, { timeoutMs: 180_000 })
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`)
  }
  let port = 0
  const pgCtl = (...args: string[]) => asOwner(`${pgBin}/pg_ctl`, ['-D', `${dir}/data`, '-l', `${dir}/server.log`, '-w', '-t', '120', ...args])
  const start = () => pgCtl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start')

  afterAll(async () => {
    await portal?.stop()
    try {
      await pgCtl('-m', 'immediate', 'stop')
    } catch {
      // already stopped
    }
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('answers 503 with Retry-After while PostgreSQL is down, and recovers without a restart', async () => {
    if (isRoot) execFileSync('chown', ['postgres', dir])
    await asOwner(`${pgBin}/initdb`, ['-D', `${dir}/data`, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'])
    port = await freePort()
    await start()
    portal = await startPortalPatiently({ DATABASE_URL: `postgresql://postgres@127.0.0.1:${port}/postgres` })
    const c = client(portal)
    await c.signIn()
    expect((await c.createNote()).status).toBe(200)

    await pgCtl('-m', 'fast', 'stop')
    expectUnavailablePage(await eventually(() => c.page(`/organization/${DEMO_ORG_ID}/projects`), (a) => a.status !== 200, 'the signed-in page to fail'))
    expectUnavailablePage(await c.page('/login'))
    expectUnavailablePage(await c.signInForm())
    expectUnavailableApi(await c.createNote())

    await start()
    await eventually(() => c.page(`/organization/${DEMO_ORG_ID}/projects`), (a) => a.status === 200, 'the signed-in page to answer again')
    await c.signIn()
    expect((await c.createNote()).status).toBe(200)
  }, 900_000)
})
