// npm run bench:overload [-- --duration 8] [-- --users 16,64,256] [-- --bench-fleet]:
// what N concurrent users get from the agents page of the production server (default the demo
// organization on a fresh database; --bench-fleet: the 10,000-agent bench organization), with load
// shedding off (WEB_MAX_IN_FLIGHT=0, the old behaviour) and on (the defaults, server/load-shedding.ts):
// answers/s, how many were 200 and 503, p50/p99 of the 200s and of every answer. Then a burst: 256
// clients open a connection each and give up after 1 s; the figure is how long after that the portal
// answers a page again. docs/benchmarks.md records the figures.
import { setMaxListeners } from 'node:events'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { DEMO_ORG_ID, DEMO_USERS } from '../prisma/seed-data'
import { BENCH_ORG_ID } from './seed-fleet'
import { benchDatabase, createSession, loadAverage, percentile, startPortal } from './portal'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback)
const DURATION_S = Number(arg('--duration', '8'))
const USERS = arg('--users', '16,64,256').split(',').map(Number)
const BENCH_FLEET = args.includes('--bench-fleet')
const BURST = 256

type Answer = { status: number; ms: number }

function get(port: number, url: string, cookie: string, agent: http.Agent | false, signal?: AbortSignal): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, agent, signal, headers: { cookie, accept: 'text/html,*/*' } }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }))
      res.on('error', reject)
    })
    req.on('error', reject)
  })
}

/** N users, each asking again as soon as it has its answer, for DURATION_S. */
async function users(port: number, url: string, cookie: string, n: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: n })
  const answers: Answer[] = []
  let errors = 0
  const until = performance.now() + DURATION_S * 1000
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (performance.now() < until) {
        try {
          answers.push(await get(port, url, cookie, agent))
        } catch {
          errors++
        }
      }
    }),
  )
  agent.destroy()
  const ok = answers.filter((a) => a.status === 200).map((a) => a.ms)
  const shed = answers.filter((a) => a.status === 503).length
  const all = answers.map((a) => a.ms)
  const f = (ms: number) => (Number.isNaN(ms) ? '-' : `${Math.round(ms)}`)
  return `${String(n).padStart(4)} users: ${(answers.length / DURATION_S).toFixed(1).padStart(6)} answers/s, 200: ${String(ok.length).padStart(5)}, 503: ${String(shed).padStart(5)}, errors: ${errors}; 200 p50/p99 ${f(percentile(ok, 50))}/${f(percentile(ok, 99))} ms, all p50/p99 ${f(percentile(all, 50))}/${f(percentile(all, 99))} ms`
}

/** 256 clients connect at once and give up after 1 s; how long until a page answers 200 again. */
async function burst(port: number, url: string, cookie: string) {
  const giveUp = new AbortController()
  // one signal for the whole burst: every request listens to it
  setMaxListeners(BURST + 1, giveUp.signal)
  const pending = Array.from({ length: BURST }, () => get(port, url, cookie, false, giveUp.signal).catch(() => null))
  await new Promise((r) => setTimeout(r, 1000))
  giveUp.abort()
  await Promise.all(pending)
  const ended = performance.now()
  for (;;) {
    const answer = await get(port, url, cookie, false).catch(() => null)
    if (answer?.status === 200) return `after a burst of ${BURST} connections: a page answered 200 again ${Math.round(performance.now() - ended)} ms after the burst ended (that request took ${Math.round(answer.ms)} ms)`
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function run(label: string, file: string, env: Record<string, string>) {
  const portal = await startPortal(file, { SIMULATOR_AGENTS: '0', ...env })
  try {
    const organization = BENCH_FLEET ? BENCH_ORG_ID : DEMO_ORG_ID
    const url = `/organization/${organization}/agents`
    const cookie = createSession(file, DEMO_USERS.owner.id)
    const first = await get(portal.port, url, cookie, false)
    if (first.status !== 200) throw new Error(`${url} answered ${first.status}`)
    console.log(`\n${label} (${url}, load ${loadAverage()})`)
    for (const n of USERS) console.log(await users(portal.port, url, cookie, n))
    console.log(await burst(portal.port, url, cookie))
  } finally {
    await portal.stop()
  }
}

async function main() {
  let file: string
  let cleanup = () => {}
  if (BENCH_FLEET) file = await benchDatabase(undefined, false)
  else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-overload-'))
    file = path.join(dir, 'portal.db')
    cleanup = () => fs.rmSync(dir, { recursive: true, force: true })
  }
  try {
    console.log(`overload bench: ${DURATION_S} s per step, ${os.cpus().length} cores, load ${loadAverage()}`)
    await run('load shedding off (WEB_MAX_IN_FLIGHT=0)', file, { WEB_MAX_IN_FLIGHT: '0' })
    await run('load shedding on (defaults)', file, {})
  } finally {
    cleanup()
  }
}

await main()
