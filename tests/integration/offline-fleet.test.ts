/**
 * The offline sweeper in a fleet with over a thousand silent systems: the lookup of their existing
 * offline issues used to bind every system id and failed each sweep (SQLite takes 999 parameters),
 * so no 'Agent offline' alarm was ever raised; notification delivery then failed the same way
 * (queueing, describing and marking a thousand issues). The sweep raises them 200 per transaction
 * (decision 098), and two sweepers at once raise each once.
 */
import { describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { sweepOfflineAgents } from '~/domain/alarms/offline.server'
import { flushNotifications, onIssueChangeEvent } from '~/domain/notifications/delivery.server'
import { prisma } from '~/utils/db.server'

describe('offline alarm in a large fleet', () => {
  it('is raised for 1,050 silent systems in one sweep, and once only, with two sweepers at once; cleared the same way', async () => {
    const owner = await prisma.user.create({ data: { email: 'owner@offline-fleet.test', name: 'Owner', emailVerified: true } })
    const org = await prisma.organization.create({ data: { name: 'Offline Fleet', ownerId: owner.id } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
      await compileUserAcls(tx, owner.id, org.id)
    })
    // the owner wants every alert by e-mail
    await prisma.subscription.create({ data: { userId: owner.id, level: 'default', target: '', alerts: 4, deviations: 4 } })
    const stage = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
    const seen = new Date('2040-03-01T12:00:00Z')
    const agents = Array.from({ length: 1_050 }, (_, i) => ({ id: `offline-fleet-${i}`, clientName: `Silent ${i}`, secretHash: 'x', organizationId: org.id, lastSeen: seen }))
    await prisma.agent.createMany({ data: agents })
    await prisma.system.createMany({ data: agents.map((a) => ({ agentId: a.id, key: 'sys', name: a.clientName, projectId: stage.id })) })

    const systems = await prisma.system.findMany({ where: { agent: { organizationId: org.id } }, select: { id: true } })
    // Two web nodes sweeping at once (chunks of 200 per transaction): each alarm raised by one of them, once.
    const [first, second] = await Promise.all([sweepOfflineAgents(new Date(seen.getTime() + 10 * 60_000)), sweepOfflineAgents(new Date(seen.getTime() + 10 * 60_000))])
    const raised = [...first.raised, ...second.raised]
    expect(raised).toHaveLength(1_050)
    expect(new Set(raised).size).toBe(1_050)
    expect(await prisma.issueHistory.count({ where: { issueId: { in: raised } } })).toBe(1_050)
    const active = await prisma.issue.findMany({ where: { key: 'agent.offline', isActive: true, system: { agent: { organizationId: org.id } } }, select: { severity: true, message: true } })
    expect(active).toHaveLength(1_050)
    expect(active[0]).toMatchObject({ severity: 2, message: 'Agent offline: not seen for 5 minutes' })
    // the next sweep finds them all raised
    expect((await sweepOfflineAgents(new Date(seen.getTime() + 11 * 60_000))).raised).toHaveLength(0)

    // Delivery, as the sweep's change events reach it (system ids): one digest naming every system.
    expect(await onIssueChangeEvent(systems.map((s) => s.id))).toBe(1_050)
    expect(await onIssueChangeEvent(systems.map((s) => s.id))).toBe(0) // told once per activation
    expect(await flushNotifications({ force: true })).toBe(1)
    const mails = await prisma.outboxEmail.findMany({ where: { to: owner.email } })
    expect(mails).toHaveLength(1)
    expect(mails[0]!.subject).toBe('[Pixelfleet] 1050 alerts and deviations need your attention')
    expect(mails[0]!.text).toContain('Silent 1049')
    expect(await prisma.notificationDelivery.count({ where: { userId: owner.id, status: 'sent' } })).toBe(1_050)

    // The fleet is back: every alarm clears at the next sweep, 200 per transaction, once.
    await prisma.agent.updateMany({ where: { organizationId: org.id }, data: { lastSeen: new Date(seen.getTime() + 12 * 60_000) } })
    const [back, again] = await Promise.all([sweepOfflineAgents(new Date(seen.getTime() + 12.25 * 60_000)), sweepOfflineAgents(new Date(seen.getTime() + 12.25 * 60_000))])
    expect(new Set([...back.cleared, ...again.cleared]).size).toBe(1_050)
    expect(back.cleared.length + again.cleared.length).toBe(1_050)
    expect(await prisma.issue.count({ where: { key: 'agent.offline', isActive: true, system: { agent: { organizationId: org.id } } } })).toBe(0)
    expect(await prisma.issueHistory.count({ where: { issueId: { in: raised }, count: 0 } })).toBe(1_050)
    // (the clears' 'cleared' entries are still written one issue at a time: minutes at load 20-30)
  }, 900_000)
})
