/**
 * Issue 28 (low): the broker's login-check endpoint (/broker-auth/*) answered anyone a reverse proxy
 * on the same host forwarded (the portal saw loopback) and never limited wrong passwords. Now every
 * address a request names must be a broker address, an optional shared secret leads the path, and
 * wrong passwords are limited per user name and client id.
 */
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROKER_AUTH_FAILURES, brokerAuthRouter } from '../../broker/http-auth.server'
import { loadConfig } from '../../server/config'
import { DEFAULT_PROVISIONING_KEY } from '../../protocol'
import { registerAgent, startTestBroker } from '../broker/mqtt-helpers'

const broker = startTestBroker()
const servers: http.Server[] = []
afterAll(() => servers.forEach((s) => s.close()))

async function serve(options: { networks?: string[]; secret?: string } = {}) {
  const app = express()
  app.use('/broker-auth', brokerAuthRouter({ vhost: '/', exchange: 'amq.topic', networks: options.networks ?? ['loopback'], secret: options.secret, log: { warn: () => {} } }))
  const server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/broker-auth`
  return async (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(fields) })
    return `${response.status} ${await response.text()}`
  }
}

const provision = (clientId: string, password = DEFAULT_PROVISIONING_KEY) => ({ username: 'provision', password, vhost: '/', client_id: clientId })

describe('broker auth endpoint: who may ask', () => {
  let ask: Awaited<ReturnType<typeof serve>>
  beforeAll(async () => {
    ask = await serve()
  })

  it('refuses requests a proxy forwarded from outside the broker networks', async () => {
    expect(await ask('user', provision('dev-a'))).toBe('200 allow')
    const forwardedFromOutside: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
      { 'x-real-ip': '198.51.100.4' },
      { forwarded: 'for=203.0.113.9;proto=https' },
      { forwarded: 'for="[2001:db8::7]:4711"' },
      { forwarded: 'for=_hidden' },
      { 'x-forwarded-for': 'not-an-address' },
    ]
    for (const headers of forwardedFromOutside) {
      expect(await ask('user', provision('dev-a'), headers), JSON.stringify(headers)).toBe('403 deny')
      expect(await ask('vhost', { username: 'provision', vhost: '/', client_id: 'dev-a' }, headers)).toBe('403 deny')
    }
    // a balancer in front of the portal, itself asked by the broker on loopback, still works
    expect(await ask('user', provision('dev-a'), { 'x-forwarded-for': '127.0.0.1', forwarded: 'for=127.0.0.1:5555' })).toBe('200 allow')
  })

  it('with BROKER_AUTH_SECRET, answers only under /broker-auth/SECRET/', async () => {
    const secret = 'rmq-0123456789abcdef'
    const guarded = await serve({ secret })
    expect(await guarded(`${secret}/user`, provision('dev-b'))).toBe('200 allow')
    expect(await guarded(`${secret}/vhost`, { username: 'provision', vhost: '/', client_id: 'dev-b' })).toBe('200 allow')
    expect(await guarded('user', provision('dev-b'))).toBe('403 deny')
    expect(await guarded('rmq-0123456789abcdeX/user', provision('dev-b'))).toBe('403 deny')
    expect(await guarded('%E0%A4%A/user', provision('dev-b'))).toBe('403 deny')
    expect(() => loadConfig({ NODE_ENV: 'test', BROKER_AUTH_SECRET: 'short' })).toThrow(/BROKER_AUTH_SECRET/)
  })
})

describe('broker auth endpoint: wrong passwords', () => {
  it('refuses a client unchecked after too many wrong passwords, without locking out other clients', async () => {
    const ask = await serve()
    const agent = await registerAgent(broker.url)
    const login = (password: string) => ask('user', { username: agent.agentId, password, vhost: '/', client_id: agent.agentId })
    expect(await login(agent.secret)).toBe('200 allow')
    for (let i = 0; i < BROKER_AUTH_FAILURES.points; i++) expect(await login(`wrong-${i}`)).toBe('200 deny')
    // the right secret is no longer even checked for this client
    expect(await login(agent.secret)).toBe('200 deny')
    // one provisioning device's wrong keys do not block another device
    for (let i = 0; i < BROKER_AUTH_FAILURES.points; i++) expect(await ask('user', provision('noisy-device', 'not-the-key'))).toBe('200 deny')
    expect(await ask('user', provision('noisy-device'))).toBe('200 deny')
    expect(await ask('user', provision('quiet-device'))).toBe('200 allow')
  })
})
