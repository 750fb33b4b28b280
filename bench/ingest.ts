// npm run bench:ingest -- [--agents 2000] [--senders 1000] [--duration 20] [--inflight 1] [--rate 0] [--connect-rate 2000] [--in-process] [--profile] [--baseline] [--trace]
// --baseline first runs the minimal pipeline (bench/minimal-broker.ts: aedes, JSON.parse, one
// prepared multi-row INSERT per batch in a transaction) in its own process with the same generator and payloads, then the real
// broker, and prints both and the ratio. --one-thread adds a run of the real broker with ingest in
// its own thread (INGEST_WORKER=0, as before the ingest worker) between the two.
// N agents connect over real MQTT (TCP, loopback) to the real broker on a fresh SQLite database
// under /tmp; `senders` of them publish QoS 1 updateClientState as fast as their acknowledgements
// allow (`inflight` outstanding each), or at `--rate` messages/s in total (open loop: latency at a
// load below saturation; a closed loop at saturation only shows senders / throughput). The broker runs in its own process (broker/standalone.ts)
// so its CPU and RSS are its own; --in-process runs it inside the generator instead. Prints agents
// connected and connect time, sustained messages/s, p50/p95/p99 publish-to-PUBACK latency
// (= publish-to-commit: the broker acks after the commit), broker RSS per connected agent, and the
// limits that capped the run. --profile writes a CPU profile of the broker to /tmp/pixelfleet-bench-prof.
// --trace stamps each message's stages in the Pixelfleet broker (ingest/trace.ts) and prints
// where the time went (bench/ingest-trace.ts).
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { agentRequestTopic } from '../protocol'
import { stateOf } from './state-report'
import { sha256 } from '../app/domain/auth/crypto.server'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, prisma, tuneDatabase } from '../app/utils/db.server'
import { PublishTemplate, WireClient } from './mqtt-wire'
import { benchDatabase } from './bench-database'
import { summarizeTrace } from './ingest-trace'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '2000' },
    senders: { type: 'string', default: '1000' },
    duration: { type: 'string', default: '20' },
    inflight: { type: 'string', default: '1' },
    rate: { type: 'string', default: '0' },
    'connect-rate': { type: 'string', default: '2000' },
    'in-process': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    baseline: { type: 'boolean', default: false },
    'one-thread': { type: 'boolean', default: false },
    trace: { type: 'boolean', default: false },
    // a PostgreSQL server to run on (a database of its own there); SQLite file when empty
    database: { type: 'string', default: process.env.BENCH_DATABASE_URL ?? '' },
  },
})
const REQUESTED_AGENTS = Number(values.agents)
const DURATION_S = Number(values.duration)
const INFLIGHT = Number(values.inflight)
const RATE = Number(values.rate)
const CONNECT_PER_S = Number(values['connect-rate'])
const IN_PROCESS = values['in-process']
const PROFILE_DIR = '/tmp/pixelfleet-bench-prof'
const TRACE_FILE = values.trace ? `/tmp/pixelfleet-bench-trace-${process.pid}.json` : null

const benchDb = benchDatabase(values.database || undefined, `/tmp/pixelfleet-bench-${process.pid}.db`, `ingest_${process.pid}`)
const databaseUrl = benchDb.url
const secretOf = (i: number) => `bench-secret-${i}`
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ')

function procStatus(pid: number, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
}
const rssOf = (pid: number) => procStatus(pid, 'VmRSS') * 1024
/** User + system CPU seconds of a process so far. */
function cpuSecondsOf(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}
/** User + system CPU seconds of each thread of a process so far, by thread id. */
function threadCpuOf(pid: number): Map<number, number> {
  const threads = new Map<number, number>()
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')
      threads.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / 100)
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads
}
/**
 * Cores used per thread between two readings: the main (broker) thread, the busiest other one (the
 * ingest worker when it runs) and the rest together (GC helpers, libuv pool, loader threads).
 */
function threadCores(pid: number, before: Map<number, number>, after: Map<number, number>, seconds: number) {
  const used = [...after].map(([tid, cpu]) => ({ tid, cores: (cpu - (before.get(tid) ?? 0)) / seconds }))
  const main = used.find((t) => t.tid === pid)?.cores ?? 0
  const others = used.filter((t) => t.tid !== pid).sort((a, b) => b.cores - a.cores)
  const busiest = others[0]?.cores ?? 0
  const rest = others.slice(1).reduce((sum, t) => sum + t.cores, 0)
  return { main, busiest, rest }
}
const openFiles = (pid: number) => fs.readdirSync(`/proc/${pid}/fd`).length
/** Soft RLIMIT_NOFILE; child processes inherit it, so it holds for broker and generator alike. */
const fileLimit = () => Number(/Max open files\s+(\d+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity)
const portRange = () => fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number)

/** Descriptors a process needs besides one per connection (the broker holds 28 when idle: stdio, SQLite files, epoll, loader threads). */
const FD_RESERVE = 40
const limits: string[] = []
const nofile = fileLimit()
const [lowPort, highPort] = portRange()
let AGENTS = REQUESTED_AGENTS
if (AGENTS > nofile - FD_RESERVE) {
  AGENTS = nofile - FD_RESERVE
  limits.push(`open files: ulimit -n is ${nofile} per process (hard limit too); the broker holds one descriptor per agent, so at most ${AGENTS} of ${REQUESTED_AGENTS} agents`)
}
if (AGENTS > highPort - lowPort) limits.push(`ephemeral ports ${lowPort}-${highPort} allow only ${highPort - lowPort} connections to one address`)
const SENDERS = Math.min(Number(values.senders), AGENTS)

/** Payloads are built once per sender and minute (JSON work in the generator would steal the broker's CPU). */
function payloadsOf(ids: string[]) {
  const cache = new Map<number, { minute: number; templates: PublishTemplate[] }>()
  return (agent: number, sequence: number): PublishTemplate => {
    const now = Date.now()
    const minute = now - (now % 60_000)
    let entry = cache.get(agent)
    if (entry?.minute !== minute) {
      const topic = agentRequestTopic(ids[agent], 'updateClientState')
      entry = { minute, templates: [1, 0].map((count) => new PublishTemplate(topic, Buffer.from(JSON.stringify(stateOf(agent, minute, count))))) }
      cache.set(agent, entry)
    }
    return entry.templates[sequence % 20 < 10 ? 0 : 1]
  }
}

type Broker = { port: number; pid: number; stop: () => Promise<void> }

async function spawnBroker(script = 'broker/standalone.ts', env: Record<string, string> = {}): Promise<Broker> {
  if (values.profile) fs.rmSync(PROFILE_DIR, { recursive: true, force: true })
  const profile = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []
  const child = spawn(process.execPath, [...profile, '--max-old-space-size=4096', '--import', 'tsx', script], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, MQTT_PORT: '0', LOG_LEVEL: 'error', NODE_ENV: 'production', ...(TRACE_FILE && script === 'broker/standalone.ts' ? { INGEST_TRACE: TRACE_FILE } : {}), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk
      const match = /MQTT_PORT=(\d+)/.exec(out)
      if (match) resolve(Number(match[1]))
    })
    child.once('exit', (code) => reject(new Error(`broker exited with ${code}`)))
  })
  return {
    port,
    pid: child.pid!,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await exited
    },
  }
}

async function inProcessBroker(): Promise<Broker> {
  const { startBroker, brokerLogger } = await import('../broker/broker.server')
  await tuneDatabase()
  const broker = await startBroker({ port: 0, host: '127.0.0.1', logger: brokerLogger('error') })
  return {
    port: broker.port,
    pid: process.pid,
    stop: async () => {
      await broker.close()
      await disconnectDatabase()
    },
  }
}

type RunStats = {
  label: string
  rate: number
  p50: number
  p95: number
  p99: number
  cores: number
  threads: { main: number; busiest: number; rest: number }
  cpuPerMessage: number
  kbPerAgent: number
  connected: number
}

async function main() {
  const where = IN_PROCESS ? 'in the generator process' : 'in its own process'
  const pace = RATE > 0 ? `offering ${RATE} msgs/s` : `${INFLIGHT} in flight each`
  console.log(`Ingest benchmark: ${AGENTS} agents, ${SENDERS} sending (${pace}), ${DURATION_S} s, broker ${where}; load average ${load()}`)
  await benchDb.reset()
  await migrateDatabase(databaseUrl, root)
  setConfig(loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SEED_DEMO: 'false' }))
  const ids = Array.from({ length: AGENTS }, (_, i) => `bench-agent-${String(i).padStart(6, '0')}`)
  for (let i = 0; i < AGENTS; i += 500) {
    await prisma.agent.createMany({ data: ids.slice(i, i + 500).map((id, j) => ({ id, secretHash: sha256(secretOf(i + j)), product: 'Bench', serial: id })) })
  }
  if (!IN_PROCESS) await disconnectDatabase()
  try {
    const runs: RunStats[] = []
    if (values.baseline) {
      console.log('\n== minimal pipeline (aedes + JSON.parse + one multi-row INSERT per batch; own process)')
      runs.push(await run('minimal', ids, () => spawnBroker('bench/minimal-broker.ts')))
    }
    if (values['one-thread']) {
      console.log('\n== Pixelfleet ingest in the broker thread (INGEST_WORKER=0)')
      runs.push(await run('pixelfleet, one thread', ids, () => spawnBroker('broker/standalone.ts', { INGEST_WORKER: '0' })))
    }
    console.log('\n== Pixelfleet ingest')
    runs.push(await run('pixelfleet', ids, () => (IN_PROCESS ? inProcessBroker() : spawnBroker())))
    if (runs.length > 1) {
      const [minimal, real] = [runs[0], runs.at(-1)!]
      console.log('\n| pipeline | msgs/s | p50 | p95 | p99 | broker cores (main + worker + rest) | CPU per msg | RSS per agent |\n|---|---|---|---|---|---|---|---|')
      for (const r of runs) {
        console.log(`| ${r.label} | ${r.rate.toFixed(0)} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${r.p99.toFixed(0)} ms | ${r.cores.toFixed(2)} (${r.threads.main.toFixed(2)} + ${r.threads.busiest.toFixed(2)} + ${r.threads.rest.toFixed(2)}) | ${r.cpuPerMessage.toFixed(3)} ms | ${r.kbPerAgent.toFixed(1)} KB |`)
      }
      console.log(`ratio ${real.label} / ${minimal.label}: ${(real.rate / minimal.rate).toFixed(2)}x msgs/s, ${(real.cpuPerMessage / minimal.cpuPerMessage).toFixed(1)}x CPU per message, ${(real.p99 / minimal.p99).toFixed(1)}x p99; load average ${load()}`)
    }
  } finally {
    await benchDb.remove()
  }
}

/** The timed window of the run being finished (the trace summary keeps the messages received in it). */
let traceWindow: { from: number; to: number } | null = null

async function run(label: string, ids: string[], start: () => Promise<Broker>): Promise<RunStats> {
  const broker = await start()
  const clients: WireClient[] = []
  try {
    await new Promise((r) => setTimeout(r, 500))
    const idleRss = rssOf(broker.pid)
    const idleFiles = openFiles(broker.pid)

    // Connect in waves of a tenth of the rate so the accept backlog and authentication keep up.
    const connectStarted = Date.now()
    const wave = Math.max(1, Math.floor(CONNECT_PER_S / 10))
    const failures = new Map<string, number>()
    for (let i = 0; i < AGENTS; i += wave) {
      const started = Date.now()
      const results = await Promise.allSettled(ids.slice(i, i + wave).map((id, j) => WireClient.connect(broker.port, id, id, secretOf(i + j), 60_000)))
      for (const result of results) {
        if (result.status === 'fulfilled') clients.push(result.value)
        else failures.set(result.reason.message, (failures.get(result.reason.message) ?? 0) + 1)
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - started))))
    }
    const connectSeconds = (Date.now() - connectStarted) / 1000
    await new Promise((r) => setTimeout(r, 1000))
    const connectedRss = rssOf(broker.pid)
    const brokerFiles = openFiles(broker.pid)
    console.log(`connected ${clients.length} of ${AGENTS} agents in ${connectSeconds.toFixed(1)} s (${(clients.length / connectSeconds).toFixed(0)}/s)`)
    for (const [reason, count] of failures) console.log(`  ${count} failed: ${reason}`)
    console.log(`broker RSS ${mb(idleRss)} MB idle -> ${mb(connectedRss)} MB connected: ${((connectedRss - idleRss) / Math.max(1, clients.length) / 1024).toFixed(1)} KB per agent; ${brokerFiles} open files (${idleFiles} idle)`)

    // The first state of each sender creates its system, devices and issues: sent before timing.
    const payloadOf = payloadsOf(ids)
    const senders = clients.slice(0, SENDERS)
    await Promise.all(senders.map((client, i) => client.publish(payloadOf(i, 0))))

    const latencies: number[] = []
    let running = true
    const brokerCpuBefore = cpuSecondsOf(broker.pid)
    const threadsBefore = threadCpuOf(broker.pid)
    const ownCpuBefore = process.cpuUsage()
    const started = performance.now()
    const window = { from: performance.timeOrigin + started, to: 0 }
    const loop = async (client: WireClient, i: number) => {
      let sequence = 1
      // With --rate each sender keeps its own schedule, staggered so the senders do not fire together.
      const interval = RATE > 0 ? (SENDERS * INFLIGHT * 1000) / RATE : 0
      let due = performance.now() + Math.random() * interval
      while (running && !client.closed) {
        if (interval) {
          await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())))
          due += interval
          if (!running) break
        }
        const sent = performance.now()
        await client.publish(payloadOf(i, sequence++))
        if (running) latencies.push(performance.now() - sent)
      }
    }
    const progress = setInterval(() => process.stdout.write(`\r  ${latencies.length} acknowledged, ${(latencies.length / ((performance.now() - started) / 1000)).toFixed(0)} msg/s   `), 1000)
    const loops = senders.flatMap((client, i) => Array.from({ length: INFLIGHT }, () => loop(client, i)))
    await new Promise((r) => setTimeout(r, DURATION_S * 1000))
    running = false
    window.to = performance.timeOrigin + performance.now()
    const elapsed = (performance.now() - started) / 1000
    clearInterval(progress)
    const loadedRss = rssOf(broker.pid)
    const brokerCpu = cpuSecondsOf(broker.pid) - brokerCpuBefore
    const threads = threadCores(broker.pid, threadsBefore, threadCpuOf(broker.pid), elapsed)
    const ownCpu = process.cpuUsage(ownCpuBefore)
    await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 10_000))])

    latencies.sort((a, b) => a - b)
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))]?.toFixed(1)
    const cores = (seconds: number) => (seconds / elapsed).toFixed(2)
    console.log(`\nsustained: ${(latencies.length / elapsed).toFixed(0)} state msgs/s over ${elapsed.toFixed(1)} s (${latencies.length} messages)`)
    console.log(`publish -> PUBACK (= commit) latency: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`)
    // CPU per message barely depends on how busy the machine is; msgs/s and latency do.
    const perMessage = ((brokerCpu * 1000) / Math.max(1, latencies.length)).toFixed(3)
    console.log(`CPU while sending: broker ${cores(brokerCpu)} cores, ${perMessage} ms per message${IN_PROCESS ? ' (with the generator)' : `; generator ${cores((ownCpu.user + ownCpu.system) / 1e6)} cores`}`)
    console.log(`  per thread: main ${threads.main.toFixed(2)} cores, busiest other ${threads.busiest.toFixed(2)} (the ingest worker when it runs), the rest ${threads.rest.toFixed(2)}`)
    console.log(`broker RSS under load ${mb(loadedRss)} MB; database ${mb(await benchDb.size())} MB; load average ${load()}`)
    console.log(limits.length ? `limits hit:\n${limits.map((l) => `  - ${l}`).join('\n')}` : `limits: none hit (ulimit -n ${nofile}, ephemeral ports ${lowPort}-${highPort})`)
    const mean = latencies.reduce((sum, l) => sum + l, 0) / Math.max(1, latencies.length)
    console.log(`  mean ${mean.toFixed(1)} ms; p99 / mean ${(Number(pct(99)) / mean).toFixed(2)}`)
    // the minimal pipeline stamps nothing
    if (label !== 'minimal') traceWindow = window
    const at = (p: number) => Number(pct(p) ?? 0)
    return {
      label,
      rate: latencies.length / elapsed,
      p50: at(50),
      p95: at(95),
      p99: at(99),
      cores: brokerCpu / elapsed,
      threads,
      cpuPerMessage: Number(perMessage),
      kbPerAgent: (connectedRss - idleRss) / Math.max(1, clients.length) / 1024,
      connected: clients.length,
    }
  } finally {
    for (const client of clients) client.end()
    await new Promise((r) => setTimeout(r, 200))
    await broker.stop()
    if (TRACE_FILE && traceWindow) summarizeTrace(TRACE_FILE, traceWindow.from, traceWindow.to)
    traceWindow = null
    if (values.profile && !IN_PROCESS) console.log(`CPU profile of the broker in ${PROFILE_DIR}`)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
