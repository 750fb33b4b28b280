import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { withoutVitest } from '../../server/build'
import { createTestDatabase } from '../setup/test-db'

const root = path.resolve(import.meta.dirname, '../..')

export type RunningPortal = {
  url: string
  port: number
  mqttPort: number
  relayPort: number
  databaseUrl: string
  /** the portal's process id (scale-out tests kill -9 it) */
  pid: number
  output: () => string
  stop: () => Promise<void>
}

/**
 * How tests start `server/start.ts`: its bundle (build/node/start.mjs, made by the run's global
 * setup with scripts/bundle-server.mjs) with plain node, which costs about half the CPU of tsx
 * transpiling every module on each start (decision 070); the sources through tsx when there is no
 * bundle.
 */
export function serverCommand(): string[] {
  const bundle = path.join(root, 'build/node/start.mjs')
  return fs.existsSync(bundle) ? [bundle] : ['--import', 'tsx', 'server/start.ts']
}

/**
 * Starts the real portal (`server/start.ts`, production build) in a child process on ephemeral
 * ports with its own database, the way `npm start` does. Resolves once it prints its ready line.
 * With SEED_DEMO=true (the default here) the database is a copy of the demo template.
 */
export async function startPortal(env: Record<string, string> = {}): Promise<RunningPortal> {
  // a database of its own unless the test gives one (two nodes sharing theirs)
  const db = env.DATABASE_URL ? { url: env.DATABASE_URL, remove: () => undefined } : createTestDatabase('e2e', { demo: (env.SEED_DEMO ?? 'true') === 'true' })
  const child: ChildProcess = spawn(process.execPath, serverCommand(), {
    cwd: root,
    env: {
      ...withoutVitest(process.env),
      PIXELFLEET_SKIP_BUILD: '1',
      NODE_ENV: 'production',
      PORT: '0',
      MQTT_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: db.url,
      SEED_DEMO: 'true',
      SIMULATOR_AGENTS: '0',
      PIXELFLEET_DEV_PAGES: 'true',
      // Tests that write rows straight into the portal's database (portalDb) bypass the change
      // events that drop the fleet read cache (decision 016); the files that never do so turn it
      // back on (fleet, enrollment, live-first-load), and tests/integration/org-read-cache.test.ts
      // covers its invalidation.
      FLEET_READ_CACHE_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const ready = new Promise<{ port: number; mqttPort: number; relayPort: number }>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const m = output.match(/web :(\d+), MQTT :(\d+), relay :(\d+)/)
      if (m) resolve({ port: Number(m[1]), mqttPort: Number(m[2]), relayPort: Number(m[3]) })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`portal exited with ${code} before it was ready:\n${output}`)))
  })
  // Loading the build (and, without a bundle, transpiling the server) took over 90 s at load 40.
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`portal not ready in 240 s:\n${output}`)), 240_000).unref())
  const ports = await Promise.race([ready, timeout])
  return {
    url: `http://127.0.0.1:${ports.port}`,
    ...ports,
    databaseUrl: db.url,
    pid: child.pid!,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      db.remove()
    },
  }
}

/**
 * Debian's headless Chromium: `chromium-headless-shell` (Chromium's headless-only build, the one
 * Playwright itself runs headless) when installed, else the full `chromium` in its headless mode,
 * which costs the browser flows about a third more CPU (decision 096). CHROMIUM_PATH overrides both.
 */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? (fs.existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium')

/** Debian's Chromium, headless, driven by playwright-core (never a downloaded browser). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  })
}

export async function newPage(browser: Browser, baseURL: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1400, height: 900 } })
  const page = await context.newPage()
  // generous: a page of the production build on a machine at load 10-20 (waits end as soon as the condition holds)
  page.setDefaultTimeout(30_000)
  return { context, page }
}

/**
 * Waits until the page's JavaScript took over: React hydrated it and swapped the shell's stand-ins
 * for their live controls (root's HydrationHandover marks <html data-hydrated>; Remix's router exists
 * earlier, and a control focused before the swap was a stand-in). Generous: hydrating a production
 * page took over 30 s in Chromium at load 30-40; the wait ends when it holds.
 */
export const hydrated = (page: Page) =>
  page.waitForFunction(() => document.documentElement.hasAttribute('data-hydrated'), undefined, { timeout: 90_000 })

/** Signs in through the real login form. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Login' }).click()
  await page.waitForURL((url) => !url.pathname.startsWith('/login'))
}

/** A Prisma client on the running portal's own database (to read the outbox, add fixtures). */
export async function portalDb(portal: RunningPortal) {
  const { PrismaClient } = await import('@prisma/client')
  const { PrismaBetterSQLite3 } = await import('@prisma/adapter-better-sqlite3')
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: portal.databaseUrl }) })
}

/** Signs a browser context in by creating a stored session directly (for tests not about sign-in). */
export async function signInAs(context: BrowserContext, portal: RunningPortal, email: string) {
  const { createHash, randomBytes } = await import('node:crypto')
  const db = await portalDb(portal)
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email } })
    const token = randomBytes(32).toString('base64url')
    await db.session.create({
      data: { userId: user.id, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Date.now() + 3600_000) },
    })
    // Remix's createCookie serialises a string value as base64 of its JSON.
    const value = Buffer.from(JSON.stringify(token), 'utf8').toString('base64')
    await context.addCookies([{ name: 'pf_session', value: encodeURIComponent(value), url: portal.url, httpOnly: true, sameSite: 'Lax' }])
    return user
  } finally {
    await db.$disconnect()
  }
}

/** The portal and browser of the current test file (live bindings, set by `withPortalAndBrowser`). */
export let portal: RunningPortal
export let browser: Browser

/** Starts one portal and one browser for the test file and stops both after its last test. */
export function withPortalAndBrowser(env: Record<string, string> = {}) {
  beforeAll(async () => {
    // side by side: the portal's start is mostly one Node.js thread, the browser's launch other processes
    const [started, launched] = await Promise.allSettled([startPortal(env), launchBrowser()])
    if (started.status === 'fulfilled') portal = started.value
    if (launched.status === 'fulfilled') browser = launched.value
    if (started.status === 'rejected') throw started.reason
    if (launched.status === 'rejected') throw launched.reason
  }, 300_000)
  afterAll(async () => {
    await browser?.close()
    await portal?.stop()
  })
}

/**
 * One simulated agent on the portal's broker, enrolled into the demo organization's `projectId`
 * through `page`'s signed-in session (the /client/v1 agent/enroll call a person's browser makes).
 */
export async function startEnrolledAgent(page: Page, mqttPort: number, options: { projectId: string; seed: string; interval: string; scenario: 'tempHigh' }) {
  const { startFleet } = await import('../../simulator/fleet')
  const { DEMO_ORG_ID } = await import('../../prisma/seed-data')
  return startFleet({
    agents: 1,
    url: `mqtt://127.0.0.1:${mqttPort}`,
    stateDir: null,
    interval: options.interval,
    scenario: options.scenario,
    seed: options.seed,
    organizationId: DEMO_ORG_ID,
    projectIds: [options.projectId],
    progress: 'off',
    log: () => undefined,
    enroll: async ({ applicationCode, organizationId, projectId }) => {
      const response = await page.request.post('/client/v1/agent/enroll', { data: { id: organizationId, applicationCode, projectId } })
      if (response.status() !== 200) throw new Error(`enrolling the simulated agent failed: ${response.status()} ${await response.text()}`)
    },
  })
}
