/**
 * Issue 10 items 4, 7, 8 and 14 against the real portal process (HTTP, no browser): open
 * redirects, cross-site requests, body caps and malformed input, and a second start on the same
 * database.
 */
import { createHash, randomBytes } from 'node:crypto'
import http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withoutVitest } from '../../server/build'
import { runToExit } from '../setup/run-to-exit'
import { portalDb, serverCommand, startPortal, type RunningPortal } from './harness'

const root = path.resolve(import.meta.dirname, '../..')
let portal: RunningPortal

/** A session cookie for a demo account, created straight in the portal's database. */
async function cookieFor(email: string) {
  const db = await portalDb(portal)
  try {
    const user = await db.user.findUniqueOrThrow({ where: { email } })
    const token = randomBytes(32).toString('base64url')
    await db.session.create({ data: { userId: user.id, tokenHash: createHash('sha256').update(token).digest('hex'), expiresAt: new Date(Date.now() + 3600_000) } })
    return `pf_session=${encodeURIComponent(Buffer.from(JSON.stringify(token), 'utf8').toString('base64'))}`
  } finally {
    await db.$disconnect()
  }
}

const get = (pathName: string, headers: Record<string, string> = {}) => fetch(portal.url + pathName, { redirect: 'manual', headers })
const post = (pathName: string, body: string | URLSearchParams, headers: Record<string, string> = {}) =>
  fetch(portal.url + pathName, { method: 'POST', redirect: 'manual', body, headers })

/** Sends a body with raw node http (declared length or chunked) and resolves with the status once the portal answers. */
function upload(pathName: string, options: { declaredLength?: number; sendBytes: number }) {
  return new Promise<{ status: number; sentBytes: number }>((resolve, reject) => {
    const url = new URL(portal.url + pathName)
    const headers: Record<string, string | number> = { 'content-type': 'application/json' }
    if (options.declaredLength !== undefined) headers['content-length'] = options.declaredLength
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers })
    let sent = 0
    let answered = false
    req.on('response', (res) => {
      answered = true
      res.resume()
      resolve({ status: res.statusCode ?? 0, sentBytes: sent })
      req.destroy()
    })
    req.on('error', (error) => (answered ? undefined : reject(error)))
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    // One chunk per event-loop turn, as a browser uploads while it reads: on a fast loopback a
    // write loop could push the portal's whole lingering allowance (16 MB) before this client read
    // the 413 already waiting for it, and the portal then resets the connection (EPIPE here).
    const pump = () => {
      if (answered) return
      if (sent >= options.sendBytes) return void (options.declaredLength === undefined && req.end())
      sent += chunk.length
      if (req.write(chunk)) setImmediate(pump)
      else req.once('drain', () => setImmediate(pump))
    }
    pump()
  })
}

beforeAll(async () => {
  portal = await startPortal()
})
afterAll(async () => {
  await portal?.stop()
})

describe('web security against the running portal', () => {
  it('never redirects off-site: /a//host, login ?redirect= and the form redirect field', async () => {
    for (const target of ['/a//evil.example/x', '/a/\\evil.example', '/a/%2F%2Fevil.example']) {
      const response = await get(target)
      expect(response.status, target).toBe(301)
      expect(response.headers.get('location'), target).toBe('/')
    }
    expect((await get('/a/organization/list?x=1')).headers.get('location')).toBe('/organization/list?x=1')

    const cookie = await cookieFor('owner@demo.pixelfleet.io')
    for (const target of ['%2F%09%2Fevil.example', '%2F%5Cevil.example', 'https%3A%2F%2Fevil.example', '%2F%0A%2Fevil.example', '%252F%252Fevil.example']) {
      const response = await get(`/login?redirect=${target}`, { cookie })
      expect(response.headers.get('location'), target).toBe('/')
    }
    const form = new URLSearchParams({ intent: 'login', email: 'viewer@demo.pixelfleet.io', password: 'Pixelfleet-demo-1', redirect: '/\t/evil.example' })
    const signIn = await post('/login', form, { 'content-type': 'application/x-www-form-urlencoded' })
    expect(signIn.status).toBe(302)
    expect(signIn.headers.get('location')).toBe('/')
  })

  it('refuses cross-site POSTs by Origin, then Referer, whatever other headers say', async () => {
    const cookie = await cookieFor('member@demo.pixelfleet.io')
    const form = { 'content-type': 'application/x-www-form-urlencoded', cookie }
    const refused: Record<string, string>[] = [
      { referer: 'http://evil.example/page' },
      { origin: 'http://evil.example', authorization: 'Basic YTpi' },
      { origin: 'null' },
      { origin: 'http://evil.example', referer: `${portal.url}/` },
    ]
    for (const headers of refused) {
      for (const pathName of ['/logout', '/login', '/settings/tokens']) {
        const response = await post(pathName, 'intent=create&name=x', { ...form, ...headers })
        expect(response.status, `${pathName} ${JSON.stringify(headers)}`).toBe(403)
        expect(await response.json()).toMatchObject({ code: 'csrf' })
      }
    }
    // The session still works: nothing was done with it.
    expect((await get('/settings/profile', { cookie })).status).toBe(200)
    // Same origin passes; a bearer-only API call (no cookie) is not a browser's ambient credential.
    expect((await post('/logout', '', { ...form, origin: portal.url })).status).toBe(302)
    const api = await post('/client/v1/auth/authorized', '{}', { 'content-type': 'application/json', origin: 'http://evil.example', authorization: 'Bearer pft_not-a-token' })
    expect(api.status).toBe(401)
  })

  it('answers malformed bodies and input with 400s and refuses large bodies early with 413', async () => {
    const cookie = await cookieFor('admin@pixelfleet.io')
    const json = await post('/admin/site', '{"intent":"clear"}', { 'content-type': 'application/json', cookie })
    expect(json.status).toBe(400)
    const empty = await post('/admin/site', '', { 'content-type': 'application/x-www-form-urlencoded', cookie })
    expect(empty.status).toBe(400)
    const multipart = await post('/settings/tokens', '--x\r\nbroken', { 'content-type': 'multipart/form-data; boundary=x', cookie })
    expect(multipart.status).toBe(400)
    const nul = await get('/organization/%00', { cookie })
    expect(nul.status).toBe(400)
    expect(await nul.json()).toMatchObject({ message: 'The address contains invalid characters' })
    expect((await get('/organization/%E0%A4%A', { cookie })).status).toBe(400)

    // 100 MB declared: refused before the body is read (the answer comes after a few chunks at most).
    const declared = await upload('/client/v1/public/auth/userCreate', { declaredLength: 100 * 1024 * 1024, sendBytes: 100 * 1024 * 1024 })
    expect(declared.status).toBe(413)
    expect(declared.sentBytes).toBeLessThan(20 * 1024 * 1024)
    // Streamed without a length: cut off once past the cap.
    const streamed = await upload('/login', { sendBytes: 3 * 1024 * 1024 })
    expect(streamed.status).toBe(413)
    // The portal still answers normally afterwards.
    expect((await get('/login')).status).toBe(200)
  })

  it('stops a second start on the same database with one line', async () => {
    const result = await runToExit(process.execPath, serverCommand(), {
      cwd: root,
      env: { ...withoutVitest(process.env), NODE_ENV: 'production', SEED_DEMO: 'true', DATABASE_URL: portal.databaseUrl, PORT: '0', MQTT_PORT: '0', RELAY_PORT: '0', PIXELFLEET_SKIP_BUILD: '1', SIMULATOR_AGENTS: '0' },
    })
    expect(result.status).toBe(1)
    expect(result.stderr.trim()).toMatch(/^The database .* is in use by another Pixelfleet process \(pid \d+\); stop it first/)
    expect(result.stderr).not.toContain('SocketTimeout')
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })
})
