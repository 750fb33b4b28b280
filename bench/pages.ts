// npm run bench:pages [-- --duration 6] [-- --warmup 5] [-- --only agents,=/about] [-- --concurrency 16] [-- --profile] [-- --stale-fleet] [-- --no-cache] [-- --database postgresql://...]:
// every page of the bench organization (bench/seed-fleet.ts: 10,000 agents, 200,000 devices) and of
// the 6-agent demo organization through the production server, signed in as the owner. Per page:
// status, bytes (HTML or data, uncompressed), single-user p50/p95, and with N concurrent users
// requests/s plus the server's CPU ms per request (process CPU time / requests, which holds on a
// shared, noisy machine better than wall time), and net of what the server burns with no request
// (its simulated agents, ingest, pollers: measured for --idle-window seconds before each page; at
// a few requests/s that background would otherwise count as several ms per request). The server's
// peak memory (VmHWM) is printed at the end. `--scale 100k` runs on bench/.data/fleet-100k.db
// (bench/seed-fleet.ts). `--baseline <dir>`: a second checkout (an older commit with its own build
// and node_modules) runs as a second server on a copy of the database, and every page is measured
// on both back to back (this checkout first), so a change is compared under the same machine load;
// the last column is this checkout's CPU per request over the baseline's. `--database postgresql://host/db`: the
// server runs on that PostgreSQL database, seeded beforehand by `npm run bench:seed -- postgresql://host/db [--scale 100k]`
// (the demo's simulated agents stay off there). docs/benchmarks.md records the figures.
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import Database from 'better-sqlite3'
import { DEMO_ORG_ID, DEMO_USERS } from '../prisma/seed-data'
import { BENCH_ORG_ID } from './seed-fleet'
import { benchDatabase, cpuMs, createSession, createSessionPostgres, firstAgentPostgres, keepFleetReporting, keepFleetReportingPostgres, loadAverage, percentile, root, scaleName, startPortal } from './portal'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const DURATION_S = Number(arg('--duration', '6'))
const CONCURRENCY = Number(arg('--concurrency', '16'))
const SINGLE_SAMPLES = Number(arg('--samples', '12'))
const IDLE_WINDOW_S = Number(arg('--idle-window', '3'))
/**
 * Seconds of 16 users cycling through the measured pages before any is measured, not counted: a
 * fresh server compiles its render path (JIT) and fills its query plan and read caches over its
 * first few thousand requests, which the first page measured was charged for alone (the projects
 * list, 16-21 ms first against 12-14 ms in-process, bench/render-cpu.ts).
 */
const WARMUP_S = Number(arg('--warmup', '5'))
/** comma-separated: pages whose name or address contains any of them (`=text`: is exactly it) */
const ONLY = arg('--only', '').split(',').filter(Boolean)
const PROFILE = args.includes('--profile')
/** Leaves the bench organization's last-seen times as they are (a reused database before round 5: its agents gone quiet). */
const STALE_FLEET = args.includes('--stale-fleet')
/** FLEET_READ_CACHE_MS=0: every request computes its page (what a fleet whose agents report between two requests costs; decision 016) */
const NO_CACHE = args.includes('--no-cache')
/** a checkout of another commit (with its build and node_modules) measured side by side */
const BASELINE = arg('--baseline', '')
/** a PostgreSQL database seeded by `npm run bench:seed -- postgresql://... [--scale 100k]`: the server runs on it instead of the SQLite file */
const POSTGRES = arg('--database', '')
if (POSTGRES && !/^postgres(ql)?:\/\//.test(POSTGRES)) throw new Error(`--database ${POSTGRES}: a postgresql:// URL (seeded by bench:seed)`)
if (POSTGRES && BASELINE) throw new Error('--baseline runs on SQLite only')

/** `asAdmin`: asked with the site administrator's session (the owner's otherwise) */
type Page = { name: string; url: string; asAdmin?: true }
type Result = { status: number; bytes: number; wire: number; ms: number }

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })

/** One GET as a browser sends it (gzip/br accepted); `decode` measures the uncompressed size too. */
async function get(port: number, url: string, cookie: string, decode: boolean): Promise<Result> {
  try {
    return await getOnce(port, url, cookie, decode)
  } catch (error) {
    // a kept-alive socket the server closed meanwhile (keepAliveTimeout): ask once more on a new one
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error
    return getOnce(port, url, cookie, decode)
  }
}

function getOnce(port: number, url: string, cookie: string, decode: boolean): Promise<Result> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent, headers: { cookie, 'accept-encoding': 'gzip, deflate, br', accept: 'text/html,*/*' } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const body = Buffer.concat(chunks)
        const ms = performance.now() - started
        let bytes = body.length
        if (decode) {
          const enc = res.headers['content-encoding']
          if (enc === 'gzip') bytes = zlib.gunzipSync(body).length
          else if (enc === 'br') bytes = zlib.brotliDecompressSync(body).length
          else if (enc === 'deflate') bytes = zlib.inflateSync(body).length
        }
        resolve({ status: res.statusCode ?? 0, bytes, wire: body.length, ms })
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.setTimeout(300_000, () => req.destroy(new Error(`${url}: timed out`)))
  })
}

async function single(port: number, url: string, cookie: string) {
  const first = await get(port, url, cookie, true) // warm-up; its status and sizes are reported
  const samples: number[] = []
  const until = Date.now() + 20_000
  while (samples.length < SINGLE_SAMPLES && (samples.length < 3 || Date.now() < until)) samples.push((await get(port, url, cookie, false)).ms)
  return { ...first, p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

/** N users requesting back to back for the duration; CPU is read after the last response. */
async function concurrent(pid: number, port: number, url: string, cookie: string, singleP50: number) {
  // what the server burns meanwhile without any request (a CPU tick is 10 ms: a few seconds are needed)
  const idleBefore = cpuMs(pid)
  const idleStarted = performance.now()
  await new Promise((r) => setTimeout(r, IDLE_WINDOW_S * 1000))
  const backgroundCores = (cpuMs(pid) - idleBefore) / (performance.now() - idleStarted)
  // a page that takes seconds alone would keep 16 users busy for minutes: then each asks once
  const cap = singleP50 > 1000 ? CONCURRENCY : Infinity
  let launched = 0
  let done = 0
  let failed = 0
  const deadline = Date.now() + DURATION_S * 1000
  const cpuBefore = cpuMs(pid)
  const started = performance.now()
  await users(deadline, async () => {
    if (launched >= cap) return false
    launched++
    const r = await get(port, url, cookie, false)
    if (r.status >= 400) failed++
    done++
    return true
  })
  const seconds = (performance.now() - started) / 1000
  const cpu = cpuMs(pid) - cpuBefore
  const netCpu = Math.max(0, cpu - backgroundCores * seconds * 1000)
  return { rps: done / seconds, cpuPerRequest: cpu / done, netCpuPerRequest: netCpu / done, backgroundCores, cores: cpu / 1000 / seconds, requests: done, failed }
}

/** `CONCURRENCY` users asking the pages in turn for WARMUP_S seconds; the number of requests made. */
async function warmUp(port: number, targets: { url: string; cookie: string }[]) {
  if (!WARMUP_S || !targets.length) return 0
  const deadline = Date.now() + WARMUP_S * 1000
  let next = 0
  await users(deadline, async () => {
    const target = targets[next++ % targets.length]!
    await get(port, target.url, target.cookie, false)
    return true
  })
  return next
}

/** `CONCURRENCY` users each asking back to back until the deadline, or until `ask` says stop. */
async function users(deadline: number, ask: () => Promise<boolean>) {
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < deadline && (await ask()));
    }),
  )
}

const statusField = (pid: number, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN)
const peakMemoryMb = (pid: number) => (statusField(pid, 'VmHWM') / 1024).toFixed(0)
const memoryMb = (pid: number) => (statusField(pid, 'VmRSS') / 1024).toFixed(0)

async function main() {
  if (!fs.existsSync(path.join(root, 'build/server/index.js'))) throw new Error('No production build: run `npm run build` first.')
  const scale = scaleName()
  // on PostgreSQL the database is the URL (seeded beforehand); the demo's simulated agents stay off (they keep their state next to a file)
  const file = POSTGRES || (await benchDatabase(undefined, !STALE_FLEET, scale))
  if (POSTGRES && !STALE_FLEET) await keepFleetReportingPostgres(POSTGRES)
  const db = POSTGRES ? null : new Database(file)
  const firstAgent = async (org: string) =>
    db ? (db.prepare(`SELECT id FROM "Agent" WHERE "organizationId" = ? ORDER BY "clientName" LIMIT 1`).get(org) as { id: string } | undefined)?.id : firstAgentPostgres(POSTGRES, org)
  const profileDir = path.join(root, 'bench/.out/profiles')
  const nodeArgs = PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []
  // The demo organization's 6 simulated agents enroll on the first start; later starts reuse them.
  const serverEnv = { SIMULATOR_AGENTS: POSTGRES ? '0' : '6', ...(NO_CACHE ? { FLEET_READ_CACHE_MS: '0' } : {}) }
  const portal = await startPortal(file, serverEnv, nodeArgs)
  let baseline: { portal: Awaited<ReturnType<typeof startPortal>>; file: string; cookie: string; adminCookie: string } | null = null
  try {
    for (let i = 0; i < 60 && !POSTGRES && !(await firstAgent(DEMO_ORG_ID)); i++) await new Promise((r) => setTimeout(r, 1000))
    const session = (userId: string) => (POSTGRES ? createSessionPostgres(POSTGRES, userId) : createSession(file, userId))
    const cookie = await session(DEMO_USERS.owner.id)
    const adminCookie = await session(DEMO_USERS.admin.id)
    if (BASELINE) {
      if (!fs.existsSync(path.join(BASELINE, 'build/server/index.js'))) throw new Error(`--baseline ${BASELINE}: no production build there`)
      // its own copy (same agents, ids and sessions table), so the two servers' pollers and writes never meet
      const copy = `${file}.baseline.db`
      for (const stale of [copy + '.tmp', `${copy}-wal`, `${copy}-shm`]) fs.rmSync(stale, { force: true })
      db!.prepare('VACUUM INTO ?').run(copy + '.tmp')
      fs.renameSync(copy + '.tmp', copy)
      // the demo organization's simulated agents keep their ids and secrets next to the file (simulator/demo.server.ts)
      const simulatorState = (of: string) => path.join(path.dirname(of), 'simulator', path.parse(of).name)
      if (fs.existsSync(simulatorState(file))) fs.cpSync(simulatorState(file), simulatorState(copy), { recursive: true })
      baseline = { portal: await startPortal(copy, serverEnv, [], path.resolve(BASELINE)), file: copy, cookie: createSession(copy, DEMO_USERS.owner.id), adminCookie: createSession(copy, DEMO_USERS.admin.id) }
    }
    const orgs = [
      { label: `bench (${scale === '10k' ? '10,000' : '20,000'} agents)`, id: BENCH_ORG_ID, project: 'bench-prj-000000000', agent: await firstAgent(BENCH_ORG_ID) },
      { label: 'demo (6 agents)', id: DEMO_ORG_ID, project: 'demo-prj-main-stage0', agent: await firstAgent(DEMO_ORG_ID) },
    ]
    db?.close()
    for (const o of orgs) if (!o.agent) console.log(`${o.label}: no agent, so no agent detail page`)
    const pagesOf = (o: (typeof orgs)[number]): Page[] => {
      const base = `/organization/${o.id}`
      return [
        { name: 'projects list', url: `${base}/projects` },
        { name: 'project overview (parent)', url: `${base}/projects/${o.project}/overview` },
        { name: 'project agents tab', url: `${base}/projects/${o.project}/agents` },
        { name: 'project devices tab', url: `${base}/projects/${o.project}/devices` },
        { name: 'project issues tab', url: `${base}/projects/${o.project}/issues` },
        { name: 'project activity tab', url: `${base}/projects/${o.project}/audit` },
        { name: 'agents list', url: `${base}/agents` },
        { name: 'agents list .data', url: `${base}/agents.data` },
        { name: 'agents .data (page loader only)', url: `${base}/agents.data?_routes=${encodeURIComponent('routes/_app.organization.$organizationId.agents._index')}` },
        // none on PostgreSQL's demo organization (its simulated agents stay off): nothing to ask for
        ...(o.agent ? [{ name: 'agent detail', url: `${base}/agents/${o.agent}` }] : []),
        { name: 'dashboard', url: `${base}/dashboard` },
        { name: 'notes', url: `${base}/notes` },
        { name: 'members', url: `${base}/members` },
        { name: 'activity', url: `${base}/activity` },
        { name: 'metrics events', url: `${base}/metrics` },
        { name: 'project settings', url: `${base}/projects/${o.project}/settings` },
        { name: 'project readiness', url: `${base}/projects/${o.project}/readiness` },
        ...['general', 'projects', 'roles', 'tokens', 'channels', 'billing', 'admin'].map((tab) => ({ name: `settings ${tab}`, url: `${base}/settings/${tab}` })),
        ...['agents', 'members', 'projects', 'audit', 'roles', 'settings'].map((tab) => ({ name: `edit ${tab}`, url: `${base}/edit/${tab}` })),
      ]
    }
    const common: Page[] = [
      { name: 'organization list', url: '/organization/list' },
      { name: '/about', url: '/about' },
      { name: '/about .data', url: '/about.data' },
      { name: '/login (signed out)', url: '/login' },
      // the site administrator's pages across all organizations
      ...['orgs', 'users', 'agents', 'sessions', 'site', 'mail', 'roles', 'utility'].map((page) => ({ name: `admin ${page}`, url: `/admin/${page}`, asAdmin: true as const })),
      ...['billing', 'project-metrics', 'clients', 'events'].map((tab) => ({ name: `admin org ${tab === 'billing' ? 'usage' : tab}`, url: `/admin/orgs?orgId=${BENCH_ORG_ID}&tab=${tab}`, asAdmin: true as const })),
    ]
    const isPicked = (page: Page) => !ONLY.length || ONLY.some((only) => (only.startsWith('=') ? page.name === only.slice(1) || page.url === only.slice(1) : page.name.includes(only) || page.url.includes(only)))
    const measured = [...orgs.flatMap(pagesOf), ...common].filter(isPicked)
    for (const server of [{ portal, cookie, adminCookie }, ...(baseline ? [baseline] : [])]) {
      const warm = await warmUp(server.portal.port, measured.map((page) => ({ url: page.url, cookie: page.name.includes('signed out') ? '' : page.asAdmin ? server.adminCookie : server.cookie })))
      if (warm) console.log(`(warm-up, not counted: ${warm} requests in ${WARMUP_S} s over the ${measured.length} pages)`)
    }
    const rows: string[] = []
    const json: unknown[] = []
    const header = `| page | org${baseline ? ' | server' : ''} | status | KB (wire) | p50 / p95 ms | req/s @${CONCURRENCY} | CPU ms/req | net of idle |${baseline ? ' this / baseline |' : ''}`
    console.log(`load average ${loadAverage()}, ${CONCURRENCY} users x ${DURATION_S} s per page${baseline ? `; baseline ${BASELINE}` : ''}\n`)
    console.log(header)
    console.log(`|---|---|---|---|---|---|---|---|${baseline ? '---|---|' : ''}`)
    const measure = async (page: Page, org: string, server: { portal: typeof portal; file: string; cookie: string; adminCookie: string; name: string }, against?: number) => {
      const pageCookie = page.name.includes('signed out') ? '' : page.asAdmin ? server.adminCookie : server.cookie
      if (!STALE_FLEET) {
        if (POSTGRES) await keepFleetReportingPostgres(POSTGRES)
        else keepFleetReporting(server.file)
      }
      const s = await single(server.portal.port, page.url, pageCookie)
      const c = await concurrent(server.portal.pid, server.portal.port, page.url, pageCookie, s.p50)
      const ratio = against === undefined ? '' : ` ${(against / c.cpuPerRequest).toFixed(2)} |`
      const line = `| ${page.name} | ${org}${baseline ? ` | ${server.name}` : ''} | ${s.status}${c.failed ? ` (${c.failed} failed)` : ''} | ${(s.bytes / 1024).toFixed(1)} (${(s.wire / 1024).toFixed(1)}) | ${s.p50.toFixed(0)} / ${s.p95.toFixed(0)} | ${c.rps.toFixed(1)} | ${c.cpuPerRequest.toFixed(1)} | ${c.netCpuPerRequest.toFixed(1)} |${baseline ? (against === undefined ? ' |' : ratio) : ''}`
      console.log(line)
      rows.push(line)
      json.push({ page: page.name, org, url: page.url, server: server.name, ...s, ...c })
      return c.cpuPerRequest
    }
    const run = async (page: Page, org: string) => {
      if (!isPicked(page)) return
      const cpu = await measure(page, org, { portal, file, cookie, adminCookie, name: 'this' })
      if (baseline) await measure(page, org, { ...baseline, name: 'baseline' }, cpu)
    }
    for (const o of orgs) for (const page of pagesOf(o)) await run(page, o.label)
    for (const page of common) await run(page, '-')
    console.log(`\nload average at the end ${loadAverage()}; server peak memory ${peakMemoryMb(portal.pid)} MB (VmHWM), now ${memoryMb(portal.pid)} MB (VmRSS)`)
    fs.mkdirSync(path.join(root, 'bench/.out'), { recursive: true })
    const out = path.join(root, `bench/.out/pages-${new Date().toISOString().replace(/[:.]/g, '-')}.json`)
    fs.writeFileSync(out, JSON.stringify(json, null, 2))
    console.log(`written ${path.relative(root, out)}${PROFILE ? `; CPU profile in ${path.relative(root, profileDir)} after exit` : ''}`)
  } finally {
    agent.destroy()
    await Promise.all([portal.stop(), baseline?.portal.stop()])
  }
}

await main()
