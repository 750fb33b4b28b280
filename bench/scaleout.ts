// npm run bench:scaleout -- [--agents 40] [--duration 15] [--inflight 4]
// Ingest on the external broker with one web node, then two (issue 11): RabbitMQ (its own node in a
// temporary directory, scripts/ensure-rabbitmq.sh), nginx in front of the nodes for the broker's
// auth calls, a fresh PostgreSQL database on PIXELFLEET_TEST_POSTGRES_URL (scripts/ensure-postgres.sh).
// `agents` registered agents publish QoS 1 pings over MQTT, `inflight` outstanding each, and count a
// message done when its response arrives (publish-to-response: RabbitMQ's PUBACK only means stored).
// Prints msgs/s, p50/p99 latency and the web nodes' CPU per message for 1 and 2 nodes, and the ratio.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import mqtt, { type MqttClient } from 'mqtt'
import { agentRequestTopic, agentResponseTopic, provisionRequestTopic, provisionResponseTopic } from '../broker/protocol'
import { withDatabase } from '../tests/setup/test-postgres'
import { freePort, startNginx, startNode, startRabbit, type Node } from '../tests/scaleout/services'

const { values } = parseArgs({ options: { agents: { type: 'string', default: '40' }, duration: { type: 'string', default: '15' }, inflight: { type: 'string', default: '4' } } })
const AGENTS = Number(values.agents)
const DURATION_MS = Number(values.duration) * 1000
const INFLIGHT = Number(values.inflight)
const server = process.env.PIXELFLEET_TEST_POSTGRES_URL
if (!server) {
  console.error('PIXELFLEET_TEST_POSTGRES_URL (a PostgreSQL superuser URL) is needed: several nodes share one database.')
  process.exit(1)
}

/** utime + stime of a process in milliseconds (Linux /proc). */
const cpuMs = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
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
    await agent.subscribeAsync(agentResponseTopic(agentId, 'ping'), { qos: 1 })
    ;(agent as MqttClient & { agentId: string }).agentId = agentId
    clients.push(agent)
  }
  return clients
}

async function measure(clients: MqttClient[], nodes: Node[]) {
  const latencies: number[] = []
  const metrics = { dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 }
  const cpuBefore = nodes.reduce((sum, n) => sum + cpuMs(n.pid), 0)
  const started = performance.now()
  const end = started + DURATION_MS
  await Promise.all(
    clients.map(async (client) => {
      const agentId = (client as MqttClient & { agentId: string }).agentId
      const waiting = new Map<string, number>()
      let next = 0
      await new Promise<void>((resolve) => {
        const send = () => {
          if (performance.now() > end) return waiting.size === 0 && resolve()
          const id = `${next++}`
          waiting.set(id, performance.now())
          client.publish(agentRequestTopic(agentId, 'ping'), JSON.stringify({ requestId: id, metrics }), { qos: 1 })
        }
        client.on('message', (_topic, payload) => {
          const id = JSON.parse(payload.toString()).requestId as string
          const sent = waiting.get(id)
          if (sent === undefined) return
          waiting.delete(id)
          latencies.push(performance.now() - sent)
          send()
        })
        for (let i = 0; i < INFLIGHT; i++) send()
      })
      client.removeAllListeners('message')
    }),
  )
  const seconds = (performance.now() - started) / 1000
  const cpu = nodes.reduce((sum, n) => sum + cpuMs(n.pid), 0) - cpuBefore
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN
  return { messages: latencies.length, perSecond: latencies.length / seconds, p50: pct(0.5), p99: pct(0.99), cpuMsPerMessage: cpu / latencies.length }
}

async function main() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-bench-scaleout-'))
  const name = `pixelfleet_bench_${process.pid}`
  execFileSync('psql', [withDatabase(server!, 'postgres'), '-XAtqc', `CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`])
  const databaseUrl = withDatabase(server!, name)
  const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()]
  const nginx = startNginx(path.join(tmp, 'nginx'), nginxPort, [portA, portB])
  const rabbit = await startRabbit(path.join(tmp, 'rabbit'), `http://127.0.0.1:${nginxPort}/broker-auth`)
  const common = { DATABASE_URL: databaseUrl, MQTT_BROKER_URL: rabbit.mqttUrl, BROKER_AMQP_URL: rabbit.amqpUrl, TRUST_PROXY: 'loopback', SEED_DEMO: 'true', SIMULATOR_AGENTS: '0', LOG_LEVEL: 'error' }
  const nodes: Node[] = []
  try {
    nodes.push(await startNode({ ...common, PORT: String(portA), NODE_ID: 'bench-a' }))
    const agentUrl = rabbit.mqttUrl.replace(/\/\/[^@]+@/, '//')
    const clients = await registerAgents(agentUrl)
    console.log(`${AGENTS} agents, ${INFLIGHT} in flight each, ${DURATION_MS / 1000} s per run, ${os.cpus().length} CPUs`)
    await measure(clients, nodes) // warm-up: caches, JIT, queue declared
    const one = await measure(clients, nodes)
    nodes.push(await startNode({ ...common, PORT: String(portB), NODE_ID: 'bench-b' }))
    await new Promise((resolve) => setTimeout(resolve, 2000))
    const two = await measure(clients, nodes)
    const row = (label: string, r: typeof one) =>
      `${label}: ${r.perSecond.toFixed(0)} msgs/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.cpuMsPerMessage.toFixed(2)} ms web-node CPU per message (${r.messages} messages)`
    console.log(row('1 node ', one))
    console.log(row('2 nodes', two))
    console.log(`ratio 2/1: ${(two.perSecond / one.perSecond).toFixed(2)}x throughput`)
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
