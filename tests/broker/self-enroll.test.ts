import { describe, expect, test } from 'vitest'
import { type UserActor } from '../../app/domain/actor'
import { setSelfEnrollTargets } from '../../app/domain/agents/self-enroll.server'
import { prisma } from '../../app/utils/db.server'
import { connectAgent, registerAgent, startTestBroker } from './mqtt-helpers'

const broker = startTestBroker()

const siteAdmin: UserActor = { kind: 'user', userId: 'staff', email: 'staff@pixelfleet.io', name: 'Staff', isSiteAdmin: true, ip: '', userAgent: '' }

async function organizationWithProjects() {
  const owner = await prisma.user.create({ data: { email: `owner-${Date.now()}-${Math.random()}@a.test`, name: 'Owner' } })
  const org = await prisma.organization.create({ data: { name: 'Self-enroll org', ownerId: owner.id } })
  const allowed = await prisma.project.create({ data: { organizationId: org.id, name: 'Open wall' } })
  const closed = await prisma.project.create({ data: { organizationId: org.id, name: 'Closed wall' } })
  return { org, allowed, closed }
}

describe('selfEnroll over MQTT', () => {
  test('an agent enrolls itself only into a pair a site admin allowed, and the call is counted', async () => {
    const { org, allowed, closed } = await organizationWithProjects()
    await setSelfEnrollTargets(siteAdmin, { targets: [{ organizationId: org.id, projectId: allowed.id }] })
    const agent = await connectAgent(broker.url, await registerAgent(broker.url, 'Self enroller'))

    const refused = await agent.call('selfEnroll', { organizationId: org.id, projectId: closed.id })
    expect(refused).toMatchObject({ ok: false, error: { code: 'permission-denied' } })
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: agent.agentId } })).organizationId).toBeNull()

    const accepted = await agent.call('selfEnroll', { organizationId: org.id, projectId: allowed.id })
    expect(accepted).toMatchObject({ ok: true, result: { organizationId: org.id, projectId: allowed.id } })
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: agent.agentId } })
    expect(stored.organizationId).toBe(org.id)
    expect(await prisma.auditRecord.count({ where: { organizationId: org.id, action: 'agent.selfEnroll' } })).toBe(1)
    expect(await prisma.usageCounter.count({ where: { agentId: agent.agentId, call: 'selfEnroll' } })).toBe(1)

    const again = await agent.call('selfEnroll', { organizationId: org.id, projectId: allowed.id })
    expect(again).toMatchObject({ ok: false, error: { code: 'failed-precondition' } })
    await agent.client.endAsync()
  })
})
