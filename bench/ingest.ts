// npm run bench:ingest -- [--agents 2000] [--senders 1000] [--duration 20] [--inflight 1]
// N agents connect over real MQTT to the real broker (its own process, broker/standalone.ts) on a
// fresh SQLite database under /tmp; `senders` of them publish QoS 1 updateClientState as fast as
// their acknowledgements allow (`inflight` outstanding each). Prints sustained messages/s, p50/p99
// publish-to-PUBACK latency (= publish-to-commit: the broker acks after the commit), and the
// broker's RSS per connected agent. Loopback only; bounded by --duration.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import mqtt, { type MqttClient } from 'mqtt'
import { agentRequestTopic, type UpdateClientStateRequest } from '../broker/protocol'
import { sha256 } from '../app/domain/auth/crypto.server'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, prisma } from '../app/utils/db.server'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '2000' },
    senders: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '20' },
    inflight: { type: 'string', default: '1' },
    'connect-rate': { type: 'string', default: '2000' },
  },
})
const AGENTS = Number(values.agents)
const SENDERS = Math.min(Number(values.senders), AGENTS)
const DURATION_S = Number(values.duration)
const INFLIGHT = Number(values.inflight)
const CONNECT_PER_S = Number(values['connect-rate'])

const dbFile = `/tmp/pixelfleet-bench-${process.pid}.db`
const databaseUrl = `file:${dbFile}`
const secretOf = (i: number) => `bench-secret-${i}`
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)

function rssOf(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

/** One processor with 24 tiles, a switch, a PDU; an alert whose history grows now and then. */
function stateOf(agent: number, sequence: number): UpdateClientStateRequest {
  const now = Date.now()
  return {
    systems: [
      {
        id: 'main',
        name: `Stage ${agent}`,
        devices: [
          { id: 'proc', component: 'processor', product: 'MX40', serial: `P${agent}`, name: 'Processor', versionSoftware: '3.2.1', properties: { genlockFrequency: 50, inputSource: 'HDMI 1', inputFormat: '1080p50' } },
          ...Array.from({ length: 8 }, (_, t) => ({ id: `rx-${t}`, component: 'receiver' as const, product: 'Tile', serial: `T${agent}-${t}`, name: `Tile row ${t}`, parent: 'proc', count: 3 })),
          { id: 'sw', component: 'switch', product: 'SW24', name: 'Switch' },
          { id: 'pdu', component: 'pdu', product: 'PDU8', name: 'PDU', properties: { current: 7.2 } },
        ],
        alerts: [{ key: 'recv.tempHigh', component: 'receiver', device: 'rx-1', message: 'Receiver over temperature', severity: 3, history: [{ timestamp: now - (now % 60_000), count: sequence % 20 < 10 ? 1 : 0 }] }],
        deviations: [{ key: 'fw.mismatch', component: 'receiver', message: 'Firmware differs', severity: 5, history: [{ timestamp: now - (now % 3_600_000), count: 2 }] }],
      },
    ],
  }
}

async function main() {
  console.log(`Ingest benchmark: ${AGENTS} agents connected, ${SENDERS} sending (${INFLIGHT} in flight each), ${DURATION_S} s, database ${dbFile}`)
  fs.rmSync(dbFile, { force: true })
  await migrateDatabase(databaseUrl, root)
  setConfig(loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SEED_DEMO: 'false' }))
  const ids = Array.from({ length: AGENTS }, (_, i) => `bench-agent-${String(i).padStart(6, '0')}`)
  for (let i = 0; i < AGENTS; i += 500) {
    await prisma.agent.createMany({ data: ids.slice(i, i + 500).map((id, j) => ({ id, secretHash: sha256(secretOf(i + j)), product: 'Bench', serial: id })) })
  }
  await disconnectDatabase()

  const server = spawn(process.execPath, ['--max-old-space-size=4096', '--import', 'tsx', 'broker/standalone.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, MQTT_PORT: '0', LOG_LEVEL: 'error', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk
      const match = /MQTT_PORT=(\d+)/.exec(out)
      if (match) resolve(Number(match[1]))
    })
    server.once('exit', (code) => reject(new Error(`broker exited with ${code}`)))
  })
  const clients: MqttClient[] = []
  try {
    await new Promise((r) => setTimeout(r, 500))
    const idleRss = rssOf(server.pid!)

    // Connect in waves so the SYN backlog and the authentication queries keep up.
    const connectStarted = Date.now()
    const wave = Math.max(1, Math.floor(CONNECT_PER_S / 10))
    for (let i = 0; i < AGENTS; i += wave) {
      const started = Date.now()
      const batch = await Promise.all(
        ids.slice(i, i + wave).map((id, j) =>
          mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: id, username: id, password: secretOf(i + j), reconnectPeriod: 0, keepalive: 600, connectTimeout: 60_000 }),
        ),
      )
      clients.push(...batch)
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - started))))
    }
    const connectSeconds = (Date.now() - connectStarted) / 1000
    await new Promise((r) => setTimeout(r, 1000))
    const connectedRss = rssOf(server.pid!)
    console.log(`connected ${clients.length} agents in ${connectSeconds.toFixed(1)} s; broker RSS ${mb(idleRss)} MB idle -> ${mb(connectedRss)} MB (${((connectedRss - idleRss) / clients.length / 1024).toFixed(1)} KB per agent)`)

    // First state of every sender creates its rows; not measured.
    const senders = clients.slice(0, SENDERS)
    await Promise.all(senders.map((c, i) => c.publishAsync(agentRequestTopic(ids[i], 'updateClientState'), JSON.stringify(stateOf(i, 0)), { qos: 1 })))

    const latencies: number[] = []
    let running = true
    const started = performance.now()
    const loop = async (client: MqttClient, i: number) => {
      let sequence = 1
      while (running) {
        const payload = JSON.stringify(stateOf(i, sequence++))
        const sent = performance.now()
        await client.publishAsync(agentRequestTopic(ids[i], 'updateClientState'), payload, { qos: 1 })
        if (running) latencies.push(performance.now() - sent)
      }
    }
    const progress = setInterval(() => process.stdout.write(`\r  ${latencies.length} acknowledged, ${(latencies.length / ((performance.now() - started) / 1000)).toFixed(0)} msg/s   `), 1000)
    const loops = senders.flatMap((c, i) => Array.from({ length: INFLIGHT }, () => loop(c, i)))
    await new Promise((r) => setTimeout(r, DURATION_S * 1000))
    running = false
    const elapsed = (performance.now() - started) / 1000
    clearInterval(progress)
    const loadedRss = rssOf(server.pid!)
    await Promise.all(loops)

    latencies.sort((a, b) => a - b)
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]?.toFixed(1)
    console.log(`\nsustained: ${(latencies.length / elapsed).toFixed(0)} state msgs/s over ${elapsed.toFixed(1)} s (${latencies.length} messages)`)
    console.log(`publish -> PUBACK (= commit) latency: p50 ${pct(50)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`)
    console.log(`broker RSS under load: ${mb(loadedRss)} MB; database ${mb(fs.statSync(dbFile).size)} MB`)
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})))
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true })
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
