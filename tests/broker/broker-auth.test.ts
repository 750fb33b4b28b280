// The portal's answers to RabbitMQ's HTTP auth backend (external broker mode): the same identities
// and topic rules as the embedded broker (broker/acl.ts), with AMQP routing keys for topics.
import http from 'node:http'
import { type AddressInfo } from 'node:net'
import express from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { brokerAuthRouter } from '../../broker/http-auth.server'
import { DEFAULT_PROVISIONING_KEY } from '../../protocol'
import { registerAgent, startTestBroker } from './mqtt-helpers'

const broker = startTestBroker()
const servers: http.Server[] = []

async function serve(networks: string[]) {
  const app = express()
  app.use('/broker-auth', brokerAuthRouter({ vhost: '/', exchange: 'amq.topic', networks, log: { warn: () => {} } }))
  const server = http.createServer(app)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push(server)
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/broker-auth`
  return async (path: string, fields: Record<string, string>) => {
    const response = await fetch(`${base}/${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) })
    return `${response.status} ${await response.text()}`
  }
}

let ask: Awaited<ReturnType<typeof serve>>
beforeAll(async () => {
  ask = await serve(['loopback'])
})
afterAll(() => servers.forEach((s) => s.close()))

describe('broker auth endpoints', () => {
  it('checks credentials and client ids like the embedded broker', async () => {
    const agent = await registerAgent(broker.url)
    const user = (username: string, password: string, clientId: string) => ask('user', { username, password, vhost: '/', client_id: clientId })
    expect(await user(agent.agentId, agent.secret, agent.agentId)).toBe('200 allow')
    expect(await user(agent.agentId, 'wrong-secret', agent.agentId)).toBe('200 deny')
    expect(await user(agent.agentId, agent.secret, 'someone-else')).toBe('200 deny')
    expect(await user('provision', DEFAULT_PROVISIONING_KEY, 'new-device-1')).toBe('200 allow')
    expect(await user('provision', DEFAULT_PROVISIONING_KEY, 'bad.client')).toBe('200 deny')
    expect(await user('provision', 'not-the-key', 'new-device-1')).toBe('200 deny')
    expect(await ask('user', { password: 'x' })).toBe('200 deny')
    expect(await ask('vhost', { username: agent.agentId, vhost: '/', client_id: agent.agentId, ip: '127.0.0.1' })).toBe('200 allow')
    expect(await ask('vhost', { username: agent.agentId, vhost: 'other', client_id: agent.agentId })).toBe('200 deny')
  })

  it('confines topics, queues and exchanges to the identity', async () => {
    const { agentId } = await registerAgent(broker.url)
    const topic = (permission: string, routingKey: string, clientId = agentId, username = agentId) =>
      ask('topic', { username, vhost: '/', resource: 'topic', name: 'amq.topic', permission, routing_key: routingKey, 'variable_map.client_id': clientId })
    expect(await topic('write', `pf.v1.agents.${agentId}.req.ping`)).toBe('200 allow')
    expect(await topic('write', `pf.v1.agents.${agentId}.status`)).toBe('200 allow')
    expect(await topic('write', `pf.v1.agents.${agentId}.res.ping`)).toBe('200 deny')
    expect(await topic('write', `pf.v1.agents.${agentId}.config`)).toBe('200 deny')
    expect(await topic('write', 'pf.v1.agents.other-agent.req.ping')).toBe('200 deny')
    expect(await topic('read', `pf.v1.agents.${agentId}.#`)).toBe('200 allow')
    expect(await topic('read', `pf.v1.agents.${agentId}.res.*`)).toBe('200 allow')
    expect(await topic('read', 'pf.v1.agents.*.res.*')).toBe('200 deny')
    expect(await topic('read', '#')).toBe('200 deny')
    expect(await topic('write', 'pf.v1.provision.dev-1.req.register', 'dev-1', 'provision')).toBe('200 allow')
    expect(await topic('write', 'pf.v1.provision.dev-2.req.register', 'dev-1', 'provision')).toBe('200 deny')
    expect(await topic('read', 'pf.v1.provision.dev-1.res.*', 'dev-1', 'provision')).toBe('200 allow')
    // A client id unlike the user name is no agent identity at all.
    expect(await topic('write', `pf.v1.agents.${agentId}.req.ping`, 'intruder')).toBe('200 deny')

    const resource = (resourceType: string, name: string, permission: string) => ask('resource', { username: agentId, vhost: '/', resource: resourceType, name, permission, client_id: agentId })
    expect(await resource('queue', `mqtt-subscription-${agentId}qos1`, 'configure')).toBe('200 allow')
    expect(await resource('queue', 'pixelfleet.ingest', 'read')).toBe('200 deny')
    expect(await resource('exchange', 'amq.topic', 'write')).toBe('200 allow')
    expect(await resource('exchange', 'amq.topic', 'configure')).toBe('200 deny')
    expect(await resource('exchange', 'pixelfleet.events', 'read')).toBe('200 deny')
  })

  it('answers only callers from BROKER_AUTH_NETWORKS', async () => {
    const elsewhere = await serve(['10.0.0.0/8'])
    expect(await elsewhere('vhost', { username: 'provision', vhost: '/', client_id: 'dev-1' })).toBe('403 deny')
  })
})
