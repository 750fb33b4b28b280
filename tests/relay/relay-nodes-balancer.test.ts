/**
 * Relay nodes behind a plain round-robin balancer (issue 24): the agent's control tunnel lands on
 * one node, its data connections (`/tunnel/data`) on either. One that reaches the node without the
 * tunnel is forwarded to the holder over the internal route with the shared secret, so none is
 * refused 409 and every one joins the tunnel; browsers through the balancer get pages and the
 * live WebSocket over them. A forwarded data connection still needs the agent's own credentials.
 */
import http from 'node:http'
import net, { type AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { registerAgent } from '../../ingest/agent-gateway.server'
import { createSession } from '~/domain/auth/session.server'
import { prisma } from '~/utils/db.server'
import { RelayClient } from '../../relay/client'
import { startRelay, type Relay } from '../../relay/relay.server'
import { SimulatedSite } from '../../simulator/site'
import { TunnelClient } from '../../simulator/tunnel'
import { INITIAL_DATA_CONNECTIONS } from '../../simulator/tunnel-data'
import { startAgentWebUi, type AgentWebUi } from '../../simulator/web-ui'

const SECRET = 'test-secret-shared-by-the-relay-nodes-0123'
let nodes: Relay[]
let balancer: net.Server
let balancerPort: number
/** Which node the balancer sent each connection to, with its request line. */
const routed: { node: number; line: string }[] = []
let agentId: string
let secret: string
let token: string
let web: AgentWebUi
let tunnel: TunnelClient

async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (ok(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** A TCP balancer: each new connection to the next node in turn, bytes passed through untouched. */
function roundRobin(ports: number[]) {
  let next = 0
  return net.createServer((client) => {
    const node = next++ % ports.length
    const upstream = net.connect({ host: '127.0.0.1', port: ports[node] })
    client.once('data', (first: Buffer) => {
      routed.push({ node, line: first.toString('latin1').split('\r\n')[0] })
      upstream.write(first)
      client.pipe(upstream)
    })
    upstream.pipe(client)
    const close = () => {
      client.destroy()
      upstream.destroy()
    }
    client.on('error', close).on('close', close)
    upstream.on('error', close).on('close', close)
  })
}

/** The status of a data-connection upgrade through the balancer. */
function dataUpgrade(credentials: string, tunnelId: string) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(`http://127.0.0.1:${balancerPort}/tunnel/data?tunnel=${encodeURIComponent(tunnelId)}`, {
      headers: { Connection: 'Upgrade', Upgrade: 'pixelfleet-data', Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
      agent: false,
    })
    request.on('upgrade', (_res, socket) => {
      socket.destroy()
      resolve(101)
    })
    request.on('response', (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    request.on('error', reject)
    request.end()
  })
}

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@balancer.test', name: 'Owner', emailVerified: true } })
  const orgId = (await prisma.organization.create({ data: { name: 'Balancer Org', ownerId: owner.id } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, owner.id, orgId)
  })
  token = (await createSession(owner.id, { ip: '127.0.0.1', userAgent: 'test' })).token
  nodes = [await startRelay({ port: 0, host: '127.0.0.1', node: { id: 'node-a', secret: SECRET } }), await startRelay({ port: 0, host: '127.0.0.1', node: { id: 'node-b', secret: SECRET } })]
  balancer = roundRobin(nodes.map((n) => n.port))
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve))
  balancerPort = (balancer.address() as AddressInfo).port
  const site = new SimulatedSite({ seed: 9, index: 0, scenario: 'healthy' })
  site.tick(new Date())
  const registered = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, { ip: '127.0.0.1', receivedAt: new Date() })
  agentId = registered.agentId
  secret = registered.secret
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId } })
  web = await startAgentWebUi(site, () => agentId)
  tunnel = new TunnelClient({ relayUrl: `http://127.0.0.1:${balancerPort}`, agentId, secret, localPort: web.port })
  await tunnel.start()
}, 120_000)

afterAll(async () => {
  await tunnel?.close()
  await web?.close()
  for (const node of nodes ?? []) await node.close()
  balancer?.close()
})

describe('relay nodes behind a round-robin balancer', () => {
  it("joins data connections that reached the wrong node to the holder's tunnel, and serves pages and WebSockets over them", async () => {
    const holder = await until(() => nodes.findIndex((n) => n.hasTunnel(agentId)), (i) => i >= 0)
    expect(holder).toBeGreaterThanOrEqual(0)
    // every data connection the agent opened joined the tunnel on the holder, whichever node it reached
    expect(await until(() => nodes[holder].dataConnections(agentId) ?? 0, (n) => n >= INITIAL_DATA_CONNECTIONS)).toBeGreaterThanOrEqual(INITIAL_DATA_CONNECTIONS)
    const data = routed.filter((r) => r.line.startsWith('GET /tunnel/data'))
    expect(data.filter((r) => r.node !== holder).length).toBeGreaterThan(0)

    // a browser through the balancer: pages and the live WebSocket over data connections, not HTTP/2 streams
    const response = await fetch(`http://127.0.0.1:${balancerPort}/login`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ agentId }) })
    const { data: opened } = (await response.json()) as { data: { origin: string; address: string } }
    const client = new RelayClient({ host: '127.0.0.1', port: balancerPort })
    expect((await client.redeem(opened.address)).status).toBe(200)
    for (let i = 0; i < 6; i++) expect((await client.get(`${opened.origin}/status.json`)).status).toBe(200)
    const host = new URL(opened.origin).host
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const ws = new WebSocket(`ws://127.0.0.1:${balancerPort}/live`, { headers: { Host: host, Cookie: cookie, Origin: `http://${host}` } })
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (message) => resolve(String(message)))
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
      ws.once('error', reject)
    })
    expect((JSON.parse(first) as { name: string }).name).toBeTruthy()
    ws.close()
    expect(tunnel.h2Requests).toBe(0)
  })

  it('refuses a data connection with wrong credentials or another tunnel id on either node', async () => {
    const tunnelId = (tunnel.data as unknown as { tunnelId: string }).tunnelId
    for (let i = 0; i < 2; i++) {
      expect(await dataUpgrade(`${agentId}:wrong-secret`, tunnelId)).toBe(401)
      expect(await dataUpgrade(`${agentId}:${secret}`, 'not-the-tunnel-id')).toBe(409)
    }
  })
})
