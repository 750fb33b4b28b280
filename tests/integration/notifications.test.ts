/**
 * Alert e-mails end to end: an agent's state report goes through ingest (the real write-behind
 * queue and its 'issue' change event), the delivery service decides who is told, and the flusher
 * writes the e-mails to the outbox. Also: subscriptions through the domain, and login history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { updateClientStateRequestSchema, type SystemReport } from '../../protocol'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { drainIngest, ingestCall } from '../../ingest/pipeline.server'
import { signInWithPassword } from '~/domain/auth/account.server'
import { hashPassword } from '~/domain/auth/crypto.server'
import { flushNotifications, queueUnevaluated, startNotificationDelivery } from '~/domain/notifications/delivery.server'
import { listSubscriptionTree, testNotification, updateSubscription } from '~/domain/notifications/subscriptions.server'
import { listLoginHistory } from '~/domain/users/login-history.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { actorFor } from '../setup/actor'

const BATCH_MS = 60_000

let delivery: ReturnType<typeof startNotificationDelivery>
let agentSeq = 0

async function member(label: string, organizationId: string, roleId: string, projectId?: string) {
  const user = await prisma.user.create({ data: { email: `${label}-${Date.now()}@notify.test`, name: label, emailVerified: true } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId, projectId } })
    await compileUserAcls(tx, user.id, organizationId)
  })
  return user
}

/** Organization with Main Stage > Left Wall and a separate Studio project, plus the cast of subscribers. */
async function world() {
  const owner = await prisma.user.create({ data: { email: `owner-${Date.now()}@notify.test`, name: 'Owner', emailVerified: true } })
  const org = await prisma.organization.create({ data: { name: 'Arena Live', ownerId: owner.id } })
  const main = await prisma.project.create({ data: { organizationId: org.id, name: 'Main Stage' } })
  const left = await prisma.project.create({ data: { organizationId: org.id, name: 'Left Wall', parentId: main.id } })
  const studio = await prisma.project.create({ data: { organizationId: org.id, name: 'Studio' } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await compileUserAcls(tx, owner.id, org.id)
  })
  const people = {
    /** default level: alerts down to warning */
    alice: await member('Alice', org.id, DEFAULT_ROLE_IDS.orgMember),
    /** no subscription at all */
    bob: await member('Bob', org.id, DEFAULT_ROLE_IDS.orgMember),
    /** organization override: critical alerts only */
    carol: await member('Carol', org.id, DEFAULT_ROLE_IDS.orgMember),
    /** sees only Studio, subscribed to everything */
    dave: await member('Dave', org.id, DEFAULT_ROLE_IDS.projectViewer, studio.id),
    /** everything by default, but Main Stage (parent of Left Wall) switched off */
    erin: await member('Erin', org.id, DEFAULT_ROLE_IDS.orgMember),
  }
  await updateSubscription(actorFor(people.alice), { doc: { level: 'default', target: '', alerts: 3, deviations: 0 } })
  await updateSubscription(actorFor(people.carol), { doc: { level: 'default', target: '', alerts: 4, deviations: 4 } })
  await updateSubscription(actorFor(people.carol), { doc: { level: 'organization', target: org.id, alerts: 1, deviations: 0 } })
  await updateSubscription(actorFor(people.dave), { doc: { level: 'default', target: '', alerts: 4, deviations: 4 } })
  await updateSubscription(actorFor(people.erin), { doc: { level: 'default', target: '', alerts: 4, deviations: 4 } })
  await updateSubscription(actorFor(people.erin), { doc: { level: 'project', target: main.id, alerts: 0, deviations: 0 } })
  return { owner, org, main, left, studio, people }
}

async function enrolledAgent(organizationId: string, defaultProjectId: string | null) {
  return prisma.agent.create({
    data: { clientName: `Processor ${++agentSeq}`, product: 'VX1000', serial: `SN-N${agentSeq}`, secretHash: 'x', organizationId, enrolledAt: new Date(), defaultProjectId },
  })
}

const alert = (key: string, severity: number, message: string) => ({ key, component: 'receiver' as const, message, severity, history: [] })

/** One state report through ingest; waits for the commit and for delivery to evaluate it. */
async function report(agentId: string, systems: SystemReport[]) {
  const payload = updateClientStateRequestSchema.parse({ systems })
  await ingestCall(agentId, 'updateClientState', payload, { ip: null, receivedAt: new Date() })
  await drainIngest()
  await delivery.idle()
}

const mailsTo = (email: string) => prisma.outboxEmail.findMany({ where: { to: email, kind: { in: ['issueNotification', 'issueDigest'] } }, orderBy: { createdAt: 'asc' } })
const later = (ms: number) => new Date(Date.now() + ms)

describe('alert notifications', () => {
  let w: Awaited<ReturnType<typeof world>>
  beforeAll(async () => {
    setConfig({ ...getConfig(), NOTIFY_BATCH_MS: BATCH_MS })
    delivery = startNotificationDelivery()
    w = await world()
  })
  afterAll(async () => {
    await delivery.stop()
  })

  it('e-mails a simulated fault once, to the subscribed member at the matching threshold only', async () => {
    const agent = await enrolledAgent(w.org.id, w.left.id)
    await report(agent.id, [{ id: 'sys-1', name: 'Wall Left', alerts: [alert('recv.tempHigh', 4, 'Tile over temperature')] }])

    // Batched: nothing leaves before the user's batch window has passed.
    await flushNotifications()
    expect(await mailsTo(w.people.alice.email)).toHaveLength(0)
    await flushNotifications({ now: later(BATCH_MS + 1000) })

    const [mail, ...more] = await mailsTo(w.people.alice.email)
    expect(more).toHaveLength(0)
    expect(mail!.subject).toContain('Warning alert')
    for (const text of ['Arena Live', 'Main Stage / Left Wall', agent.clientName, 'Wall Left', 'receiver', 'Warning', 'Tile over temperature']) {
      expect(mail!.text).toContain(text)
    }
    expect(mail!.text).toContain(`http://portal.test/organization/${w.org.id}/agents/${agent.id}`)
    for (const person of [w.people.bob, w.people.carol, w.people.dave, w.people.erin, w.owner]) {
      expect(await mailsTo(person.email), `${person.name} must not be told`).toHaveLength(0)
    }

    // The same still-active issue reported again: nothing new.
    await report(agent.id, [{ id: 'sys-1', name: 'Wall Left', alerts: [alert('recv.tempHigh', 4, 'Tile over temperature')] }])
    await flushNotifications({ force: true })
    expect(await mailsTo(w.people.alice.email)).toHaveLength(1)

    // Escalation to critical: Alice hears again, and now Carol (critical only) does too.
    await report(agent.id, [{ id: 'sys-1', name: 'Wall Left', alerts: [alert('recv.tempHigh', 2, 'Tile over temperature')] }])
    await flushNotifications({ force: true })
    const aliceMails = await mailsTo(w.people.alice.email)
    expect(aliceMails).toHaveLength(2)
    expect(aliceMails[1]!.subject).toContain('Critical alert (escalated)')
    expect(await mailsTo(w.people.carol.email)).toHaveLength(1)
    expect(await mailsTo(w.people.erin.email)).toHaveLength(0)
    expect(await mailsTo(w.people.dave.email)).toHaveLength(0)
  })

  it('sends one digest for a burst of faults across the fleet', async () => {
    const before = (await mailsTo(w.people.alice.email)).length
    const agents = await Promise.all(Array.from({ length: 6 }, () => enrolledAgent(w.org.id, w.main.id)))
    for (const agent of agents) {
      const alerts = Array.from({ length: 5 }, (_, i) => alert(`recv.link${i}`, 3, `Receiver link ${i} lost`))
      await report(agent.id, [{ id: 'sys-1', name: 'Main Wall', alerts }])
    }
    await flushNotifications({ now: later(BATCH_MS + 1000) })
    const mails = (await mailsTo(w.people.alice.email)).slice(before)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.kind).toBe('issueDigest')
    expect(mails[0]!.subject).toContain('30 alerts and deviations')
    expect(mails[0]!.text.match(/Receiver link \d lost/g)).toHaveLength(30)
  })

  it('tells about an alert whose change event was lost with its process, once delivery runs again', async () => {
    // the process that committed the alert dies before delivery evaluated it: nobody hears its event
    await delivery.stop()
    const agent = await enrolledAgent(w.org.id, w.left.id)
    const payload = updateClientStateRequestSchema.parse({ systems: [{ id: 'sys-lost', name: 'Lost Event Wall', alerts: [alert('recv.fanFail', 3, 'Fan failed on tile 12')] }] })
    await ingestCall(agent.id, 'updateClientState', payload, { ip: null, receivedAt: new Date() })
    await drainIngest()
    const issue = await prisma.issue.findFirstOrThrow({ where: { system: { agentId: agent.id }, key: 'recv.fanFail' } })
    expect(issue.isActive).toBe(true)
    expect(await prisma.notificationDelivery.count({ where: { issueId: issue.id } })).toBe(0)

    // the next process starts delivery: it evaluates what was never evaluated, once
    delivery = startNotificationDelivery()
    await expect.poll(() => prisma.notificationDelivery.count({ where: { issueId: issue.id, userId: w.people.alice.id } })).toBe(1)
    await delivery.idle()
    await flushNotifications({ now: later(BATCH_MS + 1000) })
    expect((await mailsTo(w.people.alice.email)).at(-1)!.text).toContain('Fan failed on tile 12')
    expect(await queueUnevaluated()).toBe(0)
    expect(await prisma.notificationDelivery.count({ where: { issueId: issue.id } })).toBe(1)
  })

  it('tells nobody about systems that are not assigned to a project', async () => {
    const before = await prisma.outboxEmail.count()
    const agent = await enrolledAgent(w.org.id, null)
    await report(agent.id, [{ id: 'sys-x', name: 'Loose System', alerts: [alert('psu.fail', 2, 'Power supply failed')] }])
    await flushNotifications({ force: true })
    expect(await prisma.outboxEmail.count()).toBe(before)
  })
})

describe('subscriptions', () => {
  it('lists the tree, refuses creation without level or target, and deletes with no doc', async () => {
    const w = await world()
    const erin = actorFor(w.people.erin)
    const tree = await listSubscriptionTree(erin)
    expect(tree.default).toMatchObject({ alerts: 4, deviations: 4 })
    const org = tree.organizations.find((o) => o.id === w.org.id)!
    expect(org.projects.map((p) => [p.name, p.depth])).toEqual([
      ['Main Stage', 0],
      ['Left Wall', 1],
      ['Studio', 0],
    ])
    const mainOverride = org.projects[0]!.subscription!
    expect(mainOverride).toMatchObject({ level: 'project', alerts: 0 })

    await expect(updateSubscription(erin, { doc: { target: w.org.id, alerts: 1 } })).rejects.toMatchObject({ message: 'Level is required' })
    await expect(updateSubscription(erin, { doc: { level: 'organization', alerts: 1 } })).rejects.toMatchObject({ message: 'Target is required' })

    await updateSubscription(erin, { id: mainOverride.id, doc: { alerts: 2 } })
    expect((await listSubscriptionTree(erin)).organizations[0]!.projects[0]!.subscription).toMatchObject({ alerts: 2 })
    await updateSubscription(erin, { id: mainOverride.id })
    expect((await listSubscriptionTree(erin)).organizations[0]!.projects[0]!.subscription).toBeNull()

    // Dave sees only Studio: the tree and the project targets follow what he can see.
    const dave = actorFor(w.people.dave)
    expect((await listSubscriptionTree(dave)).organizations[0]!.projects.map((p) => p.name)).toEqual(['Studio'])
    await expect(updateSubscription(dave, { doc: { level: 'project', target: w.main.id, alerts: 4 } })).rejects.toMatchObject({ status: 403 })
  })

  it('sends a test notification to the user', async () => {
    const w = await world()
    const result = await testNotification(actorFor(w.people.bob), { organization: w.org.id, project: w.left.id })
    expect(result.message).toBe('Notification sent')
    const mail = await prisma.outboxEmail.findFirstOrThrow({ where: { to: w.people.bob.email, kind: 'notificationTest' } })
    expect(mail.subject).toContain('Arena Live / Left Wall')
    await expect(testNotification(actorFor(w.people.dave), { organization: w.org.id, project: w.left.id })).rejects.toMatchObject({ status: 403 })
  })
})

describe('login history', () => {
  it('records each password sign-in with its device and address', async () => {
    const email = `history-${Date.now()}@notify.test`
    const user = await prisma.user.create({ data: { email, name: 'Hana History', emailVerified: true, passwordHash: await hashPassword('Correct-horse-9') } })
    const chrome = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0'
    await signInWithPassword({ email, password: 'Correct-horse-9' }, { ip: '203.0.113.5', userAgent: chrome })
    await signInWithPassword({ email, password: 'Correct-horse-9' }, { ip: '198.51.100.7', userAgent: firefox })
    await expect(signInWithPassword({ email, password: 'wrong-password' }, { ip: '198.51.100.9', userAgent: firefox })).rejects.toThrow()

    const history = await listLoginHistory(actorFor(user))
    expect(history.map((h) => h.ip).sort()).toEqual(['198.51.100.7', '203.0.113.5'])
    expect(history.find((h) => h.ip === '203.0.113.5')!.device).toContain('Chrome 126')
    expect(history.find((h) => h.ip === '198.51.100.7')!.device).toContain('Firefox 128')
  })
})
