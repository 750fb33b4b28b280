import { describe, expect, test } from 'vitest'
import { systemActor, type UserActor } from '~/domain/actor'
import { enrollAgent } from '~/domain/agents/enrollment.server'
import { drainIngest } from '../../ingest/agent-gateway.server'
import { clearEventAggregation, runEventAggregation, usageAggregated } from '~/domain/billing/usage-admin.server'
import { periodStart, shiftPeriod, type UsagePeriod } from '~/domain/billing/usage-periods'
import { prisma } from '~/utils/db.server'
import { connectAgent, registerAgent, startTestBroker, type AgentConnection } from './mqtt-helpers'

const broker = startTestBroker()

const metrics = { dataSegsOut: 100, dsackDups: 0, totalRetrans: 1 }
const system = (key: string) => ({ systems: [{ id: key, name: `System ${key}` }] })

/** What each simulated agent sends once enrolled: a known number of each call. */
const PLAN = [
  { ping: 5, updateClientState: 3, getClientConfig: 2, setClientConfig: 1, getTunnelConfig: 2, createApplication: 1 },
  { ping: 2, updateClientState: 4, getClientConfig: 1, setClientConfig: 2, getTunnelConfig: 0, createApplication: 0 },
] as const
type Plan = (typeof PLAN)[number]

async function send(agent: AgentConnection, key: string, plan: Plan) {
  const ok = async (p: Promise<Record<string, unknown>>) => expect(await p).toMatchObject({ ok: true })
  // The state report comes first: later calls are then tagged with the project of its system.
  for (let i = 0; i < plan.updateClientState; i++) await ok(agent.call('updateClientState', system(key)))
  for (let i = 0; i < plan.ping; i++) await ok(agent.call('ping', { metrics }))
  for (let i = 0; i < plan.getClientConfig; i++) await ok(agent.call('getClientConfig', {}))
  for (let i = 0; i < plan.setClientConfig; i++) await ok(agent.call('setClientConfig', { config: { reportIntervalSeconds: 30 + i } }))
  for (let i = 0; i < plan.getTunnelConfig; i++) await ok(agent.call('getTunnelConfig', {}))
  for (let i = 0; i < plan.createApplication; i++) await ok(agent.call('createApplication', {}))
}

const sum = (plan: Plan) => Object.values(plan).reduce((a: number, b: number) => a + b, 0)

describe('admin usage overview against a simulated fleet', () => {
  test('usageAggregated reports exactly the calls the agents made, by organization and by project', async () => {
    const owner = await prisma.user.create({ data: { email: 'usage-owner@broker.test', name: 'Owner' } })
    const staffUser = await prisma.user.create({ data: { email: 'usage-staff@pixelfleet.io', name: 'Staff', isAdmin: true } })
    const staff: UserActor = { kind: 'user', userId: staffUser.id, email: staffUser.email, name: staffUser.name, isSiteAdmin: true, ip: '127.0.0.1', userAgent: 'vitest' }
    const org = await prisma.organization.create({ data: { name: 'Usage org', ownerId: owner.id } })
    const projectA = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage A' } })
    const projectB = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage B' } })

    // Three agents: two enrolled (one per project), one never enrolled (its calls are nobody's usage).
    const agents: AgentConnection[] = []
    for (const [i, projectId] of [projectA.id, projectB.id].entries()) {
      const agent = await connectAgent(broker.url, await registerAgent(broker.url, `Usage ${i}`))
      const code = ((await agent.call('createApplication', {})).result as { applicationCode: string }).applicationCode
      await enrollAgent(systemActor('usage test'), { applicationCode: code, organizationId: org.id, projectId })
      agents.push(agent)
    }
    const stray = await connectAgent(broker.url, await registerAgent(broker.url, 'Stray'))

    const from = new Date()
    await send(agents[0], 'sys-a', PLAN[0])
    await send(agents[1], 'sys-b', PLAN[1])
    await stray.call('ping', { metrics })
    await drainIngest()
    const to = new Date()

    const expectedCalls = Object.fromEntries(Object.keys(PLAN[0]).map((c) => [c, PLAN[0][c as keyof Plan] + PLAN[1][c as keyof Plan]]))
    for (const period of ['monthly', 'daily', 'hourly'] as UsagePeriod[]) {
      // The calls may straddle a period boundary: add up every period between the first and the last call.
      const starts = [periodStart(period, from)]
      while (shiftPeriod(period, starts.at(-1)!, 1) <= to) starts.push(shiftPeriod(period, starts.at(-1)!, 1))
      const figures = await Promise.all(starts.map((s) => usageAggregated(staff, { organizationId: org.id, period, sourceDate: s.toISOString(), groupBy: 'organization' })))
      const total = figures.reduce((n, f) => n + f.apiCalls, 0)
      expect({ period, total }).toEqual({ period, total: sum(PLAN[0]) + sum(PLAN[1]) })
      const calls: Record<string, number> = {}
      for (const f of figures) for (const [c, n] of Object.entries(f.calls)) calls[c] = (calls[c] ?? 0) + n
      expect(calls).toMatchObject({ ...expectedCalls, register: 0, selfEnroll: 0 })
      if (starts.length === 1) expect(figures[0].activeClients).toBe(2)

      for (const [i, project] of [projectA, projectB].entries()) {
        const byProject = await Promise.all(
          starts.map((s) => usageAggregated(staff, { organizationId: org.id, period, sourceDate: s.toISOString(), groupBy: 'project', projectId: project.id })),
        )
        expect({ period, project: project.name, calls: byProject.reduce((n, f) => n + f.apiCalls, 0) }).toEqual({ period, project: project.name, calls: sum(PLAN[i]) })
      }
    }

    // Cached figures: served as cached until refreshed; run rebuilds, clear drops, both audited.
    const now = { organizationId: org.id, period: 'monthly', sourceDate: to.toISOString(), groupBy: 'organization' }
    const before = await usageAggregated(staff, now)
    expect(before.cached).toBe(true)
    await agents[0].call('ping', { metrics })
    await drainIngest()
    expect((await usageAggregated(staff, now)).apiCalls).toBe(before.apiCalls)
    expect(await usageAggregated(staff, { ...now, refresh: true })).toMatchObject({ apiCalls: before.apiCalls + 1, cached: false })
    const rebuilt = await runEventAggregation(staff, { organizationId: org.id, type: 'usage' })
    expect(rebuilt.rebuilt).toBeGreaterThanOrEqual(3 + 7 + 12)
    const cleared = await clearEventAggregation(staff, { organizationId: org.id, type: 'usage' })
    expect(cleared.cleared).toBeGreaterThanOrEqual(3 + 7 + 12)
    expect(await prisma.usageAggregate.count({ where: { organizationId: org.id } })).toBe(0)
    await expect(runEventAggregation(staff, { organizationId: org.id, type: 'events' })).rejects.toMatchObject({ message: "Only the 'usage' aggregation exists" })
    const audit = await prisma.auditRecord.findMany({ where: { organizationId: org.id, action: { startsWith: 'usage.' } }, orderBy: { createdAt: 'asc' } })
    expect(audit.map((a) => a.action)).toEqual(['usage.aggregate', 'usage.clear'])
  })
})
