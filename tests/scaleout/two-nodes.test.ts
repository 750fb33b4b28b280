/**
 * External broker mode end to end (npm run test:scaleout): RabbitMQ from Debian, two web nodes on
 * one PostgreSQL database behind Debian's nginx (round robin, no sticky sessions), the demo fleet
 * of node A plus an agent driven by this test, all through RabbitMQ.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import mqtt from 'mqtt'
import pg from 'pg'
import { type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Scope } from '../../app/domain/access/catalogue'
import { DEMO_ORG_ID, DEMO_PASSWORD, DEMO_USERS } from '../../prisma/seed-data'
import { agentRequestTopic, agentResponseTopic, provisionRequestTopic, provisionResponseTopic } from '../../protocol'
import { launchBrowser, newPage, signIn, startPortal, type RunningPortal } from '../e2e/harness'
import { createTestDatabase } from '../setup/test-db'
import { testPostgresUrl } from '../setup/test-postgres'
import { freePort, rabbitmqInstalled, startNginx, startRabbit, type Rabbit } from './services'

const FLEET = 6
const PINGS = 300
/** agents of the kill test: with 8 partitions over two nodes, some of them are node B's (all on A: 1 in 2^8) */
const TEST_AGENTS = 8
const PARTITIONS = 8

describe.skipIf(!testPostgresUrl() || !rabbitmqInstalled())('two web nodes behind nginx on RabbitMQ', () => {
  let tmp: string
  let rabbit: Rabbit
  let nginx: ReturnType<typeof startNginx>
  let db: ReturnType<typeof createTestDatabase>
  let nodeA: RunningPortal
  let nodeB: RunningPortal
  let balancer: string
  let browser: Browser
  // The waits below poll the database over a connection held open, not a psql process per poll.
  // Which consumer of a partition is the active one only rabbitmqctl tells (AMQP's consumer count
  // of a single-active-consumer quorum queue counts the active one alone, never the standbys), and
  // each call boots an Erlang VM (seconds of CPU at load 20): asked asynchronously, every 5 s.
  let database: pg.Client
  /** rows as `psql -At` prints them: columns joined by `|`, rows by newlines */
  const sql = async (query: string) =>
    (await database.query<unknown[]>({ text: query, rowMode: 'array' })).rows.map((row) => row.map(String).join('|')).join('\n')
  /** partition queue -> node whose consumer is active on it (consumer tags name the node): one rabbitmqctl call */
  const activeConsumers = async () => {
    const active = new Map<string, string>()
    for (const [queue, tag, isActive] of (await rabbit.ctlAsync('list_consumers', 'queue_name', 'consumer_tag', 'active')).split('\n').map((l) => l.split('\t'))) {
      if (!queue?.startsWith('pixelfleet.ingest.q') || isActive !== 'true') continue
      expect(active.has(queue), `two active consumers on ${queue}`).toBe(false)
      active.set(queue, tag.split('.')[0])
    }
    return active
  }
  const partitionsOf = (node: string, active: Map<string, string>) => [...active.values()].filter((n) => n === node).length

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-scaleout-'))
    const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()]
    balancer = `http://127.0.0.1:${nginxPort}`
    nginx = startNginx(path.join(tmp, 'nginx'), nginxPort, [portA, portB])
    rabbit = await startRabbit(path.join(tmp, 'rabbit'), `${balancer}/broker-auth`)
    db = createTestDatabase('scaleout')
    database = new pg.Client({ connectionString: db.url })
    database.on('error', () => undefined)
    await database.connect()
    // RELAY_INTERNAL_SECRET: the relays forward portal sessions to the node holding the agent's tunnel
    const common = { DATABASE_URL: db.url, MQTT_BROKER_URL: rabbit.mqttUrl, BROKER_AMQP_URL: rabbit.amqpUrl, TRUST_PROXY: 'loopback', PUBLIC_URL: balancer, INGEST_PREFETCH: '50', INGEST_PARTITIONS: String(PARTITIONS), LOG_LEVEL: 'error', FLEET_READ_CACHE_MS: '5000', RELAY_INTERNAL_SECRET: 'scale-out-test-secret-shared-by-both-relays' }
    nodeA = await startPortal({ ...common, PORT: String(portA), NODE_ID: 'node-a', RELAY_NODE_ID: 'relay-a', SEED_DEMO: 'true', SIMULATOR_AGENTS: String(FLEET) })
    nodeB = await startPortal({ ...common, PORT: String(portB), NODE_ID: 'node-b', RELAY_NODE_ID: 'relay-b', SEED_DEMO: 'true', SIMULATOR_AGENTS: '0' })
    browser = await launchBrowser()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await database?.end().catch(() => undefined)
    await nodeA?.stop()
    await nodeB?.stop()
    rabbit?.stop()
    nginx?.stop()
    db?.remove()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  it('agents authenticate through the portal, their state is ingested and both nodes show it', async () => {
    // The demo fleet registered, connected (auth via nginx -> either node) and enrolled through RabbitMQ.
    await expect.poll(async () => Number(await sql(`SELECT count(*) FROM "Agent" WHERE online AND "organizationId" = '${DEMO_ORG_ID}'`)), { timeout: 90_000, interval: 1000 }).toBe(FLEET)
    const names = (await sql(`SELECT "clientName" FROM "Agent" WHERE "organizationId" = '${DEMO_ORG_ID}' ORDER BY "clientName" LIMIT 2`)).split('\n')
    const { context, page } = await newPage(browser, balancer)
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    for (const node of [nodeA, nodeB]) {
      await page.goto(`${node.url}/organization/${DEMO_ORG_ID}/agents`)
      for (const name of names) await expect.poll(() => page.getByText(name).first().isVisible(), { timeout: 20_000 }).toBe(true)
    }
    // A wrong secret is refused by RabbitMQ on the portal's word.
    const intruder = mqtt.connect(rabbit.mqttUrl.replace(/\/\/[^@]+@/, '//'), { clientId: 'nobody', username: 'nobody', password: 'wrong', reconnectPeriod: 0 })
    const refused = await new Promise<string>((resolve) => {
      intruder.on('error', (error) => resolve(error.message))
      intruder.on('connect', () => resolve('connected'))
    })
    intruder.end(true)
    expect(refused).not.toBe('connected')
    await context.close()
  }, 180_000)

  it('a live update raised on node A reaches a browser on node B', async () => {
    const { context, page } = await newPage(browser, balancer)
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    await page.goto(`${nodeB.url}/organization/${DEMO_ORG_ID}/agents`)
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { seen: string[] }).seen = seen
      const source = new EventSource('/resources/events')
      source.addEventListener('change', (event) => seen.push((event as MessageEvent<string>).data))
      return new Promise((resolve) => source.addEventListener('open', resolve))
    })
    const cookie = (await context.cookies(nodeA.url)).map((c) => `${c.name}=${c.value}`).join('; ')
    const created = await fetch(`${nodeA.url}/client/v1/auth/userRoleCreate`, {
      method: 'POST',
      headers: { cookie, origin: balancer, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationId: DEMO_ORG_ID, name: 'Scale-out role', resourceType: Scope.Organization, permissions: [] }),
    })
    expect(created.status, await created.clone().text()).toBe(200)
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen.join('\n')), { timeout: 10_000 })
      .toContain('"kind":"role"')
    await context.close()
  }, 60_000)

  it('the ingest partitions are shared out between the two nodes, one active consumer each', async () => {
    // node B registered behind node A on every partition; A hands B its share (heartbeats, ~1 s):
    // usually done by now, so one rabbitmqctl call
    let active = new Map<string, string>()
    await expect.poll(async () => partitionsOf('node-b', (active = await activeConsumers())), { timeout: 90_000, interval: 5000 }).toBe(PARTITIONS / 2)
    expect(active.size).toBe(PARTITIONS)
    expect(partitionsOf('node-a', active)).toBe(PARTITIONS / 2)
  }, 150_000)

  it('a portal session opened on one node reaches an agent tunnelled to the other', async () => {
    // The demo fleet's agents open their tunnels to the relay of the node that answered their
    // getTunnelConfig (their partition's active consumer at the time).
    const tunnels = async () =>
      (await sql(`SELECT t."agentId", t."relayNode", a."clientName" FROM "TunnelConnection" t JOIN "Agent" a ON a."id" = t."agentId" WHERE t."closedAt" IS NULL AND a."organizationId" = '${DEMO_ORG_ID}' ORDER BY a."clientName"`))
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('|'))
    await expect.poll(async () => (await tunnels()).length, { timeout: 90_000, interval: 1000 }).toBeGreaterThan(0)
    const [agentId, , name] = (await tunnels())[0]
    const holder = async () => (await tunnels()).find(([id]) => id === agentId)?.[1]
    const { context, page } = await newPage(browser, balancer)
    await signIn(page, DEMO_USERS.owner.email, DEMO_PASSWORD)
    // The page (and the session it opens) must come from the node NOT holding the tunnel: the
    // balancer's sticky cookie pins this browser to it, behind the balancer's one origin. The agent
    // may move its tunnel when its partition changes hands: only then is the check made again.
    const failures: string[] = []
    let routed = false
    for (let attempt = 0; attempt < 3 && !routed; attempt++) {
      const tunnelNode = await holder()
      const [index, other] = tunnelNode === 'relay-a' ? ['1', nodeB] : ['0', nodeA]
      await context.addCookies([{ name: 'pf_test_node', value: index, url: balancer }])
      await page.goto(`${balancer}/portal/${DEMO_ORG_ID}/${agentId}`)
      expect(new URL((await page.locator('iframe').getAttribute('src'))!).port).toBe(String(other.relayPort))
      const frame = page.frameLocator('iframe')
      const shown = await frame
        .getByRole('heading', { name: `${name} — agent status` })
        .waitFor({ timeout: 30_000 })
        .then(
          () => true,
          async (error: Error) => {
            const text = await frame.locator('body').innerText({ timeout: 2000 }).catch(() => '(no frame body)')
            failures.push(`tunnel on ${tunnelNode}: ${error.message}\nframe: ${text.slice(0, 300)}\n${other.output().slice(-1500)}`)
            return false
          },
        )
      const holderNow = await holder()
      const moved = holderNow !== tunnelNode
      if (moved) failures.push(`the tunnel moved from ${tunnelNode} to ${holderNow} during attempt ${attempt + 1}`)
      // a miss while the tunnel stayed where it was is a real failure, not retried
      else if (!shown) break
      routed = shown && !moved
    }
    expect(routed, failures.join('\n\n')).toBe(true)
    await context.close()
  }, 180_000)

  it('kill -9 of a node mid-ingest loses no acknowledged message; its partitions go to the other node, which carries on', async () => {
    // Agents of this test: register through the provisioning identity, then QoS 1 pings.
    const t0 = Date.now()
    const step = (what: string) => console.log(`[kill test] ${what} after ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    const brokerUrl = rabbit.mqttUrl.replace(/\/\/[^@]+@/, '//')
    const agents: { id: string; client: mqtt.MqttClient }[] = []
    for (let n = 0; n < TEST_AGENTS; n++) {
      const clientId = `scaleout-${process.pid}-${n}`
      const provision = await mqtt.connectAsync(brokerUrl, { clientId, username: 'provision', password: 'pixelfleet-demo-provisioning-key', reconnectPeriod: 0 })
      await provision.subscribeAsync(provisionResponseTopic(clientId), { qos: 1 })
      const registered = new Promise<{ agentId: string; secret: string }>((resolve) => provision.on('message', (_t, payload) => resolve(JSON.parse(payload.toString()).result)))
      await provision.publishAsync(provisionRequestTopic(clientId), JSON.stringify({ product: 'LED Processor', serial: `SCALE-${n}` }), { qos: 1 })
      const { agentId, secret } = await registered
      await provision.endAsync()
      const client = await mqtt.connectAsync(brokerUrl, { clientId: agentId, username: agentId, password: secret, reconnectPeriod: 500 })
      await client.subscribeAsync(agentResponseTopic(agentId, 'ping'), { qos: 1 })
      agents.push({ id: agentId, client })
    }
    step('agents registered')
    let acknowledged = 0
    const metrics = { dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 }
    const sends: Promise<unknown>[] = []
    for (let i = 0; i < PINGS; i++) {
      const agent = agents[i % agents.length]
      sends.push(agent.client.publishAsync(agentRequestTopic(agent.id, 'ping'), JSON.stringify({ requestId: String(i), metrics }), { qos: 1 }).then(() => acknowledged++))
      if (i === PINGS / 3) process.kill(nodeB.pid, 'SIGKILL')
      if (i % 20 === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const progress = setInterval(() => step(`${acknowledged} of ${PINGS} pings acknowledged`), 5000)
    await Promise.all(sends).finally(() => clearInterval(progress))
    expect(acknowledged).toBe(PINGS)
    step('all pings acknowledged')
    // Node B's partitions have node A as their active consumer now (it was the standby on each).
    await expect.poll(async () => partitionsOf('node-a', await activeConsumers()), { timeout: 90_000, interval: 5000 }).toBe(PARTITIONS)
    // Every acknowledged ping is counted, on node B's partitions too: its unacknowledged deliveries
    // and everything queued after its death went to node A.
    const ids = agents.map((a) => `'${a.id}'`).join(',')
    step('node A holds every partition')
    const counted = async () => Number(await sql(`SELECT coalesce(sum("count"), 0) FROM "UsageCounter" WHERE "agentId" IN (${ids}) AND "call" = 'ping'`))
    await expect.poll(counted, { timeout: 60_000, interval: 500 }).toBeGreaterThanOrEqual(PINGS)
    for (const agent of agents) expect(Number(await sql(`SELECT coalesce(sum("count"), 0) FROM "UsageCounter" WHERE "agentId" = '${agent.id}' AND "call" = 'ping'`))).toBeGreaterThanOrEqual(Math.floor(PINGS / TEST_AGENTS))
    await Promise.all(agents.map((a) => a.client.endAsync()))
    // Node A carries on behind the balancer: pages and the fleet's presence still answer.
    const page = await fetch(`${balancer}/login`)
    expect(page.status).toBe(200)
    // (a presence event in flight on the killed node is redelivered to node A: allow it to land)
    await expect.poll(async () => Number(await sql(`SELECT count(*) FROM "Agent" WHERE online AND "organizationId" = '${DEMO_ORG_ID}'`)), { timeout: 30_000, interval: 500 }).toBe(FLEET)
  }, 200_000)
})
