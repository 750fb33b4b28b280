// node --import tsx bench/render-cpu.ts [--runs 400] [--only about] [--profile]: the CPU the Remix
// request handler of the production build (`npm run build` first) spends per request, in this one
// process, without HTTP, Express or gzip: a fetch Request in, the Response body read out, signed in
// as the demo owner on the bench database (bench/.data/fleet.db, seeded by bench:pages). Thread CPU
// of a single loop holds far better than wall time on the shared machine, so this tells a 1 ms change
// of the render or the loaders at load 20 (bench:pages measures the whole server, docs/benchmarks.md).
// --build <dir> measures another build (e.g. main's, copied to bench/.data/build-main) instead of ./build,
// so two builds can alternate in the same minutes. RENDER_DUMP=/tmp/x writes each page's body to /tmp/x-<page>.html
// (to compare two builds' output). PRISMA_PLAN_CACHE=off measures without the plan cache (decision 105).
import fs from 'node:fs'
import path from 'node:path'
import { Session } from 'node:inspector/promises'
import { type ServerBuild } from '@remix-run/node'
import Database from 'better-sqlite3'
import { DEMO_ORG_ID, DEMO_USERS } from '../prisma/seed-data'
import { BENCH_ORG_ID } from './seed-fleet'
import { benchDatabase, createSession, loadAverage, root } from './portal'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback)
const RUNS = Number(arg('--runs', '400'))
const ONLY = arg('--only', '').split(',').filter(Boolean)
const PROFILE = args.includes('--profile')
const BUILD = path.resolve(root, arg('--build', 'build'))

// first: it patches the router libraries as Node loads them (decisions 051, 080), as server/start.ts
// does; ROUTE_PATCHES=<another checkout's server/route-match-cache.ts> compares two versions of it
await import(process.env.ROUTE_PATCHES ?? '../server/route-match-cache')
const { createRequestHandler } = await import('@remix-run/node')
const file = await benchDatabase(undefined, false)
process.env.NODE_ENV = 'production'
process.env.DATABASE_URL = `file:${file}`
process.env.FEATURE_DASHBOARDS = 'true'
process.env.LOG_LEVEL = 'warn'
const build = (await import(path.join(BUILD, 'server/index.js'))) as ServerBuild
const handler = createRequestHandler(build, 'production')
const cookie = createSession(file, DEMO_USERS.owner.id)

const bench = `/organization/${BENCH_ORG_ID}`
const benchProject = 'bench-prj-000000000'
const firstAgent = (() => {
  const db = new Database(file, { readonly: true })
  const row = db.prepare(`SELECT id FROM "Agent" WHERE "organizationId" = ? ORDER BY "clientName" LIMIT 1`).get(BENCH_ORG_ID) as { id: string }
  db.close()
  return row.id
})()
const pages: [string, string][] = [
  ['/about', '/about'],
  ['/about.data', '/about.data'],
  ['/login (signed out)', '/login'],
  ['agents list .data (all loaders)', `${bench}/agents.data`],
  ['agents .data (page loader only)', `${bench}/agents.data?_routes=${encodeURIComponent('routes/_app.organization.$organizationId.agents._index')}`],
  ['agents list, demo', `/organization/${DEMO_ORG_ID}/agents`],
  ['agents list, 10k', `${bench}/agents`],
  ['dashboard, 10k', `${bench}/dashboard`],
  ['projects list, 10k', `${bench}/projects`],
  ['projects list .data, 10k', `${bench}/projects.data`],
  ['project agents tab, 10k', `${bench}/projects/${benchProject}/agents`],
  ['project devices tab, 10k', `${bench}/projects/${benchProject}/devices`],
  ['agent detail, 10k', `${bench}/agents/${firstAgent}`],
  ['edit agents, 10k', `${bench}/edit/agents`],
  ['project readiness, 10k', `${bench}/projects/${benchProject}/readiness`],
]

const respond = (url: string, signedIn: boolean) =>
  handler(new Request(`http://127.0.0.1${url}`, { headers: { accept: 'text/html,*/*', ...(signedIn ? { cookie } : {}), 'x-pixelfleet-client-ip': '127.0.0.1', 'x-pixelfleet-client-proto': 'http' } }), { cspNonce: 'bench', markUnavailable: () => {} })

async function once(url: string, signedIn: boolean) {
  const response = await respond(url, signedIn)
  const body = await response.arrayBuffer()
  if (response.status >= 400) throw new Error(`${url}: ${response.status}`)
  return body.byteLength
}

const session = PROFILE ? new Session() : null
if (session) {
  session.connect()
  await session.post('Profiler.enable')
}
console.log(`${path.relative(root, BUILD)}: load average ${loadAverage()}, ${RUNS} requests per page after ${Math.ceil(RUNS / 4)} to warm up\n`)
console.log('| request | KB | CPU ms/request |\n|---|---|---|')
for (const [name, url] of pages) {
  if (ONLY.length && !ONLY.some((o) => name.includes(o) || url.includes(o))) continue
  const signedIn = !name.includes('signed out')
  for (let i = 0; i < Math.ceil(RUNS / 4); i++) await once(url, signedIn)
  if (session) await session.post('Profiler.start')
  const before = process.cpuUsage()
  let bytes = 0
  for (let i = 0; i < RUNS; i++) bytes = await once(url, signedIn)
  const used = process.cpuUsage(before)
  if (session) {
    const { profile } = await session.post('Profiler.stop')
    const out = path.join(root, 'bench/.out/profiles', `render-${name.replace(/\W+/g, '-')}.cpuprofile`)
    fs.mkdirSync(path.dirname(out), { recursive: true })
    fs.writeFileSync(out, JSON.stringify(profile))
  }
  if (process.env.RENDER_DUMP) fs.writeFileSync(`${process.env.RENDER_DUMP}-${name.replace(/\W+/g, '-')}.html`, Buffer.from(await (await respond(url, signedIn)).arrayBuffer()))
  console.log(`| ${name} | ${(bytes / 1024).toFixed(1)} | ${((used.user + used.system) / 1000 / RUNS).toFixed(2)} |`)
}
console.log(`\nload average at the end ${loadAverage()}`)
process.exit(0)
