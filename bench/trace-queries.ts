// node --import tsx bench/trace-queries.ts <database url> [dashboard,agents,projects,readiness] [runs]: every
// statement of those loaders of the bench organization timed, uncached (FLEET_READ_CACHE_MS=0), in
// this process: per run wall and CPU ms and the statements' sum, then the slowest statements of the
// last run. SQLite through better-sqlite3's statements, PostgreSQL through pg's client. Writes a
// session row (the demo owner's); on a seeded bench database (bench/seed-fleet.ts) only.
import { createHash, randomBytes } from 'node:crypto'
import pg from 'pg'
import { loadConfig } from '../server/config'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, prisma, tuneDatabase, isPostgres } from '../app/utils/db.server'
import { DEMO_USERS } from '../prisma/seed-data'
import { BENCH_ORG_ID } from './seed-fleet'

const DB_URL = process.argv[2]
const which = (process.argv[3] ?? 'dashboard,agents,projects').split(',')
const RUNS = Number(process.argv[4] ?? 3)
type Q = { sql: string; ms: number }
let log: Q[] = []
if (isPostgres(DB_URL)) {
  const orig = pg.Client.prototype.query as (...a: unknown[]) => unknown
  ;(pg.Client.prototype as unknown as { query: unknown }).query = function (this: pg.Client, ...a: unknown[]) {
    const started = performance.now()
    const text = typeof a[0] === 'string' ? a[0] : (a[0] as { text: string }).text
    const done = () => log.push({ sql: text, ms: performance.now() - started })
    const last = a.length - 1
    if (typeof a[last] === 'function') {
      const cb = a[last] as (...x: unknown[]) => unknown
      a[last] = (...x: unknown[]) => (done(), cb(...x))
    }
    const r = orig.apply(this, a) as Promise<unknown> | undefined
    if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(done, () => {})
    return r
  }
}
setConfig(loadConfig({ ...process.env, DATABASE_URL: DB_URL, LOG_LEVEL: 'silent', FLEET_READ_CACHE_MS: '0', FEATURE_DASHBOARDS: 'true' }))
await tuneDatabase()
if (!isPostgres(DB_URL)) {
  const { default: Database } = await import('better-sqlite3')
  const statement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1')) as Record<string, (...a: unknown[]) => unknown> & { source: string }
  for (const method of ['all', 'get', 'run']) {
    const orig = statement[method]
    statement[method] = function (this: { source: string }, ...a: unknown[]) {
      const started = performance.now()
      try {
        return orig.apply(this, a)
      } finally {
        log.push({ sql: this.source, ms: performance.now() - started })
      }
    }
  }
}
const token = randomBytes(32).toString('base64url')
await prisma.session.create({ data: { userId: DEMO_USERS.owner.id, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Date.now() + 3600_000) } })
const cookie = `pf_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString('base64'))}`
const routes: Record<string, { mod: string; url: string }> = {
  dashboard: { mod: '../app/routes/_app.organization.$organizationId.dashboard', url: `/organization/${BENCH_ORG_ID}/dashboard` },
  agents: { mod: '../app/routes/_app.organization.$organizationId.agents._index', url: `/organization/${BENCH_ORG_ID}/agents` },
  readiness: { mod: '../app/routes/_app.organization.$organizationId.projects.$projectId_.readiness', url: `/organization/${BENCH_ORG_ID}/projects/bench-prj-000000000/readiness` },
}
const { requireUser } = await import('../app/utils/auth.server')
const { projectSystemTags } = await import('../app/domain/fleet/project-systems.server')
const { listProjects } = await import('../app/domain/projects/projects.server')
const projectsLoader = async ({ request }: { request: Request }) => {
  const { actor } = await requireUser(request)
  return Promise.all([listProjects(actor, BENCH_ORG_ID), projectSystemTags(actor, BENCH_ORG_ID)])
}
for (const name of which) {
  const r = routes[name] ?? { mod: '', url: `/organization/${BENCH_ORG_ID}/projects` }
  const { loader } = r.mod ? ((await import(r.mod)) as { loader: (a: unknown) => Promise<unknown> }) : { loader: projectsLoader as (a: unknown) => Promise<unknown> }
  for (let i = 0; i < RUNS; i++) {
    log = []
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    let res = await loader({ request: new Request(`http://bench.local${r.url}`, { headers: { cookie } }), params: { organizationId: BENCH_ORG_ID, projectId: 'bench-prj-000000000' }, context: {} })
    // deferred data
    if (res && typeof res === 'object' && 'data' in (res as object)) res = (res as { data: unknown }).data
    if (res && typeof res === 'object') for (const v of Object.values(res as object)) if (v && typeof (v as Promise<unknown>).then === 'function') await v
    const wall = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    await new Promise((r) => setTimeout(r, 50))
    const sum = log.reduce((s, q) => s + q.ms, 0)
    console.log(`${name} run ${i}: wall ${wall.toFixed(0)} ms, cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, ${log.length} queries summing ${sum.toFixed(0)} ms`)
    if (i === RUNS - 1) for (const q of [...log].sort((a, b) => b.ms - a.ms).slice(0, 8)) console.log(`   ${q.ms.toFixed(1).padStart(7)} ms  ${q.sql.replace(/\s+/g, ' ').slice(0, 400)}`)
  }
}
await disconnectDatabase()
process.exit(0)
