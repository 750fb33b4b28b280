import { expect, test } from 'vitest'
import { agentCallSchemas, type UpdateClientStateRequest } from '../../protocol'
import { DomainError } from '../../app/domain/errors'
import { drainIngest, ingestCall, ingestPresence } from '../../ingest/pipeline.server'
import { ingestRaw } from '../../ingest/raw.server'
import { prisma } from '../../app/utils/db.server'

let serial = 0
const newAgent = () => prisma.agent.create({ data: { product: 'Processor X', serial: `SN-${++serial}`, secretHash: 'x' } })

const stateOf = (name: string, tiles: number): UpdateClientStateRequest => ({
  systems: [
    {
      id: 'stage',
      name,
      devices: [{ id: 'tiles', component: 'receiver', product: 'Tile', name: 'Tiles', count: tiles }],
      alerts: [{ key: 'recv.tempHigh', component: 'receiver', device: 'tiles', message: 'Receiver over temperature', severity: 3, history: [{ timestamp: new Date().toISOString(), count: 1 }] }],
    },
  ],
})

/** Calls issued in the same tick share one batch (one transaction). */
const report = (agentId: string, state: UpdateClientStateRequest) =>
  ingestCall(agentId, 'updateClientState', agentCallSchemas.updateClientState.request.parse(state), { ip: '127.0.0.1', receivedAt: new Date() })

async function storedState(agentId: string) {
  const system = await prisma.system.findFirst({ where: { agentId }, include: { devices: true } })
  const usage = await prisma.usageCounter.findMany({ where: { agentId } })
  const events = await prisma.agentEvent.count({ where: { agentId, type: 'updateClientState' } })
  const agent = await prisma.agent.findUniqueOrThrow({ where: { id: agentId } })
  return { system, tiles: system?.devices[0]?.count, usage: usage.reduce((sum, u) => sum + u.count, 0), events, alerts: agent.alertsCount, lastSeen: agent.lastSeen }
}

test('a message that fails inside a batch is refused alone; its companions commit', async () => {
  const [first, second] = await Promise.all([newAgent(), newAgent()])
  const results = await Promise.allSettled([report(first.id, stateOf('Stage A', 24)), report('no-such-agent', stateOf('Ghost', 1)), report(second.id, stateOf('Stage B', 12))])

  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
  const refusal = (results[1] as PromiseRejectedResult).reason
  expect(refusal).toBeInstanceOf(DomainError)
  expect((refusal as DomainError).code).toBe('not-found')
  for (const [agentId, name, tiles] of [
    [first.id, 'Stage A', 24],
    [second.id, 'Stage B', 12],
  ] as const) {
    const stored = await storedState(agentId)
    expect(stored.system?.name).toBe(name)
    expect(stored).toMatchObject({ tiles, usage: 1, events: 1, alerts: 1 })
    expect(stored.lastSeen).not.toBeNull()
  }
})

test('when the shared part of a batch fails, each message is retried alone and the others still commit', async () => {
  const [doomed, healthy] = await Promise.all([newAgent(), newAgent()])
  await Promise.all([report(doomed.id, stateOf('Doomed', 1)), report(healthy.id, stateOf('Healthy', 1))])
  // Deleted behind ingest's back (no change event), so ingest still has it cached: its usage row
  // then violates the foreign key when the batch writes its totals.
  await prisma.agent.delete({ where: { id: doomed.id } })

  const results = await Promise.allSettled([report(doomed.id, stateOf('Doomed', 2)), report(healthy.id, stateOf('Healthy', 7))])
  expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled'])
  expect(await storedState(healthy.id)).toMatchObject({ tiles: 7, usage: 2, events: 2 })
  await drainIngest()
})

test('an unchanged report rewrites nothing but a changed device is stored', async () => {
  const agent = await newAgent()
  await report(agent.id, stateOf('Stage C', 24))
  const device = await prisma.device.findFirstOrThrow({ where: { system: { agentId: agent.id } } })
  await report(agent.id, stateOf('Stage C', 24))
  expect(await prisma.device.findFirstOrThrow({ where: { system: { agentId: agent.id } } })).toEqual(device)
  await report(agent.id, stateOf('Stage C', 30))
  expect(await storedState(agent.id)).toMatchObject({ tiles: 30, usage: 3, events: 3 })
})

test('a batch of many agents stores every one of them: last seen, presence, usage and one event each, events in order', async () => {
  // more agents than one multi-row statement takes (64), so the rows are split over several
  const agents = await Promise.all(Array.from({ length: 70 }, () => newAgent()))
  await Promise.all(agents.map((a) => ingestPresence(a.id, true, {})))
  await Promise.all(agents.map((a, i) => report(a.id, stateOf(`Stage ${i}`, i + 1))))
  await Promise.all(agents.map((a, i) => report(a.id, stateOf(`Stage ${i}`, i + 1))))
  for (const [i, agent] of agents.entries()) {
    const stored = await storedState(agent.id)
    expect(stored).toMatchObject({ tiles: i + 1, usage: 2, events: 2, alerts: 1 })
    expect(stored.lastSeen).not.toBeNull()
  }
  const ids = agents.map((a) => a.id)
  expect(await prisma.agent.count({ where: { id: { in: ids }, online: true } })).toBe(70)
  const events = await prisma.agentEvent.findMany({ where: { agentId: { in: ids } }, orderBy: { createdAt: 'asc' } })
  expect(events).toHaveLength(140)
  expect(new Set(events.map((e) => e.id)).size).toBe(140)
  // ids sort like their creation time (agent events go in at the end of their primary-key index)
  expect(events.every((e) => /^[-\w]{20}$/.test(e.id))).toBe(true)
  for (const a of events) for (const b of events) if (a.createdAt < b.createdAt) expect(a.id < b.id).toBe(true)
})

test('a raw payload that is not valid JSON or fails validation is refused alone inside its batch', async () => {
  const [agent, other] = await Promise.all([newAgent(), newAgent()])
  const bytes = (value: unknown) => new Uint8Array(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)))
  const meta = { ip: '127.0.0.1', receivedAt: new Date() }
  const [valid, malformed, invalid] = await Promise.all([
    ingestRaw(agent.id, 'updateClientState', bytes({ ...stateOf('Stage R', 5), requestId: 'r-1' }), meta),
    ingestRaw(other.id, 'updateClientState', bytes('{"systems": ['), meta),
    ingestRaw(other.id, 'updateClientState', bytes({ requestId: 'r-3', systems: 'none' }), meta),
  ])
  expect(JSON.parse(valid.response)).toMatchObject({ requestId: 'r-1', ok: true, result: { systems: 1, devices: 1 } })
  expect(valid.refusal).toBeUndefined()
  expect(JSON.parse(malformed.response)).toMatchObject({ requestId: null, ok: false, error: { code: 'invalid-json' } })
  const refused = JSON.parse(invalid.response)
  expect(refused).toMatchObject({ requestId: 'r-3', ok: false, error: { code: 'invalid-payload' } })
  expect(refused.error.issues.length).toBeGreaterThan(0)
  expect(await storedState(agent.id)).toMatchObject({ tiles: 5, usage: 1, events: 1 })
  expect(await storedState(other.id)).toMatchObject({ usage: 0, events: 0 })
})
