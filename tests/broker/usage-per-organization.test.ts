import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { agentCallSchemas } from '../../protocol'
import { systemActor } from '../../app/domain/actor'
import { onAgentConfigChange } from '../../ingest/agent-gateway.server'
import { removeAgentFromOrganization } from '../../app/domain/agents/agents.server'
import { enrollAgent } from '../../app/domain/agents/enrollment.server'
import { drainIngest, ingestCall } from '../../ingest/pipeline.server'
import { prisma } from '../../app/utils/db.server'

// Usage counters are per agent, hour, call and organization (docs/decisions/018): calls after an
// enrollment or a move within the hour count for the organization the agent is in when served.

const HOUR = 3_600_000
const actor = systemActor('usage per organization test')

// The broker's wiring: people's changes (enrollment, removal) empty ingest's caches.
let stopForgetting: () => void = () => {}
beforeAll(() => {
  stopForgetting = onAgentConfigChange(() => {})
})
afterAll(() => stopForgetting())
afterEach(() => vi.useRealTimers())

/** Stands the clock in the middle of the current hour, so every call of a test falls in one hour whenever it runs. */
function pinMidHour(): Date {
  const hour = Math.floor(Date.now() / HOUR) * HOUR
  vi.useFakeTimers({ toFake: ['Date'], now: hour + HOUR / 2 })
  return new Date(hour)
}

let serial = 0
const newAgent = () => prisma.agent.create({ data: { product: 'Processor X', serial: `SN-usage-${++serial}`, secretHash: 'x' } })

async function newOrganization(name: string) {
  const owner = await prisma.user.create({ data: { email: `owner-${++serial}@usage.test`, name: 'Owner' } })
  const organization = await prisma.organization.create({ data: { name, ownerId: owner.id } })
  const project = await prisma.project.create({ data: { organizationId: organization.id, name: 'Stage' } })
  return { id: organization.id, projectId: project.id }
}

const meta = () => ({ ip: null, receivedAt: new Date() })
const ping = (agentId: string) => ingestCall(agentId, 'ping', agentCallSchemas.ping.request.parse({ metrics: { dataSegsOut: 1, dsackDups: 0, totalRetrans: 0 } }), meta())

/** `n` pings: half one after another (a batch each), half at once (one batch). */
async function pings(agentId: string, n: number) {
  for (let i = 0; i < Math.ceil(n / 2); i++) await ping(agentId)
  await Promise.all(Array.from({ length: Math.floor(n / 2) }, () => ping(agentId)))
}

/** Enrolls the agent the way a person does: a code from the agent (a counted call), then agent/enroll. */
async function enroll(agentId: string, organization: { id: string; projectId: string }) {
  const { applicationCode } = await ingestCall(agentId, 'createApplication', {}, meta())
  await enrollAgent(actor, { applicationCode, organizationId: organization.id, projectId: organization.projectId })
}

/** The agent's counted calls by organization ('none' = unassigned) and call; every row is of `hour`. */
async function usageOf(agentId: string, hour: Date) {
  await drainIngest()
  const rows = await prisma.usageCounter.findMany({ where: { agentId } })
  expect(rows.map((r) => r.hour.toISOString())).toEqual(rows.map(() => hour.toISOString()))
  const usage: Record<string, Record<string, number>> = {}
  for (const r of rows) {
    const organization = (usage[r.organizationId ?? 'none'] ??= {})
    // one row per organization and call
    expect(organization[r.call]).toBeUndefined()
    organization[r.call] = r.count
  }
  return usage
}

/** An organization's usage of the hour as its readers (billing, admin usage) would sum it. */
async function organizationTotal(organizationId: string, hour: Date) {
  const { _sum } = await prisma.usageCounter.aggregate({ where: { organizationId, hour }, _sum: { count: true } })
  return _sum.count ?? 0
}

describe('usage counters per organization', () => {
  test('an agent enrolled within the hour: the calls after the enrollment count for the organization, those before stay unassigned', async () => {
    const hour = pinMidHour()
    const organization = await newOrganization('Enrolled mid-hour')
    const agent = await newAgent()

    await pings(agent.id, 5)
    await enroll(agent.id, organization)
    await pings(agent.id, 7)
    await ingestCall(agent.id, 'getTunnelConfig', {}, meta())

    expect(await usageOf(agent.id, hour)).toEqual({
      none: { ping: 5, createApplication: 1 },
      [organization.id]: { ping: 7, getTunnelConfig: 1 },
    })
    expect(await organizationTotal(organization.id, hour)).toBe(8)
  })

  test('an agent moved from one organization to another within the hour: each counts the calls served while the agent was in it', async () => {
    const hour = pinMidHour()
    const [first, second] = [await newOrganization('Moved from'), await newOrganization('Moved to')]
    const agent = await newAgent()

    await enroll(agent.id, first)
    await pings(agent.id, 4)
    // a move is a removal and a new enrollment (a code is only good for an agent in no organization)
    await removeAgentFromOrganization(actor, { organizationId: first.id, agentId: agent.id })
    await enroll(agent.id, second)
    await pings(agent.id, 6)

    expect(await usageOf(agent.id, hour)).toEqual({
      none: { createApplication: 2 },
      [first.id]: { ping: 4 },
      [second.id]: { ping: 6 },
    })
    expect(await organizationTotal(first.id, hour)).toBe(4)
    expect(await organizationTotal(second.id, hour)).toBe(6)
  })

  test('calls of an agent in no organization land in one row per call, batch after batch', async () => {
    const hour = pinMidHour()
    const agent = await newAgent()

    await pings(agent.id, 40)
    await pings(agent.id, 40)

    expect(await usageOf(agent.id, hour)).toEqual({ none: { ping: 80 } })
    expect(await prisma.usageCounter.count({ where: { agentId: agent.id } })).toBe(1)
  })
})
