import mqtt from 'mqtt'
import { describe, expect, test } from 'vitest'
import { PROVISIONING_USERNAME, agentRequestTopic, agentTopicPrefix, type UpdateClientStateRequest } from '../../protocol'
import { emitChange } from '../../app/domain/events/bus.server'
import { prisma } from '../../app/utils/db.server'
import { connect, connectAgent, nextMessage, registerAgent, startTestBroker } from './mqtt-helpers'

const broker = startTestBroker()

const closed = (client: mqtt.MqttClient) => new Promise<void>((resolve) => (client.disconnected ? resolve() : client.once('close', () => resolve())))

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

const state: UpdateClientStateRequest = {
  systems: [
    {
      id: 'sys-1',
      name: 'Stage A',
      devices: [
        { id: 'proc-1', component: 'processor', product: 'MX40', serial: 'P1', name: 'Processor', versionSoftware: '3.2', properties: { genlockFrequency: 50, inputSource: 'HDMI 1', inputFormat: '1080p50' } },
        { id: 'tile-a', component: 'receiver', product: 'Tile', name: 'Tiles', parent: 'proc-1', count: 24 },
      ],
      alerts: [
        { key: 'recv.tempHigh', component: 'receiver', device: 'tile-a', message: 'Receiver over temperature', severity: 2, history: [{ timestamp: minutesAgo(40), count: 2 }] },
        { key: 'genlock.lost', component: 'processor', message: 'Genlock lost', severity: 4, history: [{ timestamp: minutesAgo(300), count: 0 }] },
      ],
      deviations: [{ key: 'fw.mismatch', component: 'receiver', message: 'Firmware differs', severity: 5, history: [{ timestamp: minutesAgo(1), count: 3 }] }],
    },
  ],
}

describe('broker authentication and topic rules', () => {
  test('wrong secrets, unknown agents and a wrong provisioning key are refused', async () => {
    const agent = await registerAgent(broker.url)
    await expect(mqtt.connectAsync(broker.url, { clientId: agent.agentId, username: agent.agentId, password: 'not-the-secret', reconnectPeriod: 0 })).rejects.toThrow(/Bad username or password/i)
    await expect(mqtt.connectAsync(broker.url, { clientId: 'nobody', username: 'nobody', password: 'x', reconnectPeriod: 0 })).rejects.toThrow(/Bad username or password/i)
    await expect(mqtt.connectAsync(broker.url, { clientId: 'prov-x', username: PROVISIONING_USERNAME, password: 'guess', reconnectPeriod: 0 })).rejects.toThrow(/Bad username or password/i)
    await prisma.agent.update({ where: { id: agent.agentId }, data: { enabled: false } })
    await expect(mqtt.connectAsync(broker.url, { clientId: agent.agentId, username: agent.agentId, password: agent.secret, reconnectPeriod: 0 })).rejects.toThrow(/Not authorized/i)
    expect(broker.warnings.some((w) => w.includes('bad-secret'))).toBe(true)
  })

  test('an agent cannot publish or subscribe as another agent', async () => {
    const alice = await connectAgent(broker.url, await registerAgent(broker.url, 'Alice'))
    const bob = await registerAgent(broker.url, 'Bob')

    // SUBACK failure code 128, which mqtt.js reports as an error.
    await expect(alice.client.subscribeAsync(`${agentTopicPrefix(bob.agentId)}#`, { qos: 1 })).rejects.toThrow(/Subscribe error/)
    await expect(alice.client.subscribeAsync('pf/v1/agents/+/res/+', { qos: 1 })).rejects.toThrow(/Subscribe error/)
    expect((await alice.client.subscribeAsync(`${agentTopicPrefix(alice.agentId)}#`, { qos: 1 }))[0].qos).toBe(1)

    const gone = closed(alice.client)
    alice.client.publish(agentRequestTopic(bob.agentId, 'updateClientState'), JSON.stringify(state), { qos: 1 })
    await gone
    expect(await prisma.system.count({ where: { agentId: bob.agentId } })).toBe(0)
    expect(broker.warnings.some((w) => w.includes(`may not publish to ${agentRequestTopic(bob.agentId, 'updateClientState')}`))).toBe(true)
  })

  test('the provisioning identity can only register on its own topic', async () => {
    const victim = await registerAgent(broker.url)
    const prov = await connect(broker.url, { clientId: 'prov-limited', username: PROVISIONING_USERNAME, password: 'pixelfleet-demo-provisioning-key' })
    await expect(prov.subscribeAsync('pf/v1/provision/#', { qos: 1 })).rejects.toThrow(/Subscribe error/)
    await expect(prov.subscribeAsync(`${agentTopicPrefix(victim.agentId)}#`, { qos: 1 })).rejects.toThrow(/Subscribe error/)
    const gone = closed(prov)
    prov.publish(agentRequestTopic(victim.agentId, 'ping'), JSON.stringify({ metrics: { dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 } }), { qos: 1 })
    await gone
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: victim.agentId } })).dataSegsOut).toBe(0)
  })
})

describe('payload validation', () => {
  test('malformed, invalid and oversize requests are answered with errors while another agent keeps working', async () => {
    const bad = await connectAgent(broker.url, await registerAgent(broker.url, 'Bad'))
    const good = await connectAgent(broker.url, await registerAgent(broker.url, 'Good'))

    const malformed = nextMessage(bad.client, `${agentTopicPrefix(bad.agentId)}res/ping`)
    await bad.client.publishAsync(agentRequestTopic(bad.agentId, 'ping'), '{not json', { qos: 1 })
    expect(await malformed).toMatchObject({ ok: false, error: { code: 'invalid-json' } })

    const invalid = await bad.call('ping', { metrics: { dataSegsOut: -5, dsackDups: 0, totalRetrans: 0 } })
    expect(invalid).toMatchObject({ ok: false, requestId: 'q1', error: { code: 'invalid-payload' } })
    expect(JSON.stringify(invalid)).toContain('metrics.dataSegsOut')

    const huge = 'x'.repeat(1024 * 1024 + 10)
    const oversize = await bad.call('updateClientState', { systems: [{ id: 's', name: huge }] })
    expect(oversize).toMatchObject({ ok: false, error: { code: 'payload-too-large' } })
    expect(await prisma.system.count({ where: { agentId: bad.agentId } })).toBe(0)

    // The offender is still connected and the other agent is served normally.
    expect(bad.client.connected).toBe(true)
    const ok = await good.call('ping', { metrics: { dataSegsOut: 2000, dsackDups: 10, totalRetrans: 50 } })
    expect(ok).toMatchObject({ ok: true, result: { metrics: { dataSegsOut: 2000 } } })
    expect(broker.warnings.some((w) => w.includes('payload-too-large'))).toBe(true)
  })
})

describe('ingest', () => {
  test('a state report creates systems, devices and issues with counts and worst severities', async () => {
    const agent = await connectAgent(broker.url, await registerAgent(broker.url))
    const response = await agent.call('updateClientState', state)
    expect(response).toMatchObject({ ok: true, result: { systems: 1, devices: 2, alerts: 2, deviations: 1 } })

    const system = await prisma.system.findFirstOrThrow({ where: { agentId: agent.agentId }, include: { devices: true, issues: { include: { history: true } } } })
    expect(system).toMatchObject({ key: 'sys-1', name: 'Stage A', alertsCount: 1, alertsSeverity: 2, deviationsCount: 1, deviationsSeverity: 5 })
    expect(system.devices.map((d) => [d.key, d.component, d.count]).sort()).toEqual([
      ['proc-1', 'processor', 1],
      ['tile-a', 'receiver', 24],
    ])
    expect(JSON.parse(system.devices.find((d) => d.key === 'proc-1')!.properties)).toMatchObject({ genlockFrequency: 50, inputSource: 'HDMI 1' })
    const temp = system.issues.find((i) => i.key === 'recv.tempHigh')!
    expect(temp).toMatchObject({ kind: 'alert', isActive: true, latestCount: 2, activation: 1, deviceKey: 'tile-a' })
    expect(system.issues.find((i) => i.key === 'genlock.lost')).toMatchObject({ isActive: false, activation: 0 })
    expect(await prisma.agent.findUniqueOrThrow({ where: { id: agent.agentId } })).toMatchObject({ alertsCount: 1, alertsSeverity: 2, deviationsCount: 1, deviationsSeverity: 5 })

    // The alert clears (healthy 20 minutes ago, past the one-minute hold-down), then comes back: history grows, activation counts each start.
    const cleared = structuredClone(state)
    cleared.systems[0].alerts![0].history = [{ timestamp: minutesAgo(20), count: 0 }]
    await agent.call('updateClientState', cleared)
    const back = structuredClone(state)
    back.systems[0].alerts![0].history = [{ timestamp: minutesAgo(0.5), count: 1 }]
    await agent.call('updateClientState', back)
    const again = await prisma.issue.findUniqueOrThrow({ where: { id: temp.id }, include: { history: { orderBy: { timestamp: 'asc' } } } })
    expect(again).toMatchObject({ isActive: true, activation: 2, latestCount: 1 })
    expect(again.history.map((h) => h.count)).toEqual([2, 0, 1])
  })

  test('the PUBACK of a QoS 1 state arrives only after the rows are committed', async () => {
    const agent = await connectAgent(broker.url, await registerAgent(broker.url))
    for (let i = 0; i < 5; i++) {
      await agent.client.publishAsync(agentRequestTopic(agent.agentId, 'updateClientState'), JSON.stringify({ systems: [{ id: `sys-${i}`, name: `System ${i}` }] }), { qos: 1 })
      // No wait for the response: the acknowledgement alone must mean "stored".
      expect(await prisma.system.count({ where: { agentId: agent.agentId, key: `sys-${i}` } })).toBe(1)
    }
  })

  test('every call is counted per hour and recorded as an agent event', async () => {
    const agent = await connectAgent(broker.url, await registerAgent(broker.url))
    await agent.call('ping', { metrics: { dataSegsOut: 100, dsackDups: 0, totalRetrans: 1 }, tunnel: false })
    await agent.call('ping', { metrics: { dataSegsOut: 200, dsackDups: 0, totalRetrans: 2 } })
    await agent.call('updateClientState', state)
    const application = await agent.call('createApplication', {})
    expect((application.result as { applicationCode: string }).applicationCode).toMatch(/^[A-Z0-9]{3}-[A-Z0-9]{2}-[A-Z0-9]{3}$/)
    await agent.call('getTunnelConfig', {})

    const usage = await prisma.usageCounter.findMany({ where: { agentId: agent.agentId } })
    // summed per call: a run across the top of an hour counts in two rows
    const byCall: Record<string, number> = {}
    for (const u of usage) byCall[u.call] = (byCall[u.call] ?? 0) + u.count
    expect(byCall).toMatchObject({ register: 1, ping: 2, updateClientState: 1, createApplication: 1, getTunnelConfig: 1 })
    const events = await prisma.agentEvent.findMany({ where: { agentId: agent.agentId }, orderBy: { createdAt: 'asc' } })
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['register', 'ping', 'updateClientState', 'createApplication', 'getTunnelConfig']))
    const stateEvent = events.find((e) => e.type === 'updateClientState')!
    expect(stateEvent.systemId).toBe((await prisma.system.findFirstOrThrow({ where: { agentId: agent.agentId } })).id)
    expect(await prisma.agent.findUniqueOrThrow({ where: { id: agent.agentId } })).toMatchObject({ dataSegsOut: 200, totalRetrans: 2, tunnelStatus: 'false', lastIp: '127.0.0.1' })
  })

  test('the agent learns its new configuration on the retained config topic when it is enrolled', async () => {
    const registered = await registerAgent(broker.url)
    const agent = await connectAgent(broker.url, registered)
    const initial = nextMessage(agent.client, `${agentTopicPrefix(agent.agentId)}config`)
    await agent.client.subscribeAsync(`${agentTopicPrefix(agent.agentId)}config`, { qos: 1 })
    expect(await initial).toEqual({ config: {}, organizationId: null, enrolled: false })
    const owner = await prisma.user.create({ data: { email: `config-${Date.now()}@broker.test`, name: 'Owner' } })
    const organization = await prisma.organization.create({ data: { name: 'Config org', ownerId: owner.id } })
    const pushed = nextMessage(agent.client, `${agentTopicPrefix(agent.agentId)}config`)
    await prisma.agent.update({ where: { id: agent.agentId }, data: { organizationId: organization.id, config: JSON.stringify({ reportInterval: 30 }) } })
    emitChange({ organizationId: organization.id, kind: 'agent', ids: [agent.agentId] })
    expect(await pushed).toEqual({ config: { reportInterval: 30 }, organizationId: organization.id, enrolled: true })
    expect(await agent.call('getClientConfig', {})).toMatchObject({ ok: true, result: { enrolled: true, organizationId: organization.id } })
  })
})
