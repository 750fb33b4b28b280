// npm run bench:lighthouse [-- --only agents,members] [-- --runs 3]: Lighthouse's mobile preset (simulated
// slow 4G and 4x CPU slowdown on a Moto G Power sized screen) against the production portal with the
// demo data and its simulated fleet, signed in as the demo owner (session cookie sent as an extra
// header). Prints per page the performance score and key metrics; docs/benchmarks.md records them.
// Runs Debian's Chromium (CHROME_PATH, default /usr/bin/chromium) headless with no network.
// It first waits (up to --quiet-wait seconds, default 180) for the 1-minute load average to fall
// below --quiet-load (default 3) and says when it could not: scores measure the machine's load too.
// `--checkout DIR` measures another checkout's build (main's, for before/after in one window).
// `--trace` prints load-independent figures instead (bench/page-trace.ts: main-thread CPU under a
// 4x throttle, long tasks, React commits, DOM size, JS bytes, the largest-paint candidates),
// median of --runs by script time.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { DEMO_ORG_ID, DEMO_USERS } from '../prisma/seed-data'
import { launchTraceBrowser, tracePage, type PageFigures } from './page-trace'
import { createSession, loadAverage, startPortal } from './portal'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const ONLY = arg('--only', '')
const RUNS = Number(arg('--runs', '1'))
// --json DIR: writes each page's median Lighthouse report (critical requests, long tasks) to DIR
const JSON_DIR = arg('--json', '')
const TRACE = args.includes('--trace')
const QUIET_LOAD = Number(arg('--quiet-load', '3'))
const QUIET_WAIT_S = Number(arg('--quiet-wait', '180'))
// --checkout DIR: measures another checkout's production build (e.g. main's, for before/after in one window)
const CHECKOUT = path.resolve(arg('--checkout', path.join(import.meta.dirname, '..')))

const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-lh-')), 'lighthouse.db')
const portal = await startPortal(file, { SIMULATOR_AGENTS: '6' }, [], CHECKOUT)
const stop = async () => {
  await portal.stop()
  fs.rmSync(path.dirname(file), { recursive: true, force: true })
}
process.on('SIGINT', () => void stop().then(() => process.exit(130)))

try {
  // the simulated agents enroll and send their first reports within a few seconds
  let agentId: string | undefined
  for (let i = 0; i < 60 && !agentId; i++) {
    await new Promise((r) => setTimeout(r, 500))
    const db = new Database(file)
    agentId = (db.prepare('SELECT id FROM "Agent" WHERE "organizationId" = ? AND "lastSeen" IS NOT NULL LIMIT 1').get(DEMO_ORG_ID) as { id: string } | undefined)?.id
    db.close()
  }
  const base = `http://127.0.0.1:${portal.port}`
  const cookie = createSession(file, DEMO_USERS.owner.id)
  const org = `/organization/${DEMO_ORG_ID}`
  const project = `${org}/projects/demo-prj-main-stage0`
  const pages = [
    { name: 'login', url: '/login', signedIn: false },
    { name: 'organization list', url: '/organization/list', signedIn: true },
    { name: 'dashboard', url: `${org}/dashboard`, signedIn: true },
    { name: 'agents list', url: `${org}/agents`, signedIn: true },
    { name: 'agent detail', url: `${org}/agents/${agentId}`, signedIn: true },
    { name: 'projects list', url: `${org}/projects`, signedIn: true },
    { name: 'project overview', url: `${project}/overview`, signedIn: true },
    { name: 'project agents', url: `${project}/agents`, signedIn: true },
    { name: 'project devices', url: `${project}/devices`, signedIn: true },
    { name: 'project issues', url: `${project}/issues`, signedIn: true },
    { name: 'members', url: `${org}/members`, signedIn: true },
  ].filter((p) => !ONLY || ONLY.split(',').some((only) => p.name.includes(only)))

  const waitStarted = Date.now()
  while (!TRACE && Number(loadAverage()) >= QUIET_LOAD && Date.now() - waitStarted < QUIET_WAIT_S * 1000) await new Promise((r) => setTimeout(r, 5000))
  if (!TRACE && Number(loadAverage()) >= QUIET_LOAD) console.warn(`the load average stayed at ${loadAverage()} (>= ${QUIET_LOAD}) for ${QUIET_WAIT_S} s: measuring anyway, scores below include the machine's load`)

  if (TRACE) await printTraceFigures(pages, base, cookie)
  else await runLighthouse(pages, base, cookie)
} finally {
  await stop()
}

async function runLighthouse(pages: BenchPage[], base: string, cookie: string) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  })
  console.log(`load average ${loadAverage()} · ${RUNS} run(s) per page, median by score`)
  console.log('page                 score   FCP      LCP      TBT     SI       CLS    requests  JS (transfer)')
  try {
    for (const page of pages) {
      const runs = []
      // a run whose trace Chromium failed to record (NO_NAVSTART, ...) scores 0: reported, run again
      for (let i = 0, failed = 0; i < RUNS; i++) {
        const result = await lighthouse(
          base + page.url,
          { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], extraHeaders: page.signedIn ? { Cookie: cookie } : undefined },
          // the default config is the mobile preset
        )
        if (!result) throw new Error(`no Lighthouse result for ${page.url}`)
        if (result.lhr.runtimeError && failed < 3) {
          console.warn(`  (${page.name}: run failed, ${result.lhr.runtimeError.code}; running again)`)
          failed++
          i--
          continue
        }
        runs.push(result.lhr)
      }
      runs.sort((a, b) => (a.categories.performance?.score ?? 0) - (b.categories.performance?.score ?? 0))
      const lhr = runs[Math.floor(runs.length / 2)]!
      if (JSON_DIR) {
        fs.mkdirSync(JSON_DIR, { recursive: true })
        fs.writeFileSync(path.join(JSON_DIR, `${page.name.replace(/ /g, '-')}.json`), JSON.stringify(lhr))
      }
      if (lhr.finalDisplayedUrl && new URL(lhr.finalDisplayedUrl).pathname !== page.url.split('?')[0]) console.warn(`  (${page.name} ended on ${lhr.finalDisplayedUrl})`)
      const audit = (id: string) => lhr.audits[id]
      const ms = (id: string) => `${Math.round(audit(id)?.numericValue ?? NaN)} ms`.padEnd(9)
      const items = ((audit('network-requests')?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [])
      const js = items.filter((r) => r.resourceType === 'Script').reduce((sum, r) => sum + (r.transferSize ?? 0), 0)
      const scores = runs.map((r) => Math.round((r.categories.performance?.score ?? 0) * 100))
      console.log(
        `${page.name.padEnd(20)} ${String(Math.round((lhr.categories.performance?.score ?? 0) * 100)).padEnd(7)} ${ms('first-contentful-paint')}${ms('largest-contentful-paint')}${ms('total-blocking-time').padEnd(8)}${ms('speed-index')}${(audit('cumulative-layout-shift')?.numericValue ?? 0).toFixed(3).padEnd(7)}${String(items.length).padEnd(10)}${(js / 1024).toFixed(0)} KB (${items.filter((r) => r.resourceType === 'Script').length} files)${RUNS > 1 ? `  runs: ${scores.join(', ')}` : ''}`,
      )
    }
  } finally {
    chrome.kill()
  }
}

type BenchPage = { name: string; url: string; signedIn: boolean }

/** `--trace`: median of RUNS loads per page by script time; thread CPU, so the machine's load barely moves it. */
async function printTraceFigures(pages: BenchPage[], base: string, cookie: string) {
  const browser = await launchTraceBrowser()
  console.log(`load average ${loadAverage()} · ${RUNS} load(s) per page with a 4x CPU throttle, median by script time; ms are main-thread thread time`)
  console.log('page                 main ms  script ms  long tasks  blocking ms  longest ms  commits  DOM   JS')
  try {
    for (const page of pages) {
      const runs: PageFigures[] = []
      for (let i = 0; i < RUNS; i++) runs.push(await tracePage(browser, base + page.url, page.signedIn ? cookie : undefined))
      runs.sort((a, b) => a.scriptMs - b.scriptMs)
      const f = runs[Math.floor(runs.length / 2)]!
      const n = (v: number, w: number) => String(Math.round(v)).padEnd(w)
      console.log(
        `${page.name.padEnd(20)} ${n(f.mainThreadMs, 8)} ${n(f.scriptMs, 10)} ${n(f.longTasks, 11)} ${n(f.blockingMs, 12)} ${n(f.longestTaskMs, 11)} ${n(f.reactCommits, 8)} ${n(f.domElements, 5)} ${(f.jsBytes / 1024).toFixed(0)} KB (${f.scripts} files)` +
          (RUNS > 1 ? `  script: ${runs.map((r) => Math.round(r.scriptMs)).join(', ')}` : ''),
      )
      // the median run's largest-paint candidates: one painted after the first React commit waited for the JavaScript
      // hydration's tasks (up to the first React commit) apart from what came later (live reloads, deferred widgets)
      const hydrated = f.firstCommitMs ?? Infinity
      const blocking = (tasks: PageFigures['taskTimeline']) => tasks.reduce((sum, t) => sum + t.cpuMs - 50, 0)
      console.log(`  blocking ms until the first React commit ${blocking(f.taskTimeline.filter((t) => t.startMs <= hydrated))}, after it ${blocking(f.taskTimeline.filter((t) => t.startMs > hydrated))}; tasks > 50 ms (start: thread ms) ${f.taskTimeline.map((t) => `${t.startMs}: ${t.cpuMs}`).join(', ')}`)
      console.log(`  LCP ${f.lcp.map((c) => `${c.ms} ms ${c.size} px² ${c.element}`).join(' -> ')} (first React commit ${f.firstCommitMs ?? '-'} ms)`)
    }
  } finally {
    await browser.close()
  }
}
