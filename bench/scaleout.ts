// npm run bench:scaleout -- [--agents 40] [--duration 15] [--inflight 4] [--rate 200] [--partitions 8] [--report ping|state] [--profile]
// Ingest on the external broker with one web node, then two (issue 11): RabbitMQ (its own node in a
// temporary directory, scripts/ensure-rabbitmq.sh), nginx in front of the nodes for the broker's
// auth calls, a fresh PostgreSQL database on PIXELFLEET_TEST_POSTGRES_URL (scripts/ensure-postgres.sh).
// `agents` registered agents publish QoS 1 pings over MQTT, `inflight` outstanding each, and count a
// message done when its response arrives (publish-to-response: RabbitMQ's PUBACK only means stored).
// Prints msgs/s, p50/p99 latency and the web nodes' CPU per message for 1 and 2 nodes, and the ratio,
// plus the CPU RabbitMQ and this load generator used (on a shared 2-core machine they compete).
// CPU accounting: utime+stime from /proc/<pid>/stat before and after each run, per process (each web
// node, RabbitMQ's beam.smp, the PostgreSQL backends serving the bench database), printed as cores
// used per 1,000 msgs/s and CPU ms per message, for one node and for two, and the difference: what
// one more node adds, which this 2-core machine cannot show by wall time.
// --report state: the ~2.4 KB updateClientState report of bench/ingest.ts instead of pings, so CPU
// per stored message compares with the embedded path (`bench:ingest`).
// --rate N: open loop instead, N messages per second in all at a fixed pace (CPU per message at
// equal load). --profile: `--cpu-prof` of the web nodes into /tmp/pixelfleet-scaleout-prof.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import mqtt, { type MqttClient } from 'mqtt'
import { agentRequestTopic, agentResponseTopic, provisionRequestTopic, provisionResponseTopic, type AgentCall } from '../protocol'
import { stateOf } from './state-report'
import { withDatabase } from '../tests/setup/test-postgres'
import { freePort, startNginx, startNode, startRabbit, type Node, type Rabbit } from '../tests/scaleout/services'

const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '40' },
    duration: { type: 'string', default: '15' },
    inflight: { type: 'string', default: '4' },
    rate: { type: 'string' },
    partitions: { type: 'string', default: '8' },
    report: { type: 'string', default: 'ping' },
    profile: { type: 'boolean', default: false },
  },
})
const RATE = values.rate ? Number(values.rate) : null
const PROFILE_DIR = '/tmp/pixelfleet-scaleout-prof'
const AGENTS = Number(values.agents)
const DURATION_MS = Number(values.duration) * 1000
const INFLIGHT = Number(values.inflight)
if (values.report !== 'ping' && values.report !== 'state') throw new Error('--report is ping or state')
const CALL: AgentCall = values.report === 'state' ? 'updateClientState' : 'ping'
const server = process.env.PIXELFLEET_TEST_POSTGRES_URL
if (!server) {
  console.error('PIXELFLEET_TEST_POSTGRES_URL (a PostgreSQL superuser URL) is needed: several nodes share one database.')
  process.exit(1)
}

/** utime + stime of a process in milliseconds (Linux /proc); 0 once it is gone. */
const cpuMs = (pid: number) => {
  let stat: string
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return 0
  }
  const fields = stat.split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
}

/** The processes whose CPU a run is charged: name -> pids (PostgreSQL: a backend per connection, looked up each time). */
type Accounted = { name: string; pids: () => number[] }
type CpuSnapshot = Map<string, Map<number, number>>
const snapshot = (accounted: Accounted[]): CpuSnapshot => new Map(accounted.map((a) => [a.name, new Map(a.pids().map((pid) => [pid, cpuMs(pid)]))]))
/** CPU ms per process group between two snapshots (a pid only in `after` started during the run: all its CPU counts). */
function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Map<string, number> {
  const used = new Map<string, number>()
  for (const [name, pids] of after) {
    let sum = 0
    for (const [pid, ms] of pids) sum += ms - (before.get(name)?.get(pid) ?? 0)
    used.set(name, sum)
  }
  return used
}

/** The body of one request (a fresh requestId each); state reports are built once per agent. */
function requestBody(agent: number): (requestId: string) => string {
  if (CALL === 'ping') {
    const metrics = JSON.stringify({ dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 })
    return (requestId) => `{"requestId":${JSON.stringify(requestId)},"metrics":${metrics}}`
  }
  const now = Date.now()
  const rest = JSON.stringify(stateOf(agent, now - (now % 60_000), 1)).slice(1)
  return (requestId) => `{"requestId":${JSON.stringify(requestId)},${rest}`
}

async function registerAgents(url: string): Promise<MqttClient[]> {
  const clients: MqttClient[] = []
  for (let i = 0; i < AGENTS; i++) {
    const clientId = `bench-${process.pid}-${i}`
    const provision = await mqtt.connectAsync(url, { clientId, username: 'provision', password: 'pixelfleet-demo-provisioning-key', reconnectPeriod: 0 })
    await provision.subscribeAsync(provisionResponseTopic(clientId), { qos: 1 })
    const result = new Promise<{ agentId: string; secret: string }>((resolve) => provision.on('message', (_t, p) => resolve(JSON.parse(p.toString()).result)))
    await provision.publishAsync(provisionRequestTopic(clientId), JSON.stringify({ product: 'Bench', serial: `B-${i}` }), { qos: 1 })
    const { agentId, secret } = await result
    await provision.endAsync()
    const agent = await mqtt.connectAsync(url, { clientId: agentId, username: agentId, password: secret, reconnectPeriod: 1000 })
    await agent.subscribeAsync(agentResponseTopic(agentId, CALL), { qos: 1 })
    ;(agent as MqttClient & { agentId: string }).agentId = agentId
    clients.push(agent)
  }
  return clients
}

/** Cores each process uses with no messages flowing (heartbeats, timers, RabbitMQ's own housekeeping). */
async function idleCores(accounted: Accounted[], seconds = 3): Promise<Map<string, number>> {
  const before = snapshot(accounted)
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000))
  const used = cpuBetween(before, snapshot(accounted))
  return new Map([...used].map(([name, ms]) => [name, ms / 1000 / seconds]))
}

async function measure(clients: MqttClient[], nodes: Node[], accounted: Accounted[]) {
  const idle = await idleCores(accounted)
  const latencies: number[] = []
  const cpuBefore = nodes.reduce((sum, n) => sum + cpuMs(n.pid), 0)
  const before = snapshot(accounted)
  const ownBefore = process.cpuUsage()
  const started = performance.now()
  const end = started + DURATION_MS
  await Promise.all(
    clients.map(async (client, agent) => {
      const agentId = (client as MqttClient & { agentId: string }).agentId
      const body = requestBody(agent)
      const waiting = new Map<string, number>()
      let next = 0
      await new Promise<void>((resolve) => {
        const send = () => {
          if (performance.now() > end) return waiting.size === 0 && resolve()
          const id = `${next++}`
          waiting.set(id, performance.now())
          client.publish(agentRequestTopic(agentId, CALL), body(id), { qos: 1 })
        }
        client.on('message', (_topic, payload) => {
          const id = JSON.parse(payload.toString()).requestId as string
          const sent = waiting.get(id)
          if (sent === undefined) return
          waiting.delete(id)
          latencies.push(performance.now() - sent)
          if (!RATE) send()
          else if (performance.now() > end && waiting.size === 0) resolve()
        })
        if (!RATE) for (let i = 0; i < INFLIGHT; i++) send()
        else {
          // open loop: this agent's share of the rate, started at a random phase
          const every = (1000 * clients.length) / RATE
          const timer = setInterval(() => (performance.now() > end ? (clearInterval(timer), waiting.size === 0 && resolve()) : send()), every)
        }
      })
      client.removeAllListeners('message')
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const cpu = nodes.reduce((sum, n) => sum + cpuMs(n.pid), 0) - cpuBefore
  const byProcess = cpuBetween(before, snapshot(accounted))
  const own = process.cpuUsage(ownBefore)
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN
  return {
    messages: latencies.length,
    perSecond: latencies.length / seconds,
    p50: pct(0.5),
    p99: pct(0.99),
    cpuMsPerMessage: cpu / latencies.length,
    // cores busy during the run: web nodes, RabbitMQ, this load generator
    cores: { web: cpu / 1000 / seconds, rabbit: (byProcess.get('RabbitMQ (beam.smp)') ?? 0) / 1000 / seconds, bench: (own.user + own.system) / 1e6 / seconds },
    byProcess,
    idle,
    seconds,
  }
}

type Measured = Awaited<ReturnType<typeof measure>>

/**
 * Per process: idle cores, cores per 1,000 msgs/s and CPU ms per message (all of it, and net of
 * what the process uses idle), one node vs two, and what the second node added per message.
 */
function accountingTable(one: Measured, two: Measured): string {
  const perThousand = (r: Measured, ms: number) => ms / 1000 / r.seconds / (r.perSecond / 1000)
  const perMessage = (r: Measured, ms: number) => ms / r.messages
  const net = (r: Measured, name: string, ms: number) => Math.max(0, ms - (r.idle.get(name) ?? 0) * r.seconds * 1000) / r.messages
  const names = [...new Set([...one.byProcess.keys(), ...two.byProcess.keys()])]
  const ms = (v: number) => `${v.toFixed(3)} ms`
  const lines = [
    '| process | idle cores (1 / 2 nodes) | 1 node: cores per 1,000 msgs/s | CPU per msg (net of idle) | 2 nodes: cores per 1,000 msgs/s | CPU per msg (net of idle) | added by the 2nd node, per msg (net) |',
    '|---|---|---|---|---|---|---|',
  ]
  const totals = { one: 0, two: 0, oneNet: 0, twoNet: 0 }
  for (const name of names) {
    const a = one.byProcess.get(name) ?? 0
    const b = two.byProcess.get(name) ?? 0
    const [aNet, bNet] = [net(one, name, a), net(two, name, b)]
    totals.one += a
    totals.two += b
    totals.oneNet += aNet
    totals.twoNet += bNet
    const delta = perMessage(two, b) - perMessage(one, a)
    const idle = `${(one.idle.get(name) ?? 0).toFixed(3)} / ${(two.idle.get(name) ?? 0).toFixed(3)}`
    lines.push(`| ${name} | ${idle} | ${perThousand(one, a).toFixed(3)} | ${ms(perMessage(one, a))} (${ms(aNet)}) | ${perThousand(two, b).toFixed(3)} | ${ms(perMessage(two, b))} (${ms(bNet)}) | ${delta >= 0 ? '+' : ''}${ms(delta)} (${ms(bNet - aNet)}) |`)
  }
  const delta = perMessage(two, totals.two) - perMessage(one, totals.one)
  lines.push(
    `| all of them | | ${perThousand(one, totals.one).toFixed(3)} | ${ms(perMessage(one, totals.one))} (${ms(totals.oneNet)}) | ${perThousand(two, totals.two).toFixed(3)} | ${ms(perMessage(two, totals.two))} (${ms(totals.twoNet)}) | ${delta >= 0 ? '+' : ''}${ms(delta)} (${ms(totals.twoNet - totals.oneNet)}) |`,
  )
  return lines.join('\n')
}

/** Which node is the active consumer of each partition queue (consumer tags name the node). */
function activeConsumers(rabbit: Rabbit) {
  const active = rabbit
    .ctl('list_consumers', 'queue_name', 'consumer_tag', 'active')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(([queue, , isActive]) => queue?.startsWith('pixelfleet.ingest.q') && isActive === 'true')
  const counts = new Map<string, number>()
  for (const [, tag] of active) counts.set(tag.split('.')[0], (counts.get(tag.split('.')[0]) ?? 0) + 1)
  return [...counts].map(([node, n]) => `${node} ${n}`).join(', ')
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-bench-scaleout-'))
  const name = `pixelfleet_bench_${process.pid}`
  execFileSync('psql', [withDatabase(server!, 'postgres'), '-XAtqc', `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`])
  const databaseUrl = withDatabase(server!, name)
  const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()]
  const nginx = startNginx(path.join(tmp, 'nginx'), nginxPort, [portA, portB])
  const rabbit = await startRabbit(path.join(tmp, 'rabbit'), `http://127.0.0.1:${nginxPort}/broker-auth`)
  const backends = () =>
    execFileSync('psql', [withDatabase(server!, 'postgres'), '-XAtqc', `SELECT pid FROM pg_stat_activity WHERE datname = '${name}'`])
      .toString()
      .split('\n')
      .filter(Boolean)
      .map(Number)
  if (values.profile) fs.mkdirSync(PROFILE_DIR, { recursive: true })
  const nodeArgs = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : []
  const common = { INGEST_PARTITIONS: values.partitions!, DATABASE_URL: databaseUrl, MQTT_BROKER_URL: rabbit.mqttUrl, BROKER_AMQP_URL: rabbit.amqpUrl, TRUST_PROXY: 'loopback', SEED_DEMO: 'true', SIMULATOR_AGENTS: '0', LOG_LEVEL: 'error' }
  const nodes: Node[] = []
  try {
    nodes.push(await startNode({ ...common, PORT: String(portA), NODE_ID: 'bench-a' }, nodeArgs))
    // node B's entry reads no pid until it runs (and nothing in the one-node runs)
    const accounted: Accounted[] = [
      { name: 'web node A', pids: () => [nodes[0].pid] },
      { name: 'web node B', pids: () => (nodes[1] ? [nodes[1].pid] : []) },
      { name: 'RabbitMQ (beam.smp)', pids: () => [rabbit.pid] },
      { name: 'PostgreSQL backends of the bench database', pids: backends },
    ]
    const agentUrl = rabbit.mqttUrl.replace(/\/\/[^@]+@/, '//')
    const clients = await registerAgents(agentUrl)
    console.log(`${AGENTS} agents sending ${CALL}, ${RATE ? `${RATE} msgs/s open loop` : `${INFLIGHT} in flight each`}, ${values.partitions} partitions, ${DURATION_MS / 1000} s per run, ${os.cpus().length} CPUs`)
    await measure(clients, nodes, accounted) // warm-up: caches, JIT, queue declared
    const one = await measure(clients, nodes, accounted)
    nodes.push(await startNode({ ...common, PORT: String(portB), NODE_ID: 'bench-b' }, nodeArgs))
    // node B hears node A's heartbeat and A hands over B's share of the partitions (about 1 s);
    // then a warm-up like node A had (B's caches, JIT)
    await new Promise((resolve) => setTimeout(resolve, 2000))
    await measure(clients, nodes, accounted)
    const two = await measure(clients, nodes, accounted)
    console.log(`active ingest consumers after the run: ${activeConsumers(rabbit)}`)
    const row = (label: string, r: typeof one) =>
      `${label}: ${r.perSecond.toFixed(0)} msgs/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.cpuMsPerMessage.toFixed(2)} ms web-node CPU per message (${r.messages} messages); ` +
      `cores busy: web ${r.cores.web.toFixed(2)}, RabbitMQ ${r.cores.rabbit.toFixed(2)}, load generator ${r.cores.bench.toFixed(2)}; load average ${os.loadavg()[0].toFixed(1)}`
    console.log(row('1 node ', one))
    console.log(row('2 nodes', two))
    console.log(`ratio 2/1: ${(two.perSecond / one.perSecond).toFixed(2)}x throughput`)
    console.log(`\nCPU accounting (utime+stime per process over each measured run):\n${accountingTable(one, two)}`)
    await Promise.all(clients.map((c) => c.endAsync()))
  } finally {
    for (const node of nodes) await node.stop()
    rabbit.stop()
    nginx.stop()
    execFileSync('psql', [withDatabase(server!, 'postgres'), '-XAtqc', `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`])
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
