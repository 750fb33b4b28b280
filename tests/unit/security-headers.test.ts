/**
 * server/security-headers.ts records helmet's headers once and replays them per request with a
 * fresh nonce. Every response must carry exactly what helmet itself sets, with a nonce of its own
 * that matches the one the page's scripts get (res.locals.cspNonce).
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../server/config'
import { helmetFor, securityHeaders } from '../../server/security-headers'

let server: http.Server
let port = 0
const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://portal.example.com', RELAY_PUBLIC_URL: 'https://relay.example.com:8443', RELAY_DOMAIN: 'relay.example.com' })

beforeAll(async () => {
  const app = express()
  app.disable('x-powered-by')
  app.get('/replayed', securityHeaders(config, { dev: false }), (_req: express.Request, res: express.Response) => void res.send(String(res.locals.cspNonce)))
  app.get(
    '/helmet',
    (_req, res, next) => {
      res.locals.cspNonce = 'FIXEDNONCE'
      next()
    },
    helmetFor(config, { dev: false }),
    (_req, res) => void res.send('FIXEDNONCE'),
  )
  server = app.listen(0, '127.0.0.1')
  await new Promise((r) => server.once('listening', r))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise((r) => server.close(r)))

function get(path: string) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path }, (res) => {
        let body = ''
        res.on('data', (c: Buffer) => (body += c.toString()))
        res.on('end', () => resolve({ headers: res.headers, body }))
      })
      .on('error', reject)
  })
}

const securityOnly = (headers: http.IncomingHttpHeaders, nonce: string) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'content-type', 'etag', 'permissions-policy'].includes(name))
      .map(([name, value]) => [name, String(value).replaceAll(nonce, 'NONCE')]),
  )

describe('securityHeaders', () => {
  it('sends exactly the headers helmet sends, with a fresh nonce per request', async () => {
    const a = await get('/replayed')
    const b = await get('/replayed')
    const reference = await get('/helmet')
    expect(a.body).toMatch(/^[A-Za-z0-9+/]{22}==$/)
    expect(b.body).not.toBe(a.body)
    expect(a.headers['content-security-policy']).toContain(`'nonce-${a.body}'`)
    expect(b.headers['content-security-policy']).toContain(`'nonce-${b.body}'`)
    expect(a.headers['content-security-policy']).toMatch(/frame-src [a-z]+:\/\/\*\./)
    expect(a.headers['strict-transport-security']).toBeDefined()
    expect(a.headers['permissions-policy']).toContain('camera=()')
    expect(securityOnly(a.headers, a.body)).toEqual(securityOnly(reference.headers, 'FIXEDNONCE'))
    expect(securityOnly(b.headers, b.body)).toEqual(securityOnly(reference.headers, 'FIXEDNONCE'))
  })
})
