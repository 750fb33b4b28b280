/**
 * Issue 13, alarms track: acknowledge stops re-notifying, permissions (viewer, other organization),
 * the offline alarm with a fake clock (raised after the project's delay, once even with two
 * sweepers, cleared when the agent is seen again), and muted / at-once deliveries in maintenance
 * and show windows. Reports go through the real ingest and the real delivery service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { updateClientStateRequestSchema, type SystemReport } from '../../protocol'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { drainIngest, ingestCall } from '../../ingest/pipeline.server'
import { acknowledgeIssue, clearIssue, commentIssue, getIssue, listProjectIssues, unacknowledgeIssue } from '~/domain/alarms/lifecycle.server'
import { recordClears } from '~/domain/alarms/clears.server'
import { sweepOfflineAgents, updateOfflineDelay } from '~/domain/alarms/offline.server'
import { createWindow, deleteWindow, listWindows, updateWindow } from '~/domain/alarms/windows.server'
import { flushNotifications, releaseMutedDeliveries, startNotificationDelivery } from '~/domain/notifications/delivery.server'
import { updateSubscription } from '~/domain/notifications/subscriptions.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { actorFor } from '../setup/actor'

const BATCH_MS = 60_000
let seq = 0
let delivery: ReturnType<typeof startNotificationDelivery>


async function person(label: string, organizationId: string, roleId: string, projectId?: string) {
  const user = await prisma.user.create({ data: { email: `${label.toLowerCase()}-${++seq}@alarms.test`, name: label, emailVerified: true } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId, projectId } })
    await compileUserAcls(tx, user.id, organizationId)
  })
  return user
}

/** An organization with Stage > Left Wall, its admin, a viewer and a subscribed member (alerts down to warning). */
async function world(name: string) {
  const owner = await prisma.user.create({ data: { email: `owner-${++seq}@alarms.test`, name: 'Owner', emailVerified: true } })
  const org = await prisma.organization.create({ data: { name, ownerId: owner.id } })
  const stage = await prisma.project.create({ data: { organizationId: org.id, name: 'Stage' } })
  const left = await prisma.project.create({ data: { organizationId: org.id, name: 'Left Wall', parentId: stage.id } })
  const admin = await person('Admin', org.id, DEFAULT_ROLE_IDS.orgAdmin)
  const viewer = await person('Viewer', org.id, DEFAULT_ROLE_IDS.projectViewer, stage.id)
  const alice = await person('Alice', org.id, DEFAULT_ROLE_IDS.orgMember)
  await updateSubscription(actorFor(alice), { doc: { level: 'default', target: '', alerts: 3, deviations: 0 } })
  const agent = await prisma.agent.create({
    data: { clientName: `Processor ${++seq}`, product: 'VX1000', serial: `SN-A${seq}`, secretHash: 'x', organizationId: org.id, enrolledAt: new Date(), defaultProjectId: left.id },
  })
  return { owner, org, stage, left, admin, viewer, alice, agent }
}

const alert = (key: string, severity: number, message: string) => ({ key, component: 'receiver' as const, message, severity, history: [] })

async function report(agentId: string, systems: SystemReport[]) {
  await ingestCall(agentId, 'updateClientState', updateClientStateRequestSchema.parse({ systems }), { ip: null, receivedAt: new Date() })
  await drainIngest()
  await delivery.idle()
}

const deliveriesOf = (userId: string, issueId: string) => prisma.notificationDelivery.findMany({ where: { userId, issueId }, orderBy: { createdAt: 'asc' } })
const issueByKey = (key: string, agentId: string) => prisma.issue.findFirstOrThrow({ where: { key, system: { agentId } } })

beforeAll(() => {
  setConfig({ ...getConfig(), NOTIFY_BATCH_MS: BATCH_MS })
  delivery = startNotificationDelivery()
})
afterAll(async () => {
  await delivery.stop()
})

describe('alarm lifecycle', () => {
  it('acknowledging stops re-notifying; comments and a manual clear are kept and audited', async () => {
    const w = await world('Ack Arena')
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.tempHigh', 3, 'Tile hot')] }])
    const issue = await issueByKey('recv.tempHigh', w.agent.id)
    expect(await deliveriesOf(w.alice.id, issue.id)).toHaveLength(1)

    const listed = await listProjectIssues(actorFor(w.admin), w.org.id, w.stage.id, 'active-unack')
    expect(listed.issues.map((i) => i.id)).toEqual([issue.id])
    await acknowledgeIssue(actorFor(w.admin), w.org.id, issue.id, { comment: 'Fan replaced tonight' })
    expect((await listProjectIssues(actorFor(w.admin), w.org.id, w.stage.id, 'active-unack')).issues).toHaveLength(0)
    const acked = (await listProjectIssues(actorFor(w.admin), w.org.id, w.stage.id, 'active-ack')).issues
    expect(acked).toMatchObject([{ id: issue.id, acknowledged: true, acknowledgedBy: 'Admin', comments: 1 }])

    // Escalation within the same activation: without the acknowledgement this would e-mail Alice again.
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.tempHigh', 2, 'Tile hot')] }])
    expect(await deliveriesOf(w.alice.id, issue.id)).toHaveLength(1)

    await commentIssue(actorFor(w.admin), w.org.id, issue.id, { text: 'Spare tile ordered' })
    await expect(commentIssue(actorFor(w.admin), w.org.id, issue.id, { text: '  ' })).rejects.toMatchObject({ status: 400, message: 'Comment is required' })
    await clearIssue(actorFor(w.admin), w.org.id, issue.id, {})
    await expect(clearIssue(actorFor(w.admin), w.org.id, issue.id, {})).rejects.toMatchObject({ status: 400 })
    const detail = await getIssue(actorFor(w.admin), w.org.id, issue.id)
    expect(detail.issue).toMatchObject({ isActive: false, clearedBy: 'Admin' })
    expect(detail.comments.map((c) => [c.kind, c.authorName, c.text])).toEqual([
      ['ack', 'Admin', 'Fan replaced tonight'],
      ['comment', 'Admin', 'Spare tile ordered'],
      ['clear', 'Admin', ''],
    ])
    expect((await listProjectIssues(actorFor(w.admin), w.org.id, w.stage.id, 'cleared')).issues.map((i) => i.id)).toEqual([issue.id])
    const audit = await prisma.auditRecord.findMany({ where: { organizationId: w.org.id, action: { startsWith: 'issue.' } }, orderBy: { createdAt: 'asc' } })
    expect(audit.map((a) => a.action)).toEqual(['issue.acknowledge', 'issue.comment', 'issue.clear'])
    expect(audit[0]!.message).toContain('Fan replaced tonight')

    // A new activation needs a new acknowledgement (and notifies again).
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [] }])
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.tempHigh', 2, 'Tile hot')] }])
    expect((await listProjectIssues(actorFor(w.admin), w.org.id, w.stage.id, 'active-unack')).issues.map((i) => i.id)).toEqual([issue.id])
    expect(await deliveriesOf(w.alice.id, issue.id)).toHaveLength(2)
  })

  it('withdrawing an acknowledgement makes escalations notify again; audited, refused when not acknowledged or to a viewer', async () => {
    const w = await world('Unack Arena')
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.fanSlow', 3, 'Fan slow')] }])
    const issue = await issueByKey('recv.fanSlow', w.agent.id)
    expect(await deliveriesOf(w.alice.id, issue.id)).toHaveLength(1)
    await expect(unacknowledgeIssue(actorFor(w.admin), w.org.id, issue.id, {})).rejects.toMatchObject({ status: 400, message: 'The issue is not acknowledged' })

    await acknowledgeIssue(actorFor(w.admin), w.org.id, issue.id, {})
    await expect(unacknowledgeIssue(actorFor(w.viewer), w.org.id, issue.id, {})).rejects.toMatchObject({ status: 403 })
    const withdrawn = await unacknowledgeIssue(actorFor(w.admin), w.org.id, issue.id, { comment: 'Fan still slow' })
    expect(withdrawn.issueId).toBe(issue.id)
    expect((await listProjectIssues(actorFor(w.admin), w.org.id, w.stage.id, 'active-unack')).issues).toMatchObject([{ id: issue.id, acknowledged: false, acknowledgedBy: '' }])

    // the same activation escalates: with the acknowledgement withdrawn, Alice hears of it
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.fanSlow', 2, 'Fan stopped')] }])
    expect(await deliveriesOf(w.alice.id, issue.id)).toHaveLength(2)

    const detail = await getIssue(actorFor(w.admin), w.org.id, issue.id)
    expect(detail.comments.map((c) => [c.kind, c.text])).toEqual([
      ['ack', ''],
      ['unack', 'Fan still slow'],
    ])
    const audit = await prisma.auditRecord.findMany({ where: { organizationId: w.org.id, action: { startsWith: 'issue.' } }, orderBy: { createdAt: 'asc' } })
    expect(audit.map((a) => a.action)).toEqual(['issue.acknowledge', 'issue.unacknowledge'])
    expect(audit[1]!.message).toContain('Fan still slow')
  })

  it('refuses a viewer and a member of another organization, changing nothing', async () => {
    const w = await world('Guarded Arena')
    const other = await world('Other Arena')
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('psu.fail', 2, 'Power supply failed')] }])
    const issue = await issueByKey('psu.fail', w.agent.id)
    // The viewer sees the issue but may not change it.
    expect((await getIssue(actorFor(w.viewer), w.org.id, issue.id)).capabilities.canManage).toBe(false)
    await expect(acknowledgeIssue(actorFor(w.viewer), w.org.id, issue.id, {})).rejects.toMatchObject({ status: 403 })
    await expect(commentIssue(actorFor(w.viewer), w.org.id, issue.id, { text: 'hi' })).rejects.toMatchObject({ status: 403 })
    await expect(clearIssue(actorFor(w.viewer), w.org.id, issue.id, {})).rejects.toMatchObject({ status: 403 })
    await expect(createWindow(actorFor(w.viewer), w.org.id, w.stage.id, { kind: 'maintenance', recurrence: 'once', startsAt: new Date(), endsAt: new Date(Date.now() + 3600_000) })).rejects.toMatchObject({ status: 403 })
    await expect(updateOfflineDelay(actorFor(w.viewer), w.org.id, w.stage.id, { minutes: 10 })).rejects.toMatchObject({ status: 403 })
    // The other organization's admin: refused in this organization, and its own id does not reach the issue.
    await expect(acknowledgeIssue(actorFor(other.admin), w.org.id, issue.id, {})).rejects.toMatchObject({ status: 403 })
    await expect(acknowledgeIssue(actorFor(other.admin), other.org.id, issue.id, {})).rejects.toMatchObject({ status: 404 })
    await expect(getIssue(actorFor(other.admin), other.org.id, issue.id)).rejects.toMatchObject({ status: 404 })
    const after = await prisma.issue.findUniqueOrThrow({ where: { id: issue.id } })
    expect(after).toMatchObject({ acknowledgedAt: null, isActive: true })
    expect(await prisma.issueComment.count({ where: { issueId: issue.id } })).toBe(0)
  })
})

describe('clearing', () => {
  it('clears a device alarm one minute after the device reports it healthy, not fifteen, with a cleared entry stating how long it lasted', async () => {
    const w = await world('Clearing Arena')
    const t = Date.now()
    const iso = (seconds: number) => new Date(t + seconds * 1000).toISOString()
    // a fake clock for ingest: each report says when it was received; no timer is involved
    const reportAt = async (seconds: number, history: { timestamp: string; count: number }[]) => {
      const systems = [{ id: 'sys-1', name: 'Wall', alerts: [{ key: 'recv.offline', component: 'receiver' as const, message: '35 tiles dark', severity: 2, history }] }]
      await ingestCall(w.agent.id, 'updateClientState', updateClientStateRequestSchema.parse({ systems }), { ip: null, receivedAt: new Date(t + seconds * 1000) })
      await drainIngest()
      await delivery.idle()
      return issueByKey('recv.offline', w.agent.id)
    }
    const dark = [{ timestamp: iso(0), count: 35 }]
    expect(await reportAt(10, dark)).toMatchObject({ isActive: true, activation: 1 })
    // healthy at 300 s; 30 s later it is held (a flapping fault would continue this activation)
    const healthy = [...dark, { timestamp: iso(300), count: 0 }]
    expect(await reportAt(330, healthy)).toMatchObject({ isActive: true, activation: 1 })
    // back within the hold-down: the same activation, nobody told twice
    const flap = [...healthy, { timestamp: iso(340), count: 35 }]
    expect(await reportAt(340, flap)).toMatchObject({ isActive: true, activation: 1 })
    const healthyAgain = [...flap, { timestamp: iso(600), count: 0 }]
    expect(await reportAt(620, healthyAgain)).toMatchObject({ isActive: true })
    // past the hold-down (61 s after the healthy report): cleared, with its entry
    const cleared = await reportAt(661, healthyAgain)
    expect(cleared).toMatchObject({ isActive: false, activation: 1, clearRecorded: 1 })
    expect(await deliveriesOf(w.alice.id, cleared.id)).toHaveLength(1)
    const detail = await getIssue(actorFor(w.admin), w.org.id, cleared.id)
    expect(detail.comments.map((c) => [c.kind, c.authorName, c.text])).toEqual([['cleared', 'Pixelfleet', 'Cleared after 10 min active: the device reported it healthy']])
    expect(detail.issue.clearedAt).not.toBeNull()
    expect(detail.issue.clearedBy).toBe('')
    // recorded once, however often the change is seen
    expect(await recordClears([cleared.systemId, cleared.id])).toEqual([])
    expect(await prisma.issueComment.count({ where: { issueId: cleared.id } })).toBe(1)
  })
})

describe('offline alarm', () => {
  it('raises a critical issue after the project delay, once across two sweepers, and clears it when the agent returns', async () => {
    const w = await world('Offline Arena')
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [] }])
    await updateOfflineDelay(actorFor(w.admin), w.org.id, w.left.id, { minutes: 10 })
    await expect(updateOfflineDelay(actorFor(w.admin), w.org.id, w.left.id, { minutes: 0 })).rejects.toMatchObject({ status: 400 })
    await expect(updateOfflineDelay(actorFor(w.admin), w.org.id, w.left.id, { minutes: 1441 })).rejects.toMatchObject({ status: 400 })

    // A fake clock: the agent was last seen at t0, the sweeps happen at chosen instants.
    const t0 = new Date('2030-01-15T12:00:00Z')
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000)
    await prisma.agent.update({ where: { id: w.agent.id }, data: { lastSeen: t0 } })
    const offlineIssue = () => prisma.issue.findFirst({ where: { key: 'agent.offline', system: { agentId: w.agent.id } } })

    await sweepOfflineAgents(at(9))
    expect(await offlineIssue()).toBeNull()
    // Two nodes sweeping at once raise it once.
    const [a, b] = await Promise.all([sweepOfflineAgents(at(10)), sweepOfflineAgents(at(10))])
    const raised = (await offlineIssue())!
    expect([...a.raised, ...b.raised]).toEqual([raised.id])
    expect(raised).toMatchObject({ isActive: true, severity: 2, component: 'agent', kind: 'alert', activation: 1 })
    expect(raised.message).toContain('10 minutes')
    await sweepOfflineAgents(at(11))
    expect((await offlineIssue())!.activation).toBe(1)
    // Notified like any critical alert.
    await delivery.idle()
    expect(await deliveriesOf(w.alice.id, raised.id)).toHaveLength(1)

    // Seen again: cleared at the next sweep.
    await prisma.agent.update({ where: { id: w.agent.id }, data: { lastSeen: at(12) } })
    const cleared = await sweepOfflineAgents(at(12.25))
    expect(cleared.cleared).toEqual([raised.id])
    expect((await offlineIssue())!.isActive).toBe(false)
    // the outage in the thread: raised at 10 min, cleared at 12.25
    expect((await prisma.issueComment.findMany({ where: { issueId: raised.id } })).map((c) => [c.kind, c.text])).toEqual([['cleared', 'Cleared after 2 min active: the agent was seen again']])
    // Silent again: a new activation.
    await sweepOfflineAgents(at(22))
    expect(await offlineIssue()).toMatchObject({ isActive: true, activation: 2 })
    // Disabled while silent: no longer watched, so its alarm clears and is not raised again.
    await prisma.agent.update({ where: { id: w.agent.id }, data: { enabled: false } })
    expect((await sweepOfflineAgents(at(23))).cleared).toEqual([raised.id])
    expect((await sweepOfflineAgents(at(24))).raised).toEqual([])
    expect((await offlineIssue())!.isActive).toBe(false)
  })
})

describe('show and maintenance windows', () => {
  it('mutes notifications during maintenance (parent project), sends show-window alerts at once, and validates windows', async () => {
    const w = await world('Window Arena')
    const admin = actorFor(w.admin)
    const now = Date.now()
    await expect(createWindow(admin, w.org.id, w.stage.id, { kind: 'maintenance', recurrence: 'once', startsAt: new Date(now), endsAt: new Date(now - 1000) })).rejects.toMatchObject({
      status: 400,
      message: 'The end must be after the start',
    })
    await expect(createWindow(admin, w.org.id, w.stage.id, { kind: 'maintenance', recurrence: 'once', startsAt: new Date(now), endsAt: new Date(now + 8 * 86_400_000) })).rejects.toMatchObject({
      message: 'A window lasts at most 7 days',
    })
    await expect(createWindow(admin, w.org.id, w.stage.id, { kind: 'show', recurrence: 'weekly', weekdays: [5], startTime: '18:00', endTime: '23:00', timeZone: 'Mars/Olympus', severities: [2] })).rejects.toMatchObject({
      message: 'Unknown time zone',
    })
    expect(await prisma.projectWindow.count({ where: { organizationId: w.org.id } })).toBe(0)

    const { window } = await createWindow(admin, w.org.id, w.stage.id, { kind: 'maintenance', name: 'Rigging', recurrence: 'once', startsAt: new Date(now - 3600_000), endsAt: new Date(now + 3600_000) })
    expect(window.activeUntil).not.toBeNull()
    const listed = await listWindows(actorFor(w.viewer), w.org.id, w.left.id)
    expect(listed).toMatchObject({ canManage: false, windows: [{ id: window.id, inherited: true, kind: 'maintenance' }] })

    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.linkLost', 2, 'Receiver link lost')] }])
    const issue = await issueByKey('recv.linkLost', w.agent.id)
    expect(await deliveriesOf(w.alice.id, issue.id)).toMatchObject([{ status: 'muted' }])
    expect((await listProjectIssues(admin, w.org.id, w.left.id, 'all')).issues[0]).toMatchObject({ id: issue.id, muted: true })
    await flushNotifications({ force: true })
    expect(await prisma.outboxEmail.count({ where: { to: w.alice.email } })).toBe(0)
    expect((await getIssue(admin, w.org.id, issue.id)).notifications).toEqual({ muted: 1 })

    // Deleting the window ends it: the still-active link loss is told now.
    await deleteWindow(admin, w.org.id, window.id)
    await flushNotifications({ force: true })
    expect((await prisma.outboxEmail.findMany({ where: { to: w.alice.email } })).map((m) => m.text.includes('Receiver link lost'))).toEqual([true])

    // Show window for criticals: the delivery skips the batch window.
    await createWindow(admin, w.org.id, w.left.id, { kind: 'show', recurrence: 'once', startsAt: new Date(now - 3600_000), endsAt: new Date(now + 3600_000), severities: [2] })
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('psu.fail', 2, 'Power supply failed')] }])
    const psu = await issueByKey('psu.fail', w.agent.id)
    // urgent: any flush sends it, the delivery service's own tick included, so it may be sent already
    expect(await deliveriesOf(w.alice.id, psu.id)).toMatchObject([{ urgent: true }])
    await flushNotifications()
    expect(await deliveriesOf(w.alice.id, psu.id)).toMatchObject([{ status: 'sent', urgent: true }])
    const mail = await prisma.outboxEmail.findFirstOrThrow({ where: { to: w.alice.email, text: { contains: 'Power supply failed' } } })
    // the link loss left the report meanwhile: it rides along only as resolved (decision 048), not as active again
    const linkLines = mail.text.split('\n').filter((line) => line.includes('Receiver link lost'))
    expect(linkLines.length).toBeLessThanOrEqual(1)
    expect(linkLines.every((line) => line.includes('Resolved: Critical alert'))).toBe(true)
    const actions = await prisma.auditRecord.findMany({ where: { organizationId: w.org.id, action: { startsWith: 'project.window' } }, select: { action: true } })
    expect(actions.map((a) => a.action).sort()).toEqual(['project.window.create', 'project.window.create', 'project.window.delete'])
  })

  it('tells, once the maintenance window ends, what became active during it and is still active', async () => {
    const w = await world('Rigging Arena')
    const admin = actorFor(w.admin)
    const now = Date.now()
    const rigging = { kind: 'maintenance', name: 'Rigging', recurrence: 'once', startsAt: new Date(now - 3600_000), endsAt: new Date(now + 3600_000) }
    const { window } = await createWindow(admin, w.org.id, w.stage.id, rigging)
    await report(w.agent.id, [{ id: 'sys-1', name: 'Wall', alerts: [alert('recv.linkLost', 2, 'Receiver link lost'), alert('psu.fail', 2, 'Power supply failed')] }])
    const dead = await issueByKey('recv.linkLost', w.agent.id)
    const acked = await issueByKey('psu.fail', w.agent.id)
    await acknowledgeIssue(admin, w.org.id, acked.id, { comment: 'Known, spare on the way' })
    await flushNotifications({ force: true })
    expect(await prisma.outboxEmail.count({ where: { to: w.alice.email } })).toBe(0)

    // still in the window: nothing released
    expect(await releaseMutedDeliveries()).toBe(0)
    // the window ends (moved into the past): the next flush tells the dead receiver, not the acknowledged supply
    await updateWindow(admin, w.org.id, window.id, { ...rigging, startsAt: new Date(now - 7200_000), endsAt: new Date(now - 60_000) })
    // (the delivery service's own tick may release it first; the forced flush sends it either way)
    await flushNotifications({ force: true })
    await delivery.idle()
    const mails = await prisma.outboxEmail.findMany({ where: { to: w.alice.email } })
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    expect(mail.text).toContain('Receiver link lost')
    expect(mail.text).not.toContain('Power supply failed')
    expect(await deliveriesOf(w.alice.id, dead.id)).toMatchObject([{ status: 'sent', activation: dead.activation }])
    expect(await deliveriesOf(w.alice.id, acked.id)).toMatchObject([{ status: 'muted' }])
    // told once
    expect(await releaseMutedDeliveries()).toBe(0)
    await flushNotifications({ force: true })
    expect(await prisma.outboxEmail.count({ where: { to: w.alice.email } })).toBe(1)
  })

  it('takes a one-off window in its own time zone and shows it on that clock', async () => {
    const w = await world('Zone Arena')
    const admin = actorFor(w.admin)
    const la = { kind: 'maintenance', name: 'Load-in', recurrence: 'once', startsAt: '2031-03-07T18:00', endsAt: '2031-03-08T02:00', timeZone: 'America/Los_Angeles' }
    const { window } = await createWindow(admin, w.org.id, w.stage.id, la)
    expect(window).toMatchObject({
      startsAt: '2031-03-08T02:00:00.000Z',
      endsAt: '2031-03-08T10:00:00.000Z',
      startsLocal: '2031-03-07T18:00',
      startsText: 'Fri 7 Mar, 18:00',
      endsText: 'Sat 8 Mar, 02:00',
      timeZone: 'America/Los_Angeles',
    })
    await expect(createWindow(admin, w.org.id, w.stage.id, { ...la, startsAt: '2031-03-07 18:00' })).rejects.toMatchObject({ status: 400, message: 'Start must be a date and time' })
    // instants with an offset stay accepted (API callers)
    const { window: utc } = await createWindow(admin, w.org.id, w.stage.id, { ...la, startsAt: '2031-03-08T02:00:00Z', endsAt: '2031-03-08T10:00:00.000Z' })
    expect(utc.startsLocal).toBe('2031-03-07T18:00')
    const audit = await prisma.auditRecord.findFirstOrThrow({ where: { organizationId: w.org.id, action: 'project.window.create' } })
    expect(audit.message).toContain('2031-03-07 18:00 - 2031-03-08 02:00 America/Los_Angeles')
  })
})
