/**
 * The offline sweeper in a fleet with over a thousand silent systems: the lookup of their existing
 * offline issues used to bind every system id and failed each sweep (SQLite takes 999 parameters),
 * so no 'Agent offline' alarm was ever raised. (No notification delivery runs in this file.)
 */
import { describe, expect, it } from 'vitest'
import { sweepOfflineAgents } from '~/domain/alarms/offline.server'
import { prisma } from '~/utils/db.server'

describe('offline alarm in a large fleet', () => {
  it('is raised for 1,050 silent systems in one sweep, and once only', async () => {
    const owner = await prisma.user.create({ data: { email: 'owner@offline-fleet.test', name: 'Owner', emailVerified: true } })
    const org = await prisma.organization.create({ data: { name: 'Offline Fleet', ownerId: owner.id } })
    const stage = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
    const seen = new Date('2040-03-01T12:00:00Z')
    const agents = Array.from({ length: 1_050 }, (_, i) => ({ id: `offline-fleet-${i}`, clientName: `Silent ${i}`, secretHash: 'x', organizationId: org.id, lastSeen: seen }))
    await prisma.agent.createMany({ data: agents })
    await prisma.system.createMany({ data: agents.map((a) => ({ agentId: a.id, key: 'sys', name: a.clientName, projectId: stage.id })) })

    const result = await sweepOfflineAgents(new Date(seen.getTime() + 10 * 60_000))
    expect(result.raised).toHaveLength(1_050)
    const active = await prisma.issue.findMany({ where: { key: 'agent.offline', isActive: true, system: { agent: { organizationId: org.id } } }, select: { severity: true, message: true } })
    expect(active).toHaveLength(1_050)
    expect(active[0]).toMatchObject({ severity: 2, message: 'Agent offline: not seen for 5 minutes' })
    // the next sweep finds them all raised
    expect((await sweepOfflineAgents(new Date(seen.getTime() + 11 * 60_000))).raised).toHaveLength(0)
  }, 60_000)
})
