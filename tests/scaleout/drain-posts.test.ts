/**
 * POSTs through nginx while a node drains (SIGTERM, issue #24): two web nodes on one PostgreSQL
 * database behind deploy/nginx's configuration, a steady stream of POSTs (a form action and an API
 * call) through the balancer, node B stopped in the middle. Every POST must get an HTTP answer:
 * served, or 503 with Retry-After (retryable); never a reset connection or nginx's 502/504.
 * The nodes run the embedded broker on ports of their own (no RabbitMQ needed for the web side).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase } from '../setup/test-db'
import { testPostgresUrl } from '../setup/test-postgres'
import { freePort, rabbitmqInstalled, startNginx, startNode, type Node } from './services'

/** POSTs in flight at any time during the drain */
const CONCURRENCY = 8

type Outcome = { kind: 'form' | 'api'; status: number; retryAfter: string | null } | { kind: 'form' | 'api'; error: string }

describe.skipIf(!testPostgresUrl() || !rabbitmqInstalled())('POSTs through nginx to a draining node', () => {
  let tmp: string
  let db: ReturnType<typeof createTestDatabase>
  let nginx: ReturnType<typeof startNginx>
  let balancer: string
  const nodes: Node[] = []

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pf-drain-'))
    const [nginxPort, portA, portB] = [await freePort(), await freePort(), await freePort()]
    balancer = `http://127.0.0.1:${nginxPort}`
    nginx = startNginx(path.join(tmp, 'nginx'), nginxPort, [portA, portB])
    db = createTestDatabase('drain')
    const common = { DATABASE_URL: db.url, TRUST_PROXY: 'loopback', PUBLIC_URL: balancer, MQTT_PORT: '0', LOG_LEVEL: 'warn', SEED_DEMO: 'true', SIMULATOR_AGENTS: '0' }
    // one at a time: the first migrates the database
    nodes.push(await startNode({ ...common, PORT: String(portA), NODE_ID: 'node-a', RELAY_NODE_ID: 'relay-a' }))
    nodes.push(await startNode({ ...common, PORT: String(portB), NODE_ID: 'node-b', RELAY_NODE_ID: 'relay-b' }))
  }, 240_000)

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()))
    nginx?.stop()
    db?.remove()
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  /** One POST through the balancer: the sign-in form's action or an API call (both answer without a session). */
  async function post(kind: 'form' | 'api'): Promise<Outcome> {
    const request =
      kind === 'form'
        ? { url: `${balancer}/login`, body: new URLSearchParams({ email: 'nobody@example.com', password: 'wrong-password' }).toString(), type: 'application/x-www-form-urlencoded' }
        : { url: `${balancer}/client/v1/auth/authorized`, body: '{}', type: 'application/json' }
    try {
      const response = await fetch(request.url, { method: 'POST', body: request.body, headers: { 'content-type': request.type, origin: balancer }, redirect: 'manual', signal: AbortSignal.timeout(60_000) })
      await response.arrayBuffer()
      return { kind, status: response.status, retryAfter: response.headers.get('retry-after') }
    } catch (error) {
      return { kind, error: `${(error as Error).message} ${String((error as { cause?: unknown }).cause ?? '')}` }
    }
  }

  it('every POST is served or answered 503 with Retry-After while node B drains; none is reset', async () => {
    const outcomes: Outcome[] = []
    let running = true
    const workers = Array.from({ length: CONCURRENCY }, async (_, n) => {
      for (let i = n; running; i++) outcomes.push(await post(i % 2 ? 'api' : 'form'))
    })
    // both nodes answer before the drain
    await expect.poll(() => outcomes.length, { timeout: 60_000 }).toBeGreaterThan(CONCURRENCY * 4)
    const before = outcomes.length
    const b = nodes[1]
    process.kill(b.pid, 'SIGTERM')
    await b.exited
    // and a while after it: node A alone
    const after = outcomes.length
    await expect.poll(() => outcomes.length, { timeout: 60_000 }).toBeGreaterThan(after + CONCURRENCY * 4)
    running = false
    await Promise.all(workers)

    const statuses = outcomes.reduce<Record<string, number>>((counts, o) => ({ ...counts, [`${o.kind} ${'status' in o ? o.status : 'error'}`]: (counts[`${o.kind} ${'status' in o ? o.status : 'error'}`] ?? 0) + 1 }), {})
    console.log(`[drain] ${outcomes.length} POSTs, ${before} before SIGTERM: ${JSON.stringify(statuses)}`)
    const failed = outcomes.filter((o) => 'error' in o || o.status === 502 || o.status === 504 || (o.status === 503 && !o.retryAfter))
    expect(failed, `${failed.length} of ${outcomes.length} POSTs failed (${before} before the drain)`).toEqual([])
  }, 300_000)
})
