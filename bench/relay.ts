// node --import tsx bench/relay.ts [--requests N] [--concurrency C]: requests/s and latency of
// browser requests through the relay and one agent tunnel (HTTP/2 over WebSocket) to a simulated
// agent's status page, on a fresh SQLite database. Every request is checked against its proxy
// session (host, browser cookie, rights re-checked every 2 s) and recorded (last seen, last path, active connections) as in production.
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, prisma, tuneDatabase } from '../app/utils/db.server'
import { compileUserAcls } from '../app/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '../app/domain/access/catalogue'
import { registerAgent } from '../app/domain/agents/agent-gateway.server'
import { openProxySession } from '../app/domain/relay/sessions.server'
import { createSession } from '../app/domain/auth/session.server'
import { RelayClient } from '../relay/client'
import { startRelay } from '../relay/relay.server'
import { SimulatedSite } from '../simulator/site'
import { RemoteConnect } from '../simulator/tunnel'

const root = path.resolve(import.meta.dirname, '..')
const args = process.argv.slice(2)
const option = (name: string, fallback: number) => Number(args[args.indexOf(`--${name}`) + 1]) || fallback
const REQUESTS = option('requests', 5000)
const CONCURRENCY = option('concurrency', 32)
const DB_FILE = '/tmp/pixelfleet-bench-relay.db'

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

async function main() {
  fs.rmSync(DB_FILE, { force: true })
  const config = loadConfig({ ...process.env, DATABASE_URL: `file:${DB_FILE}`, LOG_LEVEL: 'silent', SEED_DEMO: 'false' })
  await migrateDatabase(config.DATABASE_URL, root)
  setConfig(config)
  await tuneDatabase()

  const user = await prisma.user.create({ data: { email: 'bench@relay.bench', name: 'Bench', emailVerified: true } })
  const org = await prisma.organization.create({ data: { name: 'Relay bench', ownerId: user.id } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await compileUserAcls(tx, user.id, org.id)
  })
  const site = new SimulatedSite({ seed: 1, index: 0, scenario: 'mixed' })
  site.tick(new Date())
  const { agentId, secret } = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, { ip: '127.0.0.1', receivedAt: new Date() })
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: org.id } })

  const relay = await startRelay({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${relay.port}`
  const remote = new RemoteConnect(site)
  await remote.update({ enabled: true, relayUrl: base, remoteConnect: true, agentId, secret })
  await remote.waitUntilOpen()
  const actor = { kind: 'user' as const, userId: user.id, email: user.email, name: user.name, isSiteAdmin: false, ip: '127.0.0.1', userAgent: 'bench' }
  // A stored sign-in to open the session with (the session ends when it does).
  const { token } = await createSession(user.id, { ip: '127.0.0.1', userAgent: 'bench' })
  const session = await openProxySession(actor, { agentId }, { ip: '127.0.0.1', userAgent: 'bench' }, token)

  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY })
  const client = new RelayClient({ host: '127.0.0.1', port: relay.port }, agent)
  if ((await client.redeem(session.address)).status !== 200) throw new Error('the relay refused the bench session')
  const url = new URL('/status.json', session.origin)
  const get = async () => {
    const started = performance.now()
    const answer = await client.get(url.toString())
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`)
    return performance.now() - started
  }

  for (let i = 0; i < 50; i++) await get() // warm-up
  const latencies: number[] = []
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) latencies.push(await get())
    }),
  )
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  const bytes = Buffer.byteLength((await client.get(url.toString())).body)
  console.log(`relay: ${REQUESTS} GET ${url.pathname.split('/').slice(-1)} (${(bytes / 1024).toFixed(1)} KiB) through one tunnel, concurrency ${CONCURRENCY}`)
  console.log(`  ${(REQUESTS / seconds).toFixed(0)} requests/s   p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms   max ${latencies.at(-1)!.toFixed(1)} ms`)

  agent.destroy()
  await remote.stop()
  await relay.close()
  await disconnectDatabase()
  fs.rmSync(DB_FILE, { force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
