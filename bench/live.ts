// npm run bench:live [-- --viewers 50] [-- --agents 1000] [-- --interval 10] [-- --duration 60]:
// live updates at fleet scale. An organization of 1,000 agents (bench/.data/live.db, created once)
// reports over real MQTT every 10 s (spread evenly: 100 reports/s); 50 simulated browsers hold the
// Agents page's EventSource open and revalidate as app/utils/use-live-revalidate.ts does (one
// revalidation in flight per tab, at most one queued, coalesced over LIVE_REVALIDATE_MIN_MS, and
// only the loaders a change touches). Prints the server's CPU (cores) over the measured window, the
// revalidations per second and their CPU share. Target: < 0.5 core.
import { setMaxListeners } from 'node:events'
import http from 'node:http'
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import Database from 'better-sqlite3'
import { agentRequestTopic } from '../protocol'
import { sha256 } from '../app/domain/auth/crypto.server'
import { DEFAULT_ROLE_IDS } from '../app/domain/access/catalogue'
import { compileUserAcls } from '../app/domain/access/acl.server'
import { LIVE_REVALIDATE_MIN_MS, liveRevalidateRoutes } from '../app/utils/live-revalidate'
import { disconnectDatabase, prisma } from '../app/utils/db.server'
import { setConfig } from '../app/utils/env.server'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { DEMO_USERS, seedDemo } from '../prisma/seed-data'
import { PublishTemplate, WireClient } from './mqtt-wire'
import { BENCH_DIR, cpuMs, createSession, loadAverage, root, startPortal } from './portal'

const { values } = parseArgs({
  options: {
    viewers: { type: 'string', default: '50' },
    agents: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '10' },
    duration: { type: 'string', default: '60' },
    'all-loaders': { type: 'boolean', default: false },
  },
})
const VIEWERS = Number(values.viewers)
const AGENTS = Number(values.agents)
const INTERVAL_MS = Number(values.interval) * 1000
const DURATION_MS = Number(values.duration) * 1000
const ORG_ID = 'bench-org-live-00001'
const LIVE_VERSION = `live-1:${AGENTS}`
const secretOf = (i: number) => `live-secret-${i}`
const agentIdOf = (i: number) => `live-agent-${String(i).padStart(6, '0')}`

async function liveDatabase() {
  const file = path.join(BENCH_DIR, 'live.db')
  const marker = `${file}.seed-version`
  if (fs.existsSync(file) && fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === LIVE_VERSION) return file
  fs.mkdirSync(BENCH_DIR, { recursive: true })
  for (const suffix of ['', '-wal', '-shm', '.seed-version']) fs.rmSync(file + suffix, { force: true })
  const url = `file:${file}`
  await migrateDatabase(url, root)
  setConfig(loadConfig({ ...process.env, DATABASE_URL: url, SEED_DEMO: 'true', LOG_LEVEL: 'silent' }))
  await seedDemo()
  await prisma.organization.create({ data: { id: ORG_ID, name: 'Live Fleet', ownerId: DEMO_USERS.owner.id, billingStatus: 'internal' } })
  const project = await prisma.project.create({ data: { organizationId: ORG_ID, name: 'Arena' } })
  for (let i = 0; i < AGENTS; i += 500) {
    const ids = Array.from({ length: Math.min(500, AGENTS - i) }, (_, j) => i + j)
    await prisma.agent.createMany({ data: ids.map((n) => ({ id: agentIdOf(n), clientName: `Live ${String(n + 1).padStart(4, '0')}`, secretHash: sha256(secretOf(n)), product: 'Helios', serial: `L${n}`, organizationId: ORG_ID })) })
  }
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: DEMO_USERS.owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: ORG_ID } })
    await compileUserAcls(tx, DEMO_USERS.owner.id, ORG_ID)
  })
  await disconnectDatabase()
  // the systems the first reports create go to the project (its Agents tab has a fleet too)
  const db = new Database(file)
  db.prepare(`UPDATE "Organization" SET "description" = ? WHERE "id" = ?`).run(`Systems report to project ${project.id}`, ORG_ID)
  db.close()
  fs.writeFileSync(marker, LIVE_VERSION)
  return file
}

/** A processor with 16 tiles, an alert whose count changes every report: every report is a change. */
function payload(agent: number, count: number) {
  const state = {
    systems: [
      {
        id: 'main',
        name: `Wall ${agent + 1}`,
        devices: [
          { id: 'proc', component: 'processor', product: 'MX40', serial: `P${agent}`, name: 'Processor', versionSoftware: '3.2.1', properties: { genlockFrequency: 50, inputSource: 'HDMI 1', inputFormat: '1080p50' } },
          { id: 'tiles', component: 'receiver', product: 'Tile', serial: `T${agent}`, name: 'Tiles', parent: 'proc', count: 16 },
        ],
        alerts: agent % 4 === 0 ? [{ key: 'recv.tempHigh', component: 'receiver', device: 'tiles', message: 'Receiver over temperature', severity: 3, history: [{ timestamp: new Date(Date.now() - (Date.now() % 60_000)).toISOString(), count }] }] : [],
        deviations: [],
      },
    ],
  }
  return new PublishTemplate(agentRequestTopic(agentIdOf(agent), 'updateClientState'), Buffer.from(JSON.stringify(state)))
}

type Stats = { revalidations: number; events: number; failed: number; bytes: number }

/** One browser tab on the Agents page: EventSource + revalidation as use-live-revalidate.ts does it. */
function viewer(port: number, cookie: string, stats: Stats, stop: AbortSignal) {
  const routes = values['all-loaders'] ? null : liveRevalidateRoutes(['agent', 'system', 'issue'], ['root', 'routes/_app', 'routes/_app.organization.$organizationId', 'routes/_app.organization.$organizationId.agents._index'])
  const dataUrl = `/organization/${ORG_ID}/agents.data${routes ? `?_routes=${encodeURIComponent(routes.join(','))}` : ''}`
  let inFlight = false
  let queued = false
  let last = 0
  let timer: NodeJS.Timeout | null = null
  const revalidate = () => {
    if (stop.aborted) return
    const wait = last + (values['all-loaders'] ? 0 : LIVE_REVALIDATE_MIN_MS) - Date.now()
    if (inFlight || timer) return void (queued = true)
    if (wait > 0) return void (timer = setTimeout(() => ((timer = null), revalidate()), wait))
    inFlight = true
    last = Date.now()
    http.get({ host: '127.0.0.1', port, path: dataUrl, headers: { cookie, 'accept-encoding': 'gzip' } }, (res) => {
      res.on('data', (c: Buffer) => (stats.bytes += c.length))
      res.on('end', () => {
        stats.revalidations++
        if ((res.statusCode ?? 0) >= 400) stats.failed++
        inFlight = false
        if (queued) {
          queued = false
          revalidate()
        }
      })
    }).on('error', () => ((inFlight = false), stats.failed++))
  }
  const req = http.get({ host: '127.0.0.1', port, path: '/resources/events', headers: { cookie, accept: 'text/event-stream' } }, (res) => {
    let buffer = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      buffer += chunk
      let end
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const message = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const data = message.match(/^event: change\ndata: (.*)$/m)?.[1]
        if (!data) continue
        const events = JSON.parse(data) as { organizationId: string | null; kind: string }[]
        if (!events.some((e) => e.organizationId === ORG_ID && ['agent', 'system', 'issue', 'project'].includes(e.kind))) continue
        stats.events++
        revalidate()
      }
    })
  })
  stop.addEventListener('abort', () => {
    req.destroy()
    if (timer) clearTimeout(timer)
  })
}

async function main() {
  const file = await liveDatabase()
  const portal = await startPortal(file, { SIMULATOR_AGENTS: '0' })
  const stop = new AbortController()
  const clients: WireClient[] = []
  try {
    for (let i = 0; i < AGENTS; i += 100) {
      clients.push(...(await Promise.all(Array.from({ length: Math.min(100, AGENTS - i) }, (_, j) => WireClient.connect(portal.mqttPort, agentIdOf(i + j), agentIdOf(i + j), secretOf(i + j), 60_000)))))
    }
    // first reports create systems and devices (not measured)
    for (let i = 0; i < AGENTS; i += 100) await Promise.all(clients.slice(i, i + 100).map((c, j) => c.publish(payload(i + j, 0))))
    console.log(`${AGENTS} agents connected and reported; ${VIEWERS} viewers open the Agents page; load average ${loadAverage()}`)
    const cookie = createSession(file, DEMO_USERS.owner.id)
    const stats: Stats = { revalidations: 0, events: 0, failed: 0, bytes: 0 }
    setMaxListeners(VIEWERS + 10, stop.signal)
    for (let v = 0; v < VIEWERS; v++) viewer(portal.port, cookie, stats, stop.signal)
    // reports spread evenly over the interval: agent i at i * interval / agents
    let sequence = 1
    const started = Date.now()
    const publishLoop = (async () => {
      let next = Date.now()
      while (!stop.signal.aborted) {
        for (let i = 0; i < AGENTS && !stop.signal.aborted; i++) {
          next += INTERVAL_MS / AGENTS
          const delay = next - Date.now()
          if (delay > 0) await new Promise((r) => setTimeout(r, delay))
          void clients[i].publish(payload(i, sequence % 5))
        }
        sequence++
      }
    })()
    await new Promise((r) => setTimeout(r, 10_000)) // warm-up: streams open, caches fill
    const before = { cpu: cpuMs(portal.pid), at: Date.now(), stats: { ...stats } }
    await new Promise((r) => setTimeout(r, DURATION_MS))
    const seconds = (Date.now() - before.at) / 1000
    const cpu = cpuMs(portal.pid) - before.cpu
    const cores = cpu / 1000 / seconds
    const revalidations = stats.revalidations - before.stats.revalidations
    console.log(
      `window ${seconds.toFixed(0)} s: server CPU ${cores.toFixed(2)} cores (target < 0.5), ${(AGENTS / (INTERVAL_MS / 1000)).toFixed(0)} reports/s, ` +
        `${(revalidations / seconds).toFixed(1)} revalidations/s (server CPU ms per revalidation, ingest included: ${(cpu / Math.max(1, revalidations)).toFixed(1)}; ${((stats.events - before.stats.events) / seconds).toFixed(1)} event batches/s to the viewers, ${stats.failed} failed), ` +
        `${((stats.bytes - before.stats.bytes) / seconds / 1024).toFixed(0)} KB/s of data, load average ${loadAverage()}, ran ${((Date.now() - started) / 1000).toFixed(0)} s`,
    )
    stop.abort()
    await publishLoop
  } finally {
    stop.abort()
    for (const c of clients) c.end()
    await portal.stop()
  }
}

await main()
