/**
 * Relay nodes through a database blip (issue 24, docs/decisions/031-relay-heartbeat-after-database-blip.md):
 * two nodes on one database, the agent's tunnel on node A. Heartbeat writes fail (through the
 * relay's heartbeat seam) for longer than the expiry; the tunnel keeps serving pages, node B does
 * not close node A's tunnel when the database comes back, and a node that was judged dead while
 * only its own writes failed re-asserts its tunnel rows and the agent's tunnel state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { registerAgent } from '../../ingest/agent-gateway.server'
import { createSession } from '~/domain/auth/session.server'
import { heartbeatRelayNode } from '~/domain/relay/nodes.server'
import { TUNNEL_CLOSED_MESSAGE } from '~/domain/relay/tunnels.server'
import { prisma } from '~/utils/db.server'
import { RelayClient } from '../../relay/client'
import { startRelay, type Relay } from '../../relay/relay.server'
import { SimulatedSite } from '../../simulator/site'
import { RemoteConnect } from '../../simulator/tunnel'

const SECRET = 'test-secret-shared-by-the-relay-nodes-0123'
/** Short, so the test waits seconds, not minutes; still many heartbeats per expiry at load 20. */
const TIMING = { heartbeatMs: 400, expiryMs: 4000 }
/** Nodes whose heartbeat writes fail, as if the database were unreachable for them. */
const failing = new Set<string>()
const logs: Record<string, string[]> = { 'node-a': [], 'node-b': [] }
let nodeA: Relay
let nodeB: Relay
let token: string
let agentId: string
let site: SimulatedSite
let remote: RemoteConnect

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (ok(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const startNode = (id: string) =>
  startRelay({
    port: 0,
    host: '127.0.0.1',
    node: { id, secret: SECRET },
    nodeTiming: TIMING,
    nodeHeartbeat: (nodeId, url, now) => (failing.has(nodeId) ? Promise.reject(new Error('database unreachable (test)')) : heartbeatRelayNode(nodeId, url, now)),
    log: (line) => logs[id].push(line),
  })

async function openThrough(relay: Relay) {
  const response = await fetch(`http://127.0.0.1:${relay.port}/login`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ agentId }) })
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: { origin: string; address: string } }
  const client = new RelayClient({ host: '127.0.0.1', port: relay.port })
  expect((await client.redeem(data.address)).status).toBe(200)
  return { page: () => client.get(`${data.origin}/status.json`) }
}

const heartbeatAge = async (id: string) => {
  const node = await prisma.relayNode.findUnique({ where: { id } })
  return node ? Date.now() - node.heartbeatAt.getTime() : Infinity
}
const openRows = () => prisma.tunnelConnection.count({ where: { agentId, closedAt: null, relayNode: 'node-a' } })
const tunnelStatus = async () => (await prisma.agent.findUniqueOrThrow({ where: { id: agentId } })).tunnelStatus

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@node-faults.test', name: 'Owner', emailVerified: true } })
  const orgId = (await prisma.organization.create({ data: { name: 'Node Faults Org', ownerId: owner.id } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, owner.id, orgId)
  })
  token = (await createSession(owner.id, { ip: '127.0.0.1', userAgent: 'test' })).token
  nodeA = await startNode('node-a')
  nodeB = await startNode('node-b')
  site = new SimulatedSite({ seed: 7, index: 0, scenario: 'healthy' })
  site.tick(new Date())
  const registered = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, { ip: '127.0.0.1', receivedAt: new Date() })
  agentId = registered.agentId
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId } })
  remote = new RemoteConnect(site)
  await remote.update({ enabled: true, relayUrl: `http://127.0.0.1:${nodeA.port}`, remoteConnect: true, agentId, secret: registered.secret })
  await remote.waitUntilOpen()
  expect(await until(openRows, (n) => n === 1)).toBe(1)
}, 120_000)

afterAll(async () => {
  failing.clear()
  await remote?.stop()
  await nodeA?.close()
  await nodeB?.close()
})

describe('relay nodes through a database blip', () => {
  it('keeps the tunnel when every heartbeat failed for longer than the expiry', async () => {
    const throughA = await openThrough(nodeA)
    const throughB = await openThrough(nodeB)
    failing.add('node-a').add('node-b')
    // Both heartbeats are now older than the expiry: each node looks dead to the other.
    await until(() => Promise.all([heartbeatAge('node-a'), heartbeatAge('node-b')]), (ages) => ages.every((age) => age > TIMING.expiryMs + 500))
    expect((await throughA.page()).status).toBe(200) // the tunnel itself never stopped working
    // The database comes back for node B first; node A's writes follow a heartbeat later.
    failing.delete('node-b')
    await until(() => heartbeatAge('node-b'), (age) => age < TIMING.expiryMs)
    failing.delete('node-a')
    await until(() => heartbeatAge('node-a'), (age) => age < TIMING.expiryMs)
    // B has judged nodes again for a while (its heartbeats succeeded for longer than the expiry).
    await new Promise((resolve) => setTimeout(resolve, TIMING.expiryMs + 4 * TIMING.heartbeatMs))
    expect(logs['node-b'].filter((line) => line.includes('stopped sending heartbeats'))).toEqual([])
    expect(logs['node-a'].filter((line) => line.includes('judged dead'))).toEqual([])
    expect(await openRows()).toBe(1)
    expect(await tunnelStatus()).toBe('true')
    expect((await throughA.page()).status).toBe(200)
    expect((await until(throughB.page, (answer) => answer.status === 200)).status).toBe(200)
  })

  it('re-asserts the tunnel of a node judged dead while only its own writes failed', async () => {
    const throughB = await openThrough(nodeB)
    failing.add('node-a')
    // Node B, healthy all along, judges node A dead and closes its tunnel rows.
    expect(await until(openRows, (n) => n === 0)).toBe(0)
    expect(await tunnelStatus()).toBe(TUNNEL_CLOSED_MESSAGE)
    expect(nodeA.hasTunnel(agentId)).toBe(true)
    // Node A's writes succeed again: it finds itself forgotten and says again which tunnels it holds.
    failing.delete('node-a')
    expect(await until(openRows, (n) => n === 1)).toBe(1)
    expect(await until(tunnelStatus, (status) => status === 'true')).toBe('true')
    expect(logs['node-a'].some((line) => line.includes('judged dead') && line.includes('1 tunnel record re-asserted'))).toBe(true)
    expect((await until(throughB.page, (answer) => answer.status === 200)).status).toBe(200)
  })
})
