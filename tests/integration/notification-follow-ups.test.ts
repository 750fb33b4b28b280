/**
 * Resolved and repeat notifications (decision 048) on a fake clock (every step is given its `now`;
 * no delivery service runs, so no real timer races it): a repeat every interval while the alarm
 * stays active and unacknowledged, none during a maintenance window, none after an
 * acknowledgement, one resolved message with the duration when it clears, only to subscribers who
 * asked for them; settings validated, audited and answered by the API schema.
 */
import { describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { createWindow } from '~/domain/alarms/windows.server'
import { recordClears } from '~/domain/alarms/clears.server'
import { UNEVALUATED_CLEARS_QUERY, UNEVALUATED_CLEAR_INDEX } from '~/domain/notifications/clear-evaluation.server'
import { evaluateLostClears, flushNotifications, onIssueChangeEvent, onIssuesActivated, queueRepeats } from '~/domain/notifications/delivery.server'
import { listSubscriptionTree, updateSubscription } from '~/domain/notifications/subscriptions.server'
import { notificationsOutputs } from '~/api/outputs/notifications'
import { isPostgres, prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

const MIN = 60_000
let seq = 0


async function person(label: string, organizationId: string, roleId: string) {
  const user = await prisma.user.create({ data: { email: `${label.toLowerCase()}-${++seq}@follow-ups.test`, name: label, emailVerified: true } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId } })
    await compileUserAcls(tx, user.id, organizationId)
  })
  return user
}

/** An organization with one project and an agent whose system has an active critical alert since `since`. */
async function world(since: Date) {
  const owner = await prisma.user.create({ data: { email: `owner-${++seq}@follow-ups.test`, name: 'Owner', emailVerified: true } })
  const org = await prisma.organization.create({ data: { name: `Arena ${seq}`, ownerId: owner.id } })
  const project = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
  const admin = await person('Admin', org.id, DEFAULT_ROLE_IDS.orgAdmin)
  const alice = await person('Alice', org.id, DEFAULT_ROLE_IDS.orgMember)
  const bob = await person('Bob', org.id, DEFAULT_ROLE_IDS.orgMember)
  const agent = await prisma.agent.create({
    data: { clientName: `Processor ${++seq}`, product: 'VX1000', serial: `SN-F${seq}`, secretHash: 'x', organizationId: org.id, enrolledAt: since, defaultProjectId: project.id },
  })
  const system = await prisma.system.create({ data: { agentId: agent.id, key: 'sys-1', name: 'Wall', projectId: project.id } })
  const issue = await prisma.issue.create({
    data: { systemId: system.id, kind: 'alert', key: 'psu.fail', component: 'receiver', message: 'Power supply failed', severity: 2, latestCount: 1, latestAt: since, isActive: true, activation: 1 },
  })
  await prisma.issueHistory.create({ data: { issueId: issue.id, timestamp: since, count: 1 } })
  return { org, project, admin, alice, bob, agent, system, issue }
}

const mailsTo = (email: string) => prisma.outboxEmail.findMany({ where: { to: email }, orderBy: { createdAt: 'asc' } })
const followUpsOf = (userId: string, event: string) => prisma.notificationDelivery.findMany({ where: { userId, event }, orderBy: { round: 'asc' } })

describe('resolved and repeat notifications', () => {
  it('repeats every interval while active, not in maintenance nor after an acknowledgement, and tells once when resolved with the duration', async () => {
    const t0 = new Date()
    const at = (minutes: number) => new Date(t0.getTime() + minutes * MIN)
    const w = await world(t0)
    // Alice: critical alerts, repeat every hour, resolved on (the default). Bob: no repeats, resolved off.
    await updateSubscription(actorFor(w.alice), { doc: { level: 'default', target: '', alerts: 3, deviations: 0, repeatMinutes: 60 } })
    await updateSubscription(actorFor(w.bob), { doc: { level: 'default', target: '', alerts: 3, deviations: 0, notifyResolved: false } })

    await onIssuesActivated([{ issueId: w.issue.id }])
    await flushNotifications({ force: true, now: at(0) })
    expect((await mailsTo(w.alice.email)).map((m) => m.subject)).toEqual([expect.stringContaining('Critical alert on')])

    // Not yet due; then due once (checking twice at the same instant queues it once).
    expect(await queueRepeats(at(30))).toBe(0)
    expect(await queueRepeats(at(61))).toBe(1)
    expect(await queueRepeats(at(61))).toBe(0)
    await flushNotifications({ force: true, now: at(61) })
    const repeat = (await mailsTo(w.alice.email)).at(-1)!
    expect(repeat.subject).toMatch(/^\[Pixelfleet\] Still active: Critical alert on/)
    expect(repeat.text).toContain('is still active after 1 h 1 min and not acknowledged')
    expect(await followUpsOf(w.bob.id, 'repeat')).toHaveLength(0)

    // A maintenance window from 100 to 200 minutes: no repeat inside it, the next one right after it.
    await createWindow(actorFor(w.admin), w.org.id, w.project.id, { kind: 'maintenance', recurrence: 'once', startsAt: at(100), endsAt: at(200) })
    expect(await queueRepeats(at(130))).toBe(0)
    expect(await queueRepeats(at(190))).toBe(0)
    expect(await queueRepeats(at(201))).toBe(1)
    await flushNotifications({ force: true, now: at(201) })
    expect((await followUpsOf(w.alice.id, 'repeat')).map((d) => [d.round, d.status])).toEqual([
      [1, 'sent'],
      [2, 'sent'],
    ])

    // Acknowledged: somebody is on it, no more repeats.
    await prisma.issue.update({ where: { id: w.issue.id }, data: { acknowledgedAt: at(210), acknowledgedBy: 'Admin', ackActivation: 1 } })
    expect(await queueRepeats(at(400))).toBe(0)

    // Cleared (after the hold-down, as ingest does): one resolved message to Alice with how long it lasted, none to Bob.
    await prisma.issueHistory.create({ data: { issueId: w.issue.id, timestamp: at(300), count: 0 } })
    await prisma.issue.update({ where: { id: w.issue.id }, data: { isActive: false, latestCount: 0 } })
    await onIssueChangeEvent([w.system.id])
    await onIssueChangeEvent([w.system.id])
    expect(await followUpsOf(w.alice.id, 'resolved')).toHaveLength(1)
    expect(await followUpsOf(w.bob.id, 'resolved')).toHaveLength(0)
    await flushNotifications({ force: true, now: at(301) })
    const resolved = (await mailsTo(w.alice.email)).at(-1)!
    expect(resolved.subject).toMatch(/^\[Pixelfleet\] Resolved: Critical alert on/)
    expect(resolved.text).toContain('was resolved after 5 h active')
    expect((await mailsTo(w.bob.email)).map((m) => m.subject)).toEqual([expect.stringContaining('Critical alert on')])
  })

  it('tells the end of an alarm whose clear lost its change event with its process, once, whichever step the process died after', async () => {
    const t0 = new Date()
    const at = (minutes: number) => new Date(t0.getTime() + minutes * MIN)
    const w = await world(t0)
    await updateSubscription(actorFor(w.alice), { doc: { level: 'default', target: '', alerts: 3, deviations: 0 } })
    await onIssuesActivated([{ issueId: w.issue.id }])
    await flushNotifications({ force: true, now: at(0) })
    expect(await mailsTo(w.alice.email)).toHaveLength(1)
    const clear = async (minutes: number) => {
      await prisma.issueHistory.create({ data: { issueId: w.issue.id, timestamp: at(minutes), count: 0 } })
      await prisma.issue.update({ where: { id: w.issue.id }, data: { isActive: false, latestCount: 0 } })
    }
    const clearedEntries = () => prisma.issueComment.count({ where: { issueId: w.issue.id, kind: 'cleared' } })

    // Ingest cleared it; the process died before anybody heard the event. The next check tells it, once.
    await clear(90)
    expect(await clearedEntries()).toBe(0)
    expect(await evaluateLostClears(at(91))).toBe(1)
    expect(await evaluateLostClears(at(92))).toBe(0)
    expect(await clearedEntries()).toBe(1)
    expect(await followUpsOf(w.alice.id, 'resolved')).toHaveLength(1)
    await flushNotifications({ force: true, now: at(93) })
    expect((await mailsTo(w.alice.email)).at(-1)!.text).toContain('was resolved after 1 h 30 min active')

    // It comes back (a new activation) and clears again; the process records the 'cleared' entry
    // and dies before the resolved messages: the check still tells it.
    await prisma.issue.update({ where: { id: w.issue.id }, data: { isActive: true, activation: 2, latestCount: 1 } })
    await prisma.issueHistory.create({ data: { issueId: w.issue.id, timestamp: at(100), count: 1 } })
    await onIssuesActivated([{ issueId: w.issue.id }])
    await flushNotifications({ force: true, now: at(100) })
    await clear(130)
    await recordClears([w.system.id], at(131))
    expect(await clearedEntries()).toBe(2)
    expect(await evaluateLostClears(at(132))).toBe(1)
    expect(await clearedEntries()).toBe(2)
    expect((await followUpsOf(w.alice.id, 'resolved')).map((d) => d.activation)).toEqual([1, 2])
    // the event that was only late changes nothing; nothing is left for the check
    await onIssueChangeEvent([w.system.id])
    expect(await followUpsOf(w.alice.id, 'resolved')).toHaveLength(2)
    expect(await evaluateLostClears(at(133))).toBe(0)
  })

  it.runIf(!isPostgres())('finds lost clears through their partial index, not by reading every inactive issue', async () => {
    const plan = await prisma.$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${UNEVALUATED_CLEARS_QUERY()} LIMIT 10`)
    expect(plan.map((row) => row.detail).join('\n')).toContain(UNEVALUATED_CLEAR_INDEX)
  })

  it('validates, audits and answers the settings', async () => {
    const w = await world(new Date())
    const { subscription } = await updateSubscription(actorFor(w.alice), { doc: { level: 'organization', target: w.org.id, alerts: 3, deviations: 0 } })
    // notify when resolved is on and repeats are off unless chosen
    expect(subscription).toMatchObject({ notifyResolved: true, repeatMinutes: 0 })
    await expect(updateSubscription(actorFor(w.alice), { id: subscription!.id, doc: { repeatMinutes: 45 } })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('Repeat every must be one of 0, 60, 240, 720, 1440 minutes'),
    })
    await expect(updateSubscription(actorFor(w.alice), { id: subscription!.id, doc: { notifyResolved: 'yes' } })).rejects.toMatchObject({ status: 400 })
    await expect(updateSubscription(actorFor(w.alice), { id: subscription!.id, doc: { repeatEvery: 60 } })).rejects.toMatchObject({ status: 400 })
    expect(await prisma.subscription.findUniqueOrThrow({ where: { id: subscription!.id } })).toMatchObject({ notifyResolved: true, repeatMinutes: 0 })

    const updated = await updateSubscription(actorFor(w.alice), { id: subscription!.id, doc: { notifyResolved: false, repeatMinutes: 240 } })
    expect(updated.subscription).toMatchObject({ notifyResolved: false, repeatMinutes: 240 })
    const audit = await prisma.auditRecord.findFirstOrThrow({ where: { userId: w.alice.id, action: 'subscription.update' }, orderBy: { createdAt: 'desc' } })
    expect(audit.message).toContain('(notify when resolved off, repeat: every 4 h)')
    const tree = await listSubscriptionTree(actorFor(w.alice))
    expect(notificationsOutputs['user/subscriptions'].parse(tree).organizations.find((o) => o.id === w.org.id)?.subscription).toMatchObject({ notifyResolved: false, repeatMinutes: 240 })
  })
})
