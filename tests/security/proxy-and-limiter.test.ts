/**
 * Issue 10 item 12: TRUST_PROXY decides whose X-Forwarded-For/Proto are believed (client address,
 * audit IPs, rate-limit keys, the Secure cookie flag); the sign-in limiter counts failures only.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig, parseTrustProxy } from '../../server/config'
import { CLIENT_IP_HEADER, CLIENT_PROTO_HEADER, clientInfoMiddleware } from '../../server/request-guards'
import { signInWithPassword } from '~/domain/auth/account.server'
import { hashPassword } from '~/domain/auth/crypto.server'
import { LOGIN_LIMITS } from '~/domain/auth/login-limiter.server'
import { commitSessionCookie, requestInfo } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

const servers: http.Server[] = []
afterAll(() => servers.forEach((s) => s.close()))

/** A web server with the portal's client-info guard that echoes what the app would see. */
async function echoServer(trustProxy: string) {
  const app = express()
  app.set('trust proxy', loadConfig({ NODE_ENV: 'test', TRUST_PROXY: trustProxy }).TRUST_PROXY)
  app.use(clientInfoMiddleware())
  app.get('/', (req, res) => res.json({ ip: req.headers[CLIENT_IP_HEADER], proto: req.headers[CLIENT_PROTO_HEADER] }))
  const server = http.createServer(app)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return (headers: Record<string, string>) => fetch(`http://127.0.0.1:${port}/`, { headers }).then((r) => r.json() as Promise<{ ip: string; proto: string }>)
}

const forwarded = { 'x-forwarded-for': '203.0.113.7, 198.51.100.2', 'x-forwarded-proto': 'https', 'x-pixelfleet-client-ip': '6.6.6.6' }

describe('TRUST_PROXY', () => {
  it('validates its value', () => {
    expect(parseTrustProxy('false')).toBe(false)
    expect(parseTrustProxy('')).toBe(false)
    expect(parseTrustProxy('1')).toBe(1)
    expect(parseTrustProxy('10.0.0.0/8, loopback')).toEqual(['10.0.0.0/8', 'loopback'])
    for (const bad of ['true', '11', 'not-an-address', '10.0.0.0/99']) expect(() => loadConfig({ NODE_ENV: 'test', TRUST_PROXY: bad }), bad).toThrow(ConfigError)
  })

  it('ignores forwarded headers by default and honours them only from trusted hops', async () => {
    expect(await (await echoServer('false'))(forwarded)).toEqual({ ip: '127.0.0.1', proto: 'http' })
    // One trusted hop (the proxy on loopback): its X-Forwarded-For's last entry is the client.
    expect(await (await echoServer('1'))(forwarded)).toEqual({ ip: '198.51.100.2', proto: 'https' })
    expect(await (await echoServer('loopback'))(forwarded)).toEqual({ ip: '198.51.100.2', proto: 'https' })
    // A proxy address that is not ours: nothing forwarded is believed.
    expect(await (await echoServer('10.0.0.0/8'))(forwarded)).toEqual({ ip: '127.0.0.1', proto: 'http' })
  })

  it('marks the session cookie Secure when the browser came over TLS through a trusted proxy, and keys on the client address', async () => {
    const plain = new Request('http://portal.test/', { headers: { [CLIENT_PROTO_HEADER]: 'http' } })
    const tls = new Request('http://portal.test/', { headers: { [CLIENT_PROTO_HEADER]: 'https', [CLIENT_IP_HEADER]: '198.51.100.2' } })
    expect(await commitSessionCookie('t', new Date(Date.now() + 60_000), plain)).not.toMatch(/;\s*Secure/i)
    expect(await commitSessionCookie('t', new Date(Date.now() + 60_000), tls)).toMatch(/;\s*Secure/i)
    expect(requestInfo(tls).ip).toBe('198.51.100.2')
  })
})

describe('sign-in limiter', () => {
  it('counts failed attempts only, clears on success, and refuses once the failures are used up', async () => {
    const email = 'limited@limiter.test'
    const password = 'Correct-horse-1'
    await prisma.user.create({ data: { email, name: 'Limited', emailVerified: true, passwordHash: await hashPassword(password) } })
    const info = { ip: '192.0.2.10', userAgent: 'vitest' }
    // Many successful sign-ins are never limited.
    for (let i = 0; i < LOGIN_LIMITS.perEmail + 2; i++) await signInWithPassword({ email, password }, info)
    // Failures below the limit, then a success clears them.
    for (let i = 0; i < LOGIN_LIMITS.perEmail - 1; i++) await expect(signInWithPassword({ email, password: 'Wrong-pass-1' }, info)).rejects.toMatchObject({ status: 401 })
    await signInWithPassword({ email, password }, info)
    for (let i = 0; i < LOGIN_LIMITS.perEmail; i++) await expect(signInWithPassword({ email, password: 'Wrong-pass-1' }, info)).rejects.toMatchObject({ status: 401 })
    await expect(signInWithPassword({ email, password }, info)).rejects.toMatchObject({ status: 429, message: expect.stringMatching(/^Too many attempts\. Please wait 15 minutes/) })
    // The counters live in the database (rate-limiter-flexible's Prisma store).
    expect(await prisma.rateLimiterFlexible.count({ where: { key: { contains: email } } })).toBe(1)
  })
})
