/**
 * The remote portal through the relay, in-process: a simulated agent's tunnel client connects to
 * the relay (port 0) with its own credentials; a person with connect permission gets a one-time
 * address on the session's own origin from /login, redeems it once (cookie) and reads the agent's
 * status page; everyone else, other hosts and addresses naming another agent are refused; tunnel
 * rows and state follow the tunnel. Session binding and ending: tests/relay/relay-sessions.test.ts.
 */
import http from 'node:http'
import http2 from 'node:http2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { registerAgent } from '../../ingest/agent-gateway.server'
import { createSession } from '~/domain/auth/session.server'
import { sessionCookie } from '~/utils/auth.server'
import { NO_PROJECT } from '~/domain/relay/proxy-address'
import { TUNNEL_CLOSED_MESSAGE } from '~/domain/relay/tunnels.server'
import { prisma } from '~/utils/db.server'
import { eventually } from './eventually'
import { RelayClient } from '../../relay/client'
import { NO_TUNNEL_MESSAGE, startRelay, type Relay } from '../../relay/relay.server'
import { SimulatedSite } from '../../simulator/site'
import { RemoteConnect } from '../../simulator/tunnel'
import { tunnelStream } from '../../relay/tunnel-stream'

let relay: Relay
let base: string
let orgId: string
let stageId: string
const tokens: Record<'owner' | 'manager' | 'viewer' | 'outsider', string> = { owner: '', manager: '', viewer: '', outsider: '' }
type TestAgent = { agentId: string; secret: string; site: SimulatedSite; remote: RemoteConnect }
let agent: TestAgent
let otherAgent: TestAgent

const CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'

async function createAgent(index: number, projectId: string): Promise<TestAgent> {
  const site = new SimulatedSite({ seed: 7, index, scenario: 'tempHigh' })
  site.tick(new Date())
  const meta = { ip: '127.0.0.1', receivedAt: new Date() }
  const { agentId, secret } = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, meta)
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId, defaultProjectId: projectId, lastSeen: new Date() } })
  await prisma.system.create({ data: { agentId, key: 'sys-1', name: 'Wall', projectId } })
  return { agentId, secret, site, remote: new RemoteConnect(site) }
}

const connectTunnel = async (a: TestAgent) => {
  await a.remote.update({ enabled: true, relayUrl: base, remoteConnect: true, agentId: a.agentId, secret: a.secret })
  await a.remote.waitUntilOpen()
}

const login = (token: string | null, body: object, headers: Record<string, string> = {}) =>
  fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'User-Agent': CHROME_UA, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify(body),
  })

type OpenedSession = { authCheck: string; origin: string; address: string; product: string; projectId: string | null }

async function authCheckFor(token: string, agentId: string, projectId?: string): Promise<OpenedSession> {
  const response = await login(token, { agentId, projectId })
  expect(response.status).toBe(200)
  const body = (await response.json()) as { data: OpenedSession }
  return body.data
}

/** A fresh client (one browser's cookie jar) talking to the relay whatever the session host name resolves to. */
const browserClient = () => new RelayClient({ host: '127.0.0.1', port: relay.port })

beforeAll(async () => {
  const mk = (key: string) => prisma.user.create({ data: { email: `${key}@relay.test`, name: key, emailVerified: true } })
  const [owner, manager, viewer, outsider] = await Promise.all([mk('owner'), mk('manager'), mk('viewer'), mk('outsider')])
  orgId = (await prisma.organization.create({ data: { name: 'Relay Org', ownerId: owner.id } })).id
  const otherOrg = await prisma.organization.create({ data: { name: 'Elsewhere', ownerId: outsider.id } })
  stageId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  const backstageId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Backstage' } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    // project.agents.connect on Stage only
    await tx.accessRight.create({ data: { userId: manager.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: orgId, projectId: stageId } })
    await tx.accessRight.create({ data: { userId: viewer.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId: stageId } })
    await tx.accessRight.create({ data: { userId: outsider.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: otherOrg.id } })
    for (const u of [owner, manager, viewer]) await compileUserAcls(tx, u.id, orgId)
    await compileUserAcls(tx, outsider.id, otherOrg.id)
  })
  const info = { ip: '127.0.0.1', userAgent: 'test' }
  tokens.owner = (await createSession(owner.id, info)).token
  tokens.manager = (await createSession(manager.id, info)).token
  tokens.viewer = (await createSession(viewer.id, info)).token
  tokens.outsider = (await createSession(outsider.id, info)).token

  relay = await startRelay({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${relay.port}`
  agent = await createAgent(0, stageId)
  otherAgent = await createAgent(1, backstageId)
  await connectTunnel(agent)
  await connectTunnel(otherAgent)
})

afterAll(async () => {
  await agent?.remote.stop()
  await otherAgent?.remote.stop()
  await relay?.close()
})

describe('relay', () => {
  it('lets a user with project.agents.connect read the agent status page on the session origin', async () => {
    const session = await authCheckFor(tokens.manager, agent.agentId)
    // granted through the Stage project, which the address names
    expect(session.projectId).toBe(stageId)
    // its own origin: {label}.{RELAY_DOMAIN}, never the relay's or the portal's host name
    expect(session.origin).toMatch(/^http:\/\/[a-z2-7]{26}\.localhost$/)
    expect(session.address.startsWith(`${session.origin}/session/${session.authCheck}/`)).toBe(true)
    const client = browserClient()
    const page = await client.redeem(session.address)
    expect(page.status).toBe(200)
    expect(page.body).toContain(`${agent.site.name} — agent status`)
    expect(page.body).toContain(agent.site.systemsSnapshot()[0].name)
    // an active alert of the tempHigh scenario is listed on the page
    expect(page.body).toMatch(/Critical|Error|Warning/)
    // only the portal may frame it
    expect(String(page.headers['content-security-policy'])).toContain('frame-ancestors http://portal.test')

    // the status JSON at the session origin's root, and the session row shows the visit
    const json = JSON.parse((await client.get(`${session.origin}/status.json`)).body) as { serial: string }
    expect(json.serial).toBe(agent.site.serial)
    const row = await eventually(
      () => prisma.proxySession.findFirstOrThrow({ where: { agentId: agent.agentId, userEmail: 'manager@relay.test' } }),
      (r) => r.lastPath === '/status.json' && r.connectionsActive === 0,
    )
    expect(row).toMatchObject({ lastPath: '/status.json', browserName: 'Chrome', osName: 'Linux', clientIp: '127.0.0.1', connectionsActive: 0 })
    expect(row.browserVersion).toMatch(/^126/)
    expect(row.expiresAt.getTime()).toBeGreaterThan(Date.now())
  })

  it('gives the API answer shape { data: { authCheck } } and redirects the first address once, with the binding cookie', async () => {
    const response = await login(tokens.owner, { agentId: agent.agentId })
    const body = (await response.json()) as { data: OpenedSession }
    expect(body.data.authCheck).toMatch(/^[\w-]{20,}$/)
    // organization-wide connect: the address carries no project
    expect(body.data.projectId).toBeNull()
    const bare = body.data.address.replace(/\/$/, '')
    expect(bare.endsWith(`/${NO_PROJECT}`)).toBe(true)
    const first = await browserClient().get(bare)
    expect(first.status).toBe(303)
    expect(first.headers.location).toBe('/')
    expect(String(first.headers['set-cookie'])).toMatch(/^pf_relay=[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; Secure; SameSite=None; Partitioned$/)
    expect(first.headers['x-content-type-options']).toBe('nosniff')
  })

  it('refuses people without the connect permission, other organizations, anonymous callers and portal cookies', async () => {
    const viewer = await login(tokens.viewer, { agentId: agent.agentId })
    expect(viewer.status).toBe(403)
    const outsider = await login(tokens.outsider, { agentId: agent.agentId })
    expect(outsider.status).toBe(403)
    const anonymous = await login(null, { agentId: agent.agentId })
    expect(anonymous.status).toBe(401)
    // a portal cookie reaching the relay's base host (same host name in development) is not a credential
    const cookie = (await sessionCookie.serialize(tokens.owner)).split(';')[0]
    expect((await login(null, { agentId: agent.agentId }, { Cookie: cookie })).status).toBe(401)
    // the manager's grant is on Stage; the other agent reports to Backstage
    const elsewhere = await login(tokens.manager, { agentId: otherAgent.agentId })
    expect(elsewhere.status).toBe(403)
    // a foreign page may not use a signed-in browser to log in
    const crossSite = await login(tokens.manager, { agentId: agent.agentId }, { Origin: 'http://evil.example' })
    expect(crossSite.status).toBe(403)
    expect(await prisma.proxySession.count({ where: { userEmail: { in: ['viewer@relay.test', 'outsider@relay.test'] } } })).toBe(0)
  })

  it('refuses hosts that name no live session, addresses naming another agent, and service-worker scripts', async () => {
    const session = await authCheckFor(tokens.owner, agent.agentId)
    const path = new URL(session.address).pathname
    const client = browserClient()
    // the relay's own host name (and any other) serves no agent content, not even with a valid address
    expect((await client.get(`http://localhost${path}`)).status).toBe(404)
    expect((await client.get(`http://127.0.0.1${path}`)).status).toBe(404)
    expect((await client.get(`http://abcdefghijklmnopqrstuvwxyz.localhost${path}`)).status).toBe(404)
    // the address must name the session's agent
    const wrongAgent = await client.get(session.address.replace(`/${agent.agentId}/`, `/${otherAgent.agentId}/`))
    expect(wrongAgent.status).toBe(403)
    expect(wrongAgent.body).toContain('another agent')
    expect((await client.redeem(session.address)).status).toBe(200)
    const worker = await client.get(`${session.origin}/sw.js`, { 'Service-Worker': 'script' })
    expect(worker.status).toBe(403)
    expect(worker.body).toContain('Service workers are not allowed')
    // no tunnel upgrade on a session origin
    const upgrade = await client.get(`${session.origin}/tunnel`, { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' }).catch(() => ({ status: 0 }))
    expect(upgrade.status).not.toBe(101)
  })

  it('records the tunnel and the agent tunnel state, and fails requests cleanly once the tunnel closes', async () => {
    const open = await prisma.tunnelConnection.findFirstOrThrow({ where: { agentId: otherAgent.agentId, closedAt: null } })
    expect(open.address).toBe('127.0.0.1')
    expect(open.port).toBeGreaterThan(0)
    expect(open.relayNode).toMatch(new RegExp(`:${relay.port}$`))
    expect(Object.values(JSON.parse(open.forwards) as Record<string, { connectionsActive: number }>)).toEqual([{ connectionsActive: 0 }])
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: otherAgent.agentId } })).tunnelStatus).toBe('true')
    expect(relay.hasTunnel(otherAgent.agentId)).toBe(true)

    const session = await authCheckFor(tokens.owner, otherAgent.agentId)
    const client = browserClient()
    expect((await client.redeem(session.address)).status).toBe(200)
    await otherAgent.remote.stop()
    const agentRow = await eventually(
      () => prisma.agent.findUniqueOrThrow({ where: { id: otherAgent.agentId } }),
      (a) => a.tunnelStatus !== 'true',
    )
    expect(agentRow.tunnelStatus).toBe(TUNNEL_CLOSED_MESSAGE)
    expect((await prisma.tunnelConnection.findUniqueOrThrow({ where: { id: open.id } })).closedAt).not.toBeNull()

    const response = await client.get(`${session.origin}/`)
    expect(response.status).toBe(502)
    expect(response.body).toBe(NO_TUNNEL_MESSAGE)

    // the agent comes back: a new tunnel row, state connected again, pages served again
    await connectTunnel(otherAgent)
    await eventually(
      () => prisma.agent.findUniqueOrThrow({ where: { id: otherAgent.agentId } }),
      (a) => a.tunnelStatus === 'true',
    )
    expect(await prisma.tunnelConnection.count({ where: { agentId: otherAgent.agentId, closedAt: null } })).toBe(1)
    expect((await client.get(`${session.origin}/`)).status).toBe(200)
  })

  it('refuses a tunnel with a wrong secret', async () => {
    const { TunnelClient } = await import('../../simulator/tunnel')
    const impostor = new TunnelClient({ relayUrl: base, agentId: agent.agentId, secret: 'wrong-secret', localPort: 1, retryMs: 60_000 })
    void impostor.start()
    await eventually(async () => impostor.state, (s) => s !== 'Connecting to the relay')
    expect(impostor.state).toBe('The relay refused the agent credentials')
    await impostor.close()
    // the genuine tunnel is untouched
    expect(relay.hasTunnel(agent.agentId)).toBe(true)
  })

  it('carries HTTP/2 on the upgraded connection, streams large downloads whole, and still serves an agent on the older WebSocket tunnel', async () => {
    expect(relay.tunnelTransport(agent.agentId)).toBe('raw')
    const session = await authCheckFor(tokens.owner, agent.agentId)
    const client = browserClient()
    expect((await client.redeem(session.address)).status).toBe(200)
    // a small answer (sent whole) and a 3 MiB download (streamed), byte for byte
    const status = await client.get(`${session.origin}/status.json`)
    expect(status.status).toBe(200)
    expect(Number(status.headers['content-length'])).toBe(Buffer.byteLength(status.body))
    const bundle = await client.get(`${session.origin}/support-bundle.bin?mb=3`)
    expect(bundle.status).toBe(200)
    expect(bundle.body.length).toBe(3 * 1024 * 1024)
    expect(/^Z+$/.test(bundle.body)).toBe(true)
    // an unknown upgrade token on /tunnel is refused before any credential check
    const odd = await rawUpgrade('pixelfleet-other', `${agent.agentId}:${agent.secret}`)
    expect(odd).toBe(400)
    expect(await rawUpgrade('pixelfleet-tunnel', `${agent.agentId}:wrong`)).toBe(401)

    // An agent released before the raw tunnel: HTTP/2 over the WebSocket's messages.
    const legacy = await createAgent(2, stageId)
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/tunnel?port=1`, { headers: { Authorization: `Basic ${Buffer.from(`${legacy.agentId}:${legacy.secret}`).toString('base64')}` }, perMessageDeflate: false })
    const server = http2.createServer()
    server.on('stream', (stream) => {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' })
      stream.end('served by an older agent')
    })
    const stream = tunnelStream(ws)
    stream.on('error', () => undefined)
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
    server.emit('connection', stream)
    await eventually(async () => relay.tunnelTransport(legacy.agentId), (t) => t === 'websocket')
    const legacySession = await authCheckFor(tokens.owner, legacy.agentId)
    const legacyClient = browserClient()
    const page = await legacyClient.redeem(legacySession.address)
    expect(page.status).toBe(200)
    expect(page.body).toBe('served by an older agent')
    ws.terminate()
    server.close()
  })

  it('keeps one tunnel through thousands of requests and browsers that leave mid-answer', async () => {
    const session = await authCheckFor(tokens.owner, agent.agentId)
    const pool = new http.Agent({ keepAlive: true, maxSockets: 16 })
    const client = new RelayClient({ host: '127.0.0.1', port: relay.port }, pool)
    expect((await client.redeem(session.address)).status).toBe(200)
    // Finished streams must not be reset: the agent's HTTP/2 rapid-reset guard ends a session after ~1,000 resets.
    const statuses: number[] = []
    const worker = async () => {
      for (let i = 0; i < 100; i++) statuses.push((await client.get(`${session.origin}/status.json`)).status)
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    // Browsers that hang up during a download: the agent and the relay carry on.
    const origin = new URL(session.origin)
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    await Promise.all(
      Array.from({ length: 8 }, () => new Promise<void>((resolve) => {
        const request = http.get({ host: '127.0.0.1', port: relay.port, path: '/support-bundle.bin?mb=8', headers: { host: origin.host, cookie } }, (res) => {
          res.once('data', () => {
            request.destroy()
            resolve()
          })
        })
        request.on('error', () => resolve())
      })),
    )
    const after = await client.get(`${session.origin}/status.json`)
    expect(after.status).toBe(200)
    expect(relay.tunnelTransport(agent.agentId)).toBe('raw')
    pool.destroy()
  })
})

/** Answers the status of a tunnel upgrade with the given token and Basic credentials. */
function rawUpgrade(token: string, credentials: string) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(`${base}/tunnel?port=1`, { headers: { Connection: 'Upgrade', Upgrade: token, Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }, agent: false })
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
