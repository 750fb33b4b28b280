/**
 * The ingest worker thread: raw payloads are parsed, validated and committed off the main thread;
 * replies settle after the commit, refusals do not hurt the worker, a crashed worker is restarted
 * and every acknowledged message is stored; change events reach the main thread's subscribers;
 * Prisma's transactions keep working next to the worker's connection.
 */
import { afterAll, expect, test } from 'vitest'
import { type UpdateClientStateRequest } from '../../protocol'
import { drainIngest, handleCall, handleReceivedCall } from '../../ingest/agent-gateway.server'
import { runningIngestWorker, stopIngestWorker } from '../../ingest/worker.server'
import { onChange, type ChangeEvent } from '../../app/domain/events/bus.server'
import { isIngestChange } from '../../app/domain/events/ingest-origin.server'
import { prisma } from '../../app/utils/db.server'

afterAll(() => stopIngestWorker())

let serial = 0
const newAgent = () => prisma.agent.create({ data: { product: 'Processor X', serial: `W-${++serial}`, secretHash: 'x' } })
const meta = () => ({ ip: '127.0.0.1', receivedAt: new Date() })

const stateOf = (tiles: number): UpdateClientStateRequest => ({
  systems: [{ id: 'stage', name: 'Stage', devices: [{ id: 'tiles', component: 'receiver', product: 'Tile', name: 'Tiles', count: tiles }] }],
})
const raw = (body: unknown) => Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
const usageOf = async (agentId: string) => (await prisma.usageCounter.findMany({ where: { agentId } })).reduce((sum, u) => sum + u.count, 0)

test('a raw state report is parsed, validated and committed by the worker before its reply; change events reach this thread', async () => {
  const owner = await prisma.user.create({ data: { email: 'worker-owner@broker.test', name: 'Owner' } })
  const organization = await prisma.organization.create({ data: { name: 'Worker org', ownerId: owner.id } })
  const agent = await prisma.agent.create({ data: { product: 'Processor X', serial: 'W-org', secretHash: 'x', organizationId: organization.id } })
  const events: { event: ChangeEvent; own: boolean }[] = []
  const off = onChange((event) => events.push({ event, own: isIngestChange() }))
  const outcome = await handleReceivedCall(agent.id, 'updateClientState', raw({ requestId: 'r1', ...stateOf(24) }), meta())
  off()

  expect(runningIngestWorker()).not.toBeNull()
  expect(outcome.failed).toBeUndefined()
  expect(outcome.refusal).toBeUndefined()
  expect(JSON.parse(outcome.response)).toEqual({ requestId: 'r1', ok: true, result: { systems: 1, devices: 1, alerts: 0, deviations: 0 } })
  // Committed when the reply arrived: Prisma's connection sees the rows.
  const device = await prisma.device.findFirstOrThrow({ where: { system: { agentId: agent.id } } })
  expect(device.count).toBe(24)
  expect(await usageOf(agent.id)).toBe(1)
  expect(events).toContainEqual({ event: expect.objectContaining({ organizationId: organization.id, kind: 'system' }), own: true })

  // A validated call through the transport-neutral entry (AMQP consumers use it) takes the same path.
  const pinged = await handleCall(agent.id, 'ping', { metrics: { dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 } }, meta())
  expect(pinged.metrics.dataSegsOut).toBe(1)
  expect(await usageOf(agent.id)).toBe(2)
})

test('malformed and invalid payloads and unknown agents are refused without killing the worker', async () => {
  const agent = await newAgent()
  const restarts = runningIngestWorker()?.restartCount ?? 0
  const [notJson, invalid, unknown] = await Promise.all([
    handleReceivedCall(agent.id, 'updateClientState', raw('{"systems": ['), meta()),
    handleReceivedCall(agent.id, 'updateClientState', raw({ requestId: 'bad', systems: [{ id: 'x', name: 'X', devices: [{ id: 'd', component: 'toaster' }] }] }), meta()),
    handleReceivedCall('no-such-agent', 'updateClientState', raw(stateOf(1)), meta()),
  ])
  expect(JSON.parse(notJson.response).error.code).toBe('invalid-json')
  expect(JSON.parse(invalid.response)).toMatchObject({ requestId: 'bad', ok: false, error: { code: 'invalid-payload' } })
  expect(JSON.parse(unknown.response).error.code).toBe('not-found')
  for (const outcome of [notJson, invalid, unknown]) {
    expect(outcome.refusal).toBeTruthy()
    expect(outcome.failed).toBeUndefined()
  }
  const ok = await handleReceivedCall(agent.id, 'updateClientState', raw(stateOf(3)), meta())
  expect(JSON.parse(ok.response).ok).toBe(true)
  expect(runningIngestWorker()?.restartCount).toBe(restarts)
  expect(await usageOf(agent.id)).toBe(1)
})

test('a crashed worker is restarted; every acknowledged message is stored and the unacknowledged ones succeed when resent', async () => {
  const agents = await Promise.all(Array.from({ length: 4 }, newAgent))
  const worker = runningIngestWorker()!
  const restarts = worker.restartCount
  const send = (i: number) => handleReceivedCall(agents[i % agents.length].id, 'updateClientState', raw(stateOf(i % 7)), meta())
  // Warm: the worker is busy committing when it dies.
  await send(0)
  const results = Array.from({ length: 400 }, (_, i) => send(i))
  setTimeout(() => worker.crash(), 5)
  const settled = await Promise.allSettled(results)
  const acknowledged = settled.filter((r) => r.status === 'fulfilled' && !r.value.failed).length
  const lost = settled.length - acknowledged
  await expect.poll(() => worker.restartCount, { timeout: 30_000 }).toBe(restarts + 1)

  // What was acknowledged is stored (at least once); the rest is resent, as an MQTT client does without its PUBACK.
  let stored = 0
  for (const agent of agents) stored += await usageOf(agent.id)
  expect(stored).toBeGreaterThanOrEqual(1 + acknowledged)
  const resent = await Promise.all(settled.map((r, i) => (r.status === 'fulfilled' && !r.value.failed ? null : send(i))))
  expect(resent.every((r) => r === null || (!r.failed && JSON.parse(r.response).ok))).toBe(true)
  await drainIngest()
  let total = 0
  for (const agent of agents) total += await usageOf(agent.id)
  expect(total).toBeGreaterThanOrEqual(1 + 400)
  expect(lost + acknowledged).toBe(400)
})

test("the web's Prisma transactions (read, then write) keep working while the worker commits", async () => {
  const agents = await Promise.all(Array.from({ length: 8 }, newAgent))
  // Reports keep the worker committing during every transaction below.
  let editing = true
  const reporting = (async () => {
    const outcomes = []
    for (let round = 0; editing; round++) outcomes.push(...(await Promise.all(agents.map((a, i) => handleReceivedCall(a.id, 'updateClientState', raw(stateOf((round + i) % 5)), meta())))))
    return outcomes
  })()
  const failures: string[] = []
  for (let i = 0; i < 10; i++) {
    // A deferred transaction would fail here with SQLITE_BUSY: the worker commits between its read and its write.
    await prisma
      .$transaction(async (tx) => {
        const agent = await tx.agent.findUniqueOrThrow({ where: { id: agents[i % 8].id } })
        await new Promise((r) => setTimeout(r, 10))
        return tx.agent.update({ where: { id: agent.id }, data: { clientName: `renamed ${i}` } })
      })
      .catch((error: unknown) => failures.push(String(error)))
  }
  editing = false
  const outcomes = await reporting
  expect(failures).toEqual([])
  expect(outcomes.length).toBeGreaterThanOrEqual(8)
  expect(outcomes.every((r) => !r.failed)).toBe(true)
  expect((await prisma.agent.findUniqueOrThrow({ where: { id: agents[1].id } })).clientName).toBe('renamed 9')
})
