/**
 * SIGTERM drains (server/drain.ts): /readyz answers 503 first, new connections are refused after
 * the grace, a request in flight finishes with 200, then the process exits on its own; a request
 * that never finishes does not hold the process past SHUTDOWN_TIMEOUT_SECONDS. /metrics shows the
 * requests in flight and the drain.
 */
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { processAlive } from '../../server/db-lock'
import { portalDb, startPortal, type RunningPortal } from '../e2e/harness'

const until = async <T>(what: string, probe: () => Promise<T | undefined>, limitMs = 60_000): Promise<T> => {
  const end = Date.now() + limitMs
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const exited = (pid: number) => !processAlive(pid)

/** A signed-in API call whose JSON body is sent in two parts: the request stays in flight until `finish`. */
async function slowApiCall(portal: RunningPortal) {
  const db = await portalDb(portal)
  const token = randomBytes(32).toString('base64url')
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email: 'owner@demo.pixelfleet.io' } })
    await db.session.create({ data: { userId: user.id, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Date.now() + 3600_000) } })
  } finally {
    await db.$disconnect()
  }
  const cookie = `pf_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString('base64'))}`
  const request = http.request(`${portal.url}/client/v1/auth/authorized`, {
    method: 'POST',
    headers: { cookie, origin: portal.url, 'content-type': 'application/json', 'content-length': '2' },
  })
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (response) => {
      let body = ''
      response.on('data', (chunk: Buffer) => (body += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }))
    })
    request.on('error', reject)
  })
  // the second test never lets it finish: its failure is expected there
  answered.catch(() => undefined)
  const sent = new Promise<void>((resolve) => request.write('{', () => resolve()))
  request.flushHeaders()
  await sent
  // The headers have left; a round trip on another connection afterwards means the server has read
  // them too (it reads every ready socket in one pass): the request is in flight before any signal.
  // (A fixed 200 ms was too short at load 20: the server shut down without seeing the request.)
  await get(`${portal.url}/healthz`)
  return { finish: () => request.end('}'), answered }
}

type Answer = { status: number; body?: { status: string; checks?: Record<string, string> }; error?: string }

/** GET on a new connection each time (a reused keep-alive one would say nothing about new connections). */
const get = (url: string) =>
  new Promise<Answer>((resolve) => {
    const request = http.get(url, { agent: false, timeout: 20_000 }, (response) => {
      let text = ''
      response.on('data', (chunk: Buffer) => (text += chunk.toString()))
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] }))
    })
    request.on('timeout', () => request.destroy(new Error('timeout')))
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, error: error.code ?? error.message }))
  })

describe('SIGTERM', () => {
  let portal: RunningPortal | null = null
  afterEach(async () => {
    await portal?.stop()
    portal = null
  })

  it('drains: readiness false first, then new connections refused, the request in flight answered, then exit', async () => {
    portal = await startPortal({ SHUTDOWN_GRACE_SECONDS: '4', SHUTDOWN_TIMEOUT_SECONDS: '120' })
    expect(await get(`${portal.url}/healthz`)).toMatchObject({ status: 200, body: { status: 'ok' } })
    const ready = await get(`${portal.url}/readyz`)
    expect(ready).toMatchObject({ status: 200, body: { status: 'ready', checks: { database: 'ok', migrations: 'ok', ingest: 'ok', draining: 'ok' } } })

    const slow = await slowApiCall(portal)
    process.kill(portal.pid, 'SIGTERM')

    const notReady = await until('/readyz to answer 503', async () => {
      const answer = await get(`${portal!.url}/readyz`)
      return answer.status === 503 ? answer : undefined
    })
    expect(notReady).toMatchObject({ body: { status: 'not ready', checks: { draining: 'shutting down' } } })

    // after the grace: nothing new gets in, while the slow request still waits for its body
    const refused = await until('new connections to be refused', async () => {
      const answer = await get(`${portal!.url}/healthz`)
      return answer.status === 0 ? answer : undefined
    })
    expect(refused, portal.output()).toMatchObject({ error: 'ECONNREFUSED' })
    expect(exited(portal.pid), portal.output()).toBe(false)

    slow.finish()
    const answer = await slow.answered.catch((error: Error) => ({ status: 0, body: `${error.message}\n${portal!.output()}` }))
    expect(answer.status, answer.body).toBe(200)
    const pid = portal.pid
    await until('the process to exit', async () => (exited(pid) ? true : undefined), 120_000)
    expect(portal.output()).toContain('shut down')
    expect(portal.output()).not.toContain('cut off')
  })

  it('exits at SHUTDOWN_TIMEOUT_SECONDS when a request never finishes', async () => {
    portal = await startPortal({ SHUTDOWN_GRACE_SECONDS: '0', SHUTDOWN_TIMEOUT_SECONDS: '3', METRICS_PORT: '0', METRICS_HOST: '127.0.0.1' })
    const metricsPort = Number(/metrics :(\d+)/.exec(portal.output())?.[1])
    const slow = await slowApiCall(portal)
    // and, to be sure, signalled only once the server counts it: a connection whose request the
    // server has not read yet is idle, and the drain closes it
    await until('the server to count the request in flight', async () => {
      const text = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((response) => response.text())
      return /^pixelfleet_http_requests_in_flight [1-9]/m.test(text) ? true : undefined
    })
    process.kill(portal.pid, 'SIGTERM')
    const pid = portal.pid
    // our own bound is generous: the process's 3 s one is what ends it (it says so)
    await until('the process to exit', async () => (exited(pid) ? true : undefined), 120_000)
    expect(portal.output()).toMatch(/requests still in flight at the shutdown deadline were cut off|shutdown did not finish within SHUTDOWN_TIMEOUT_SECONDS=3/)
    slow.finish()
    await slow.answered.catch(() => undefined)
  })
})
