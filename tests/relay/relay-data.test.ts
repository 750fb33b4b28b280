/**
 * Data connections (docs/decisions/013-relay-data-connections.md): an agent that announces them
 * gets its pages, downloads and WebSockets carried as plain HTTP/1.1 over its pooled upgraded
 * connections, not as HTTP/2 streams; an agent without them still works over HTTP/2; a data
 * connection needs the agent's own credentials and its current tunnel's id.
 */
import http from 'node:http'
import { createHash, randomBytes } from 'node:crypto'
import { type AddressInfo, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { registerAgent } from '../../ingest/agent-gateway.server'
import { createSession } from '~/domain/auth/session.server'
import { prisma } from '~/utils/db.server'
import { eventually } from './eventually'
import { RelayClient } from '../../relay/client'
import { startRelay, type Relay } from '../../relay/relay.server'
import { choosePump, pumpStats, type PumpMode } from '../../relay/native-pump'
import { SimulatedSite } from '../../simulator/site'
import { TunnelClient } from '../../simulator/tunnel'
import { startAgentWebUi, type AgentWebUi } from '../../simulator/web-ui'

type TestAgent = { agentId: string; secret: string; web: AgentWebUi; tunnel: TunnelClient }

/** Short enough for the 504 tests, long enough that 40 parallel pages at load 20 are answered in time (2 s was not). */
const ANSWER_TIMEOUT_MS = 8000

let relay: Relay
let base: string
let token: string
let orgId: string
let modern: TestAgent
let older: TestAgent
let inProcess: TestAgent

/**
 * An agent of the organization tunnelled to the relay, its UI on the port `localPort` gives (`index`
 * picks its simulated site); with `served`, data connections go to the UI's server that `served`
 * returns (a UI in the agent's own process) instead of being spliced to that port.
 */
async function tunnelledAgent(index: number, localPort: (site: SimulatedSite, agentId: string) => Promise<number>, dataConnections: boolean, served?: () => http.Server) {
  const site = new SimulatedSite({ seed: 11, index, scenario: 'tempHigh' })
  site.tick(new Date())
  const { agentId, secret } = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, { ip: '127.0.0.1', receivedAt: new Date() })
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId, lastSeen: new Date() } })
  const port = await localPort(site, agentId)
  const tunnel = new TunnelClient({ relayUrl: base, agentId, secret, localPort: port, localServer: served?.(), dataConnections })
  await tunnel.start()
  return { site, agentId, secret, tunnel }
}

/** A simulated agent; `served`: its data connections go to its UI's server (as the simulator's own agents do), else spliced to its port. */
async function createAgent(index: number, dataConnections: boolean, served = false): Promise<TestAgent> {
  let web: AgentWebUi | undefined
  const { agentId, secret, tunnel } = await tunnelledAgent(index, async (site, id) => (web = await startAgentWebUi(site, () => id)).port, dataConnections, served ? () => web!.server : undefined)
  return { agentId, secret, web: web!, tunnel }
}

/** A hand-written agent UI's port, once it listens on loopback. */
const listening = async (ui: http.Server) => {
  await new Promise<void>((resolve) => ui.listen(0, '127.0.0.1', resolve))
  return (ui.address() as AddressInfo).port
}

/** Ends a test's own agent: its tunnel, then its hand-written UI. */
async function closeOwnAgent(tunnel: TunnelClient, ui: http.Server) {
  await tunnel.close()
  ui.closeAllConnections()
  await new Promise((resolve) => ui.close(resolve))
}

/** A request the relay never answers fails the test within 30 s instead of hanging it. */
const within = <T,>(promise: Promise<T>, what: string) => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer to ${what}`)), 30_000)))
  return Promise.race([promise, late]).finally(() => clearTimeout(timer))
}

/** A browser bound to a fresh proxy session of the agent: its client, origin and headers. */
async function browser(agentId: string) {
  const response = await fetch(`${base}/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ agentId }) })
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: { address: string; origin: string } }
  const client = new RelayClient({ host: '127.0.0.1', port: relay.port })
  expect((await client.redeem(data.address)).status).toBe(200)
  const host = new URL(data.origin).host
  const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  return { client, origin: data.origin, host, cookie }
}

/** GET through the relay as raw bytes. */
function getBytes(host: string, cookie: string, path: string) {
  return new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: relay.port, path, headers: { host, cookie }, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
      })
      .on('error', reject)
  })
}

/** GET through the relay, for an answer that may end early: whether it came whole, and how many body bytes came. */
function cutShort(host: string, cookie: string, path: string) {
  return new Promise<{ complete: boolean; bytes: number }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: relay.port, path, headers: { host, cookie }, agent: false }, (res) => {
        let bytes = 0
        res.on('data', (c: Buffer) => (bytes += c.length)).on('error', () => undefined)
        res.once('close', () => resolve({ complete: res.complete, bytes }))
      })
      .on('error', reject)
  })
}

/** Opens the agent's live WebSocket through the relay: its first pushed message and one echo. */
async function liveSocket(host: string, cookie: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${relay.port}/live`, { headers: { Host: host, Cookie: cookie, Origin: `http://${host}` }, perMessageDeflate: false })
  const messages: string[] = []
  ws.on('message', (data) => messages.push(String(data)))
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject))
  ws.send('ping-1')
  await eventually(() => messages, (m) => m.some((t) => t === 'echo:ping-1'))
  ws.close()
  return messages
}

/** The status of a data-connection upgrade with these credentials and tunnel id. */
function dataUpgrade(credentials: string, tunnelId: string, token = 'pixelfleet-data') {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(`${base}/tunnel/data?tunnel=${encodeURIComponent(tunnelId)}`, { headers: { Connection: 'Upgrade', Upgrade: token, Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` }, agent: false })
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

/** The id the relay gave the agent's current control tunnel (what its data connections present). */
const tunnelIdOf = (a: TestAgent) => (a.tunnel.data as unknown as { tunnelId: string }).tunnelId

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@relay-data.test', name: 'Owner', emailVerified: true } })
  orgId = (await prisma.organization.create({ data: { name: 'Relay data org', ownerId: owner.id } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, owner.id, orgId)
  })
  token = (await createSession(owner.id, { ip: '127.0.0.1', userAgent: 'test' })).token
  // (no answer from an agent after ANSWER_TIMEOUT_MS gets a 504 here; 100 s by default)
  relay = await startRelay({ port: 0, host: '127.0.0.1', answerTimeoutMs: ANSWER_TIMEOUT_MS })
  base = `http://127.0.0.1:${relay.port}`
  modern = await createAgent(0, true)
  older = await createAgent(1, false)
  inProcess = await createAgent(7, true, true)
})

afterAll(async () => {
  for (const a of [modern, older, inProcess]) {
    await a?.tunnel.close()
    await a?.web.close()
  }
  await relay?.close()
})

describe('relay data connections', () => {
  // (a UI server in the agent's process answers 40 pages fast enough that 8 connections may do: the pool's growth is checked on the spliced agent)
  it.each([
    ['spliced by the agent to its UI', () => modern, true],
    ["handed to the UI's own server", () => inProcess, false],
  ])('carries pages, downloads byte for byte and WebSockets over data connections %s, not HTTP/2 streams', async (_, agent, grows) => {
    const subject = agent()
    await eventually(() => relay.dataConnections(subject.agentId) ?? 0, (n) => n > 0)
    expect(relay.dataConnections(subject.agentId)).toBeGreaterThan(0)
    const { host, cookie } = await browser(subject.agentId)
    // many at once: the pool grows on request over the control tunnel (requests that find no idle connection meanwhile take HTTP/2)
    const statuses = await Promise.all(Array.from({ length: 40 }, () => getBytes(host, cookie, '/status.json').then((r) => r.status)))
    expect(statuses.filter((s) => s !== 200)).toEqual([])
    if (grows) {
      await eventually(() => relay.dataConnections(subject.agentId) ?? 0, (n) => n > 8)
      expect(relay.dataConnections(subject.agentId)).toBeGreaterThan(8) // the 8 opened with the tunnel, and more asked for
    }
    const before = subject.tunnel.h2Requests

    const direct = await fetch(`http://127.0.0.1:${subject.web.port}/`).then((r) => r.text())
    const page = await getBytes(host, cookie, '/')
    expect(page.status).toBe(200)
    // the page is live (its timestamps are the site's, not the request's): same shape as served directly
    expect(page.body.toString('utf8').slice(0, 200)).toBe(direct.slice(0, 200))

    const bundle = await getBytes(host, cookie, '/support-bundle.bin?mb=20')
    expect(bundle.status).toBe(200)
    expect(bundle.body.length).toBe(20 * 1024 * 1024)
    const expected = createHash('sha256').update(Buffer.alloc(20 * 1024 * 1024, 0x5a)).digest('hex')
    expect(createHash('sha256').update(bundle.body).digest('hex')).toBe(expected)

    const messages = await liveSocket(host, cookie)
    expect(JSON.parse(messages[0]).systems).toBeInstanceOf(Array)
    expect(subject.tunnel.h2Requests).toBe(before)
  })

  it('still serves an agent without data connections over HTTP/2, WebSocket included', async () => {
    expect(relay.dataConnections(older.agentId)).toBeUndefined()
    const { host, cookie } = await browser(older.agentId)
    const before = older.tunnel.h2Requests
    const status = await getBytes(host, cookie, '/status.json')
    expect(status.status).toBe(200)
    expect(JSON.parse(status.body.toString('utf8')).systems).toBeInstanceOf(Array)
    const bundle = await getBytes(host, cookie, '/support-bundle.bin?mb=2')
    expect(bundle.body.length).toBe(2 * 1024 * 1024)
    await liveSocket(host, cookie)
    expect(older.tunnel.h2Requests).toBe(before + 3)
  })

  // The native pump (relay/native-pump.ts, built by npm install) and the JavaScript path it falls back to.
  it.each<PumpMode>(['native', 'javascript'])('carries a large download raw (%s), byte for byte, and reuses its connection for the next request; a browser leaving mid-download, or an agent ending one early, costs only that connection', async (mode) => {
    expect(choosePump(mode)).toEqual({ mode })
    const pumped = pumpStats.bodies
    const moved = pumpStats.moved
    // An agent UI of its own: a random 3 MiB body (Content-Length), and which of its connections served each request.
    const body = randomBytes(3 * 1024 * 1024 + 17)
    const served: { path: string; port: number }[] = []
    let stalledCut = false
    const ui = http.createServer((req, res) => {
      if (req.url === '/short.bin') {
        // announces 3 MiB, sends 1.5 MiB and fails (a UI that crashed mid-file)
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(3 * 1024 * 1024) })
        return void res.write(body.subarray(0, 1536 * 1024), () => setTimeout(() => req.socket.destroy(), 50))
      }
      served.push({ path: req.url ?? '', port: req.socket.remotePort ?? 0 })
      if (req.url === '/big.bin') {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) })
        // several writes, as a UI streaming a file would
        for (let at = 0; at < body.length; at += 200_000) res.write(body.subarray(at, at + 200_000))
        return void res.end()
      }
      if (req.url === '/stalled.bin') {
        // announces 3 MiB, sends 1 MiB and waits (a UI still producing the file when the browser leaves)
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(3 * 1024 * 1024) })
        res.write(body.subarray(0, 1024 * 1024))
        return void res.once('close', () => (stalledCut = true))
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' })
      res.end(`page ${req.url}`)
    })
    const { agentId, tunnel } = await tunnelledAgent(5, () => listening(ui), true)
    try {
      await eventually(() => relay.dataConnections(agentId) ?? 0, (n) => n > 0)
      const { host, cookie } = await browser(agentId)
      served.length = 0 // (redeeming the address loaded the UI's first page)
      const hash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')
      for (let i = 0; i < 2; i++) {
        const download = await getBytes(host, cookie, '/big.bin')
        expect(download.status).toBe(200)
        expect(download.body.length).toBe(body.length)
        expect(hash(download.body)).toBe(hash(body))
      }
      const page = await getBytes(host, cookie, '/after')
      expect(page.body.toString()).toBe('page /after')
      // the downloads and the page after them came over one connection: it was handed back in step
      expect(served.map((r) => r.path)).toEqual(['/big.bin', '/big.bin', '/after'])
      expect(new Set(served.map((r) => r.port)).size).toBe(1)

      // a browser that leaves mid-download: that connection is cut (the UI sees it close), the next request takes another
      await new Promise<void>((resolve, reject) => {
        const request = http.get({ host: '127.0.0.1', port: relay.port, path: '/stalled.bin', headers: { host, cookie }, agent: false }, (res) => {
          res.once('data', () => {
            request.destroy()
            resolve()
          })
        })
        request.on('error', reject)
      })
      expect(await eventually(() => stalledCut, (cut) => cut)).toBe(true)
      const again = await getBytes(host, cookie, '/big.bin')
      expect(hash(again.body)).toBe(hash(body))
      expect(served[3].path).toBe('/stalled.bin')
      expect(served.at(-1)!.port).not.toBe(served[3].port)

      // an agent UI that fails mid-body: the browser's answer ends short (not a hang, not padded), and the next request is whole
      const short = await within(cutShort(host, cookie, '/short.bin'), 'the short download')
      expect(short).toEqual({ complete: false, bytes: expect.any(Number) })
      expect(short.bytes).toBeLessThan(3 * 1024 * 1024)
      expect(hash((await getBytes(host, cookie, '/big.bin')).body)).toBe(hash(body))
      expect(tunnel.h2Requests).toBe(0)
      // the four whole downloads went through the native pump only when it was chosen (it reports
      // to the relay once the browser may have read the last byte already)
      const expected = mode === 'native' ? 4 : 0
      expect(await eventually(() => pumpStats.bodies - pumped, (n) => n === expected)).toBe(expected)
      // what it moved (the metrics' relay bytes add it): each whole body but the part read before the takeover
      if (mode === 'native') expect(pumpStats.moved - moved).toBeGreaterThan(4 * (body.length - 1024 * 1024))
      else expect(pumpStats.moved).toBe(moved)
    } finally {
      choosePump('native')
      await closeOwnAgent(tunnel, ui)
    }
  })

  it('answers after the agent UI closed an idle kept-alive connection, whether it last carried a raw download or a page', async () => {
    // A UI that lets idle connections go after 150 ms (Node's default is 5 s): the agent then closes that data connection.
    const body = randomBytes(1024 * 1024)
    const ui = http.createServer((req, res) => {
      if (req.url === '/big.bin') {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(body.length) })
        return void res.end(body)
      }
      res.writeHead(200, { 'Content-Type': 'text/plain' })
      res.end(`page ${req.url}`)
    })
    ui.keepAliveTimeout = 150
    const { agentId, tunnel } = await tunnelledAgent(6, () => listening(ui), true)
    try {
      await eventually(() => relay.dataConnections(agentId) ?? 0, (n) => n > 0)
      const { host, cookie } = await browser(agentId)
      for (const path of ['/big.bin', '/after', '/big.bin', '/big.bin', '/after', '/after']) {
        const answer = await within(getBytes(host, cookie, path), path)
        expect(answer.status).toBe(200)
        expect(answer.body.length).toBe(path === '/big.bin' ? body.length : `page ${path}`.length)
        // A starved process (load ~25, issue #27): the UI's keep-alive timer and the next request come
        // due in one turn, before the relay has read the close of the connection that served it. The
        // relay then sends that request on a connection being closed, and must send it again.
        const stalled = Date.now() + 600
        while (Date.now() < stalled) {
          // the event loop stands still, as when the machine gives this process no CPU
        }
        await new Promise((r) => setTimeout(r, 400)) // the UI closes the connection that served it
      }
      // each one over a data connection (again on another one when the first was closing): none fell back to the HTTP/2 tunnel
      expect(tunnel.h2Requests).toBe(0)
    } finally {
      await closeOwnAgent(tunnel, ui)
    }
  })

  it("hands data connections to a UI server in the agent's process: uploads arrive whole and in order, keep-alive connections are reused", async () => {
    const served: { path: string; port: number }[] = []
    const ui = http.createServer((req, res) => {
      served.push({ path: req.url ?? '', port: req.socket.remotePort ?? 0 })
      const hash = createHash('sha256')
      let length = 0
      req.on('data', (chunk: Buffer) => {
        hash.update(chunk)
        length += chunk.length
      })
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ method: req.method, length, sha256: hash.digest('hex') }))
      })
    })
    const { agentId, tunnel } = await tunnelledAgent(8, () => listening(ui), true, () => ui)
    try {
      await eventually(() => relay.dataConnections(agentId) ?? 0, (n) => n > 0)
      const { host, cookie } = await browser(agentId)
      served.length = 0
      const upload = randomBytes(6 * 1024 * 1024 + 5)
      const posted = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port: relay.port, method: 'POST', path: '/upload', headers: { host, cookie, origin: `http://${host}`, 'content-type': 'application/octet-stream', 'content-length': String(upload.length) }, agent: false }, (res) => {
          let body = ''
          res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body }))
        })
        request.on('error', reject)
        for (let at = 0; at < upload.length; at += 100_000) request.write(upload.subarray(at, at + 100_000))
        request.end()
      })
      expect(posted.status).toBe(200)
      expect(JSON.parse(posted.body)).toEqual({ method: 'POST', length: upload.length, sha256: createHash('sha256').update(upload).digest('hex') })
      for (const path of ['/one', '/two']) expect(JSON.parse((await getBytes(host, cookie, path)).body.toString()).method).toBe('GET')
      expect(served.map((r) => r.path)).toEqual(['/upload', '/one', '/two'])
      // no local TCP connection: the UI saw the relay's side of the data connection, one for all three
      expect(new Set(served.map((r) => r.port)).size).toBe(1)
      expect(tunnel.h2Requests).toBe(0)
    } finally {
      await closeOwnAgent(tunnel, ui)
    }
  })

  it('answers after the agent dropped every idle data connection, even ones the relay never used', async () => {
    const ui = http.createServer((req, res) => res.end(`page ${req.url}`))
    const { agentId, tunnel } = await tunnelledAgent(9, () => listening(ui), true)
    try {
      await eventually(() => relay.dataConnections(agentId) ?? 0, (n) => n >= 8)
      const { host, cookie } = await browser(agentId)
      expect((await within(getBytes(host, cookie, '/first'), '/first')).body.toString()).toBe('page /first')
      // the agent's side of every data connection goes away (a restart of its network, a crash of its proxy)
      const agentSide = (tunnel.data as unknown as { sockets: Set<Socket> }).sockets
      for (const socket of [...agentSide]) socket.destroy()
      for (const path of ['/second', '/third']) expect((await within(getBytes(host, cookie, path), path)).body.toString()).toBe(`page ${path}`)
    } finally {
      await closeOwnAgent(tunnel, ui)
    }
  })

  it.each([
    ['a data connection', true],
    ['an HTTP/2 stream', false],
  ])('answers 504 when the agent does not begin an answer in time over %s, and cancels that request', async (_, data) => {
    let hungClosed = false
    const ui = http.createServer((req, res) => {
      if (req.url === '/hang') return void req.socket.once('close', () => (hungClosed = true)) // never answers
      res.end(`page ${req.url}`)
    })
    const { agentId, tunnel } = await tunnelledAgent(data ? 10 : 11, () => listening(ui), data)
    try {
      if (data) await eventually(() => relay.dataConnections(agentId) ?? 0, (n) => n > 0)
      const { host, cookie } = await browser(agentId)
      const started = Date.now()
      const hung = await within(getBytes(host, cookie, '/hang'), '/hang')
      expect(hung.status).toBe(504)
      expect(hung.body.toString()).toBe('The agent did not answer in time.')
      expect(Date.now() - started).toBeGreaterThanOrEqual(ANSWER_TIMEOUT_MS - 100)
      expect(await eventually(() => hungClosed, (closed) => closed)).toBe(true)
      expect((await within(getBytes(host, cookie, '/after'), '/after')).body.toString()).toBe('page /after')
    } finally {
      await closeOwnAgent(tunnel, ui)
    }
  })

  it('refuses data connections with wrong credentials, an unknown tunnel id, or another agent’s tunnel', async () => {
    const id = tunnelIdOf(modern)
    const count = relay.dataConnections(modern.agentId)
    expect(await dataUpgrade(`${modern.agentId}:wrong-secret`, id)).toBe(401)
    expect(await dataUpgrade(`${modern.agentId}:${modern.secret}`, 'not-the-id')).toBe(409)
    // the other agent's own credentials do not let it join this agent's tunnel
    expect(await dataUpgrade(`${older.agentId}:${older.secret}`, id)).toBe(409)
    expect(await dataUpgrade(`${modern.agentId}:${modern.secret}`, id, 'websocket')).toBe(400)
    expect(relay.dataConnections(modern.agentId)).toBe(count)
    // the agent's own, with its tunnel's id, is accepted
    expect(await dataUpgrade(`${modern.agentId}:${modern.secret}`, id)).toBe(101)
  })
})
