/**
 * Relay across nodes and agent WebSockets through the relay: two relay nodes share one database;
 * the agent's tunnel is on node A, a browser session redeemed through node B gets the agent's page
 * and its live WebSocket (through A over the internal channel). The internal channel refuses
 * callers without the shared secret, a cross-site page cannot open the session's WebSocket, and a
 * node whose heartbeat expired gets no traffic and has its tunnels closed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { registerAgent } from '../../ingest/agent-gateway.server'
import { createSession } from '~/domain/auth/session.server'
import { closeDeadNodes, NODE_EXPIRY_MS } from '~/domain/relay/nodes.server'
import { TUNNEL_CLOSED_MESSAGE } from '~/domain/relay/tunnels.server'
import { prisma } from '~/utils/db.server'
import { RelayClient } from '../../relay/client'
import { NO_TUNNEL_MESSAGE, startRelay, type Relay } from '../../relay/relay.server'
import { SimulatedSite } from '../../simulator/site'
import { RemoteConnect } from '../../simulator/tunnel'

const SECRET = 'test-secret-shared-by-the-relay-nodes-0123'
let nodeA: Relay
let nodeB: Relay
let orgId: string
let token: string
let agentId: string
let site: SimulatedSite
let remote: RemoteConnect

/** Opens a session on `agent` and redeems it through `relay` (as a browser reaching that node). */
async function openThrough(relay: Relay, agent: string) {
  const base = `http://127.0.0.1:${relay.port}`
  const response = await fetch(`${base}/login`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ agentId: agent }) })
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: { origin: string; address: string } }
  const client = new RelayClient({ host: '127.0.0.1', port: relay.port })
  const first = await client.redeem(data.address)
  const host = new URL(data.origin).host
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return { first, client, origin: data.origin, host, cookie }
}

type Live = { ws: WebSocket; messages: string[]; next: (test: (text: string) => boolean) => Promise<string> }

/** A WebSocket to the agent's /live through `relay`, collecting what it receives. */
function live(relay: Relay, session: { host: string; cookie: string }, origin = `http://${session.host}`): Promise<Live> {
  const ws = new WebSocket(`ws://127.0.0.1:${relay.port}/live`, { headers: { Host: session.host, Cookie: session.cookie, Origin: origin } })
  const messages: string[] = []
  const waiting: { test: (text: string) => boolean; resolve: (text: string) => void }[] = []
  ws.on('message', (data) => {
    const text = String(data)
    messages.push(text)
    for (const w of [...waiting]) {
      if (!w.test(text)) continue
      waiting.splice(waiting.indexOf(w), 1)
      w.resolve(text)
    }
  })
  const next = (test: (text: string) => boolean) => {
    const seen = messages.find(test)
    if (seen) return Promise.resolve(seen)
    return new Promise<string>((resolve) => waiting.push({ test, resolve }))
  }
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, messages, next }))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@nodes.test', name: 'Owner', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Nodes Org', ownerId: owner.id } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, owner.id, orgId)
  })
  token = (await createSession(owner.id, { ip: '127.0.0.1', userAgent: 'test' })).token
  nodeA = await startRelay({ port: 0, host: '127.0.0.1', node: { id: 'node-a', secret: SECRET } })
  nodeB = await startRelay({ port: 0, host: '127.0.0.1', node: { id: 'node-b', secret: SECRET } })
  site = new SimulatedSite({ seed: 5, index: 0, scenario: 'healthy' })
  site.tick(new Date())
  const registered = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, { ip: '127.0.0.1', receivedAt: new Date() })
  agentId = registered.agentId
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId } })
  remote = new RemoteConnect(site)
  await remote.update({ enabled: true, relayUrl: `http://127.0.0.1:${nodeA.port}`, remoteConnect: true, agentId, secret: registered.secret })
  await remote.waitUntilOpen()
  // The tunnel row (written off the request path) names node A.
  for (let i = 0; i < 100 && !(await prisma.tunnelConnection.count({ where: { agentId, closedAt: null, relayNode: 'node-a' } })); i++) await new Promise((r) => setTimeout(r, 50))
})

afterAll(async () => {
  await remote?.stop()
  await nodeA?.close()
  await nodeB?.close()
})

describe('relay across nodes', () => {
  it('serves the agent page and its live WebSocket on the node holding the tunnel', async () => {
    const session = await openThrough(nodeA, agentId)
    expect(session.first.status).toBe(200)
    expect(session.first.body).toContain(`${site.name} — agent status`)
    const socket = await live(nodeA, session)
    const snapshot = JSON.parse(await socket.next((t) => t.startsWith('{'))) as { name: string; systems: unknown[] }
    expect(snapshot.name).toBe(site.name)
    socket.ws.send('ping-a')
    expect(await socket.next((t) => t === 'echo:ping-a')).toBe('echo:ping-a')
    // the open WebSocket counts as an active connection of the session
    const label = session.host.split('.')[0]
    await expect.poll(() => prisma.proxySession.findFirstOrThrow({ where: { hostLabel: label } }).then((r) => r.connectionsActive), { interval: 50 }).toBe(1)
    socket.ws.close()
  })

  it('reaches the agent tunnelled to node A from a session opened on node B, page and WebSocket', async () => {
    expect(nodeB.hasTunnel(agentId)).toBe(false)
    const session = await openThrough(nodeB, agentId)
    expect(session.first.status).toBe(200)
    expect(session.first.body).toContain(`${site.name} — agent status`)
    // the relay's frame rule and cookie confinement still apply to what node B passes on
    expect(String(session.first.headers['content-security-policy'])).toContain('frame-ancestors')
    const json = JSON.parse((await session.client.get(`${session.origin}/status.json`)).body) as { serial: string }
    expect(json.serial).toBe(site.serial)

    const socket = await live(nodeB, session)
    expect((JSON.parse(await socket.next((t) => t.startsWith('{'))) as { name: string }).name).toBe(site.name)
    socket.ws.send('ping-b')
    expect(await socket.next((t) => t === 'echo:ping-b')).toBe('echo:ping-b')
    // the agent pushes live updates every second: one more arrives through both nodes
    const pushed = socket.messages.filter((t) => t.startsWith('{')).length
    await expect.poll(() => socket.messages.filter((t) => t.startsWith('{')).length, { timeout: 4000, interval: 100 }).toBeGreaterThan(pushed)
    socket.ws.close()

    // still the session's own cookie: another browser (no cookie) is refused on node B too
    const stranger = new RelayClient({ host: '127.0.0.1', port: nodeB.port })
    expect((await stranger.get(`${session.origin}/status.json`)).status).toBe(401)
  })

  it('refuses a cross-site WebSocket and internal calls without the shared secret', async () => {
    const session = await openThrough(nodeB, agentId)
    await expect(live(nodeB, session, 'http://evil.example')).rejects.toThrow('HTTP 403')
    for (const secret of ['wrong', SECRET.slice(0, -1) + 'x']) {
      const answer = await fetch(`http://127.0.0.1:${nodeA.port}/status.json`, { headers: { 'x-pf-relay-secret': secret, 'x-pf-relay-agent': agentId } })
      expect(answer.status).toBe(403)
    }
    await expect(
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${nodeA.port}/live`, { headers: { 'x-pf-relay-secret': 'wrong', 'x-pf-relay-agent': agentId } })
        ws.once('open', resolve)
        ws.once('unexpected-response', (_q, r) => reject(new Error(`HTTP ${r.statusCode}`)))
      }),
    ).rejects.toThrow('HTTP 403')
  })

  it('sends no traffic to a node whose heartbeat expired, and closes its tunnels', async () => {
    // An agent whose tunnel row names a node that stopped sending heartbeats (crashed).
    const other = new SimulatedSite({ seed: 5, index: 1, scenario: 'healthy' })
    const registered = await registerAgent({ product: other.product, serial: other.serial, version: other.version, name: other.name }, { ip: '127.0.0.1', receivedAt: new Date() })
    await prisma.agent.update({ where: { id: registered.agentId }, data: { organizationId: orgId, tunnelStatus: 'true' } })
    const longAgo = new Date(Date.now() - NODE_EXPIRY_MS - 1000)
    await prisma.relayNode.create({ data: { id: 'node-dead', internalUrl: 'http://127.0.0.1:9', heartbeatAt: longAgo } })
    await prisma.tunnelConnection.create({ data: { agentId: registered.agentId, address: '127.0.0.1', port: 1, relayNode: 'node-dead' } })
    const session = await openThrough(nodeB, registered.agentId)
    expect(session.first.status).toBe(502)
    expect(session.first.body).toBe(NO_TUNNEL_MESSAGE)

    // The live nodes' own heartbeat (every NODE_HEARTBEAT_MS) may have closed it a moment earlier.
    expect((await closeDeadNodes()).filter((id) => id !== 'node-dead')).toEqual([])
    expect(await prisma.tunnelConnection.count({ where: { agentId: registered.agentId, closedAt: null } })).toBe(0)
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: registered.agentId } })).tunnelStatus).toBe(TUNNEL_CLOSED_MESSAGE)
    expect(await prisma.relayNode.findUnique({ where: { id: 'node-dead' } })).toBeNull()
    // the live nodes keep their registrations
    expect((await prisma.relayNode.findMany({ orderBy: { id: 'asc' } })).map((n) => n.id)).toEqual(['node-a', 'node-b'])
  })
})
