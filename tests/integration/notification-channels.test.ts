/**
 * Notification channels end to end with msw as the receiving side: webhook signatures verified as
 * a receiver would, retry with backoff on a fake clock, Slack and Teams payload shapes, the SSRF
 * guard, permissions, and a switch failure reported through ingest that reaches a channel and
 * an inbox as ONE root-cause message.
 */
import { createHmac } from 'node:crypto'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { updateClientStateRequestSchema } from '../../protocol'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { drainIngest, ingestCall } from '../../ingest/pipeline.server'
import { channelDeliveries, createChannel, deleteChannel, listChannels, testChannel } from '~/domain/notifications/channels/channels.server'
import { verifySignature } from '~/domain/notifications/channels/payloads.server'
import { backoffMs, deliverDueChannelMessages, enqueueChannelMessages } from '~/domain/notifications/channels/sender.server'
import { validateChannelUrl } from '~/domain/notifications/channels/url-guard.server'
import { flushNotifications, startNotificationDelivery } from '~/domain/notifications/delivery.server'
import { listSubscriptionTree, updateSubscription } from '~/domain/notifications/subscriptions.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { actorFor } from '../setup/actor'

type Received = { path: string; body: string; headers: Headers }
const received: Received[] = []
let script: number[] = []
/**
 * `slow` never answers before the sender gives up: it waits for the request's abort (with a far
 * fallback), whatever the machine's load, and takes nothing from `script`: a late answer of an
 * abandoned attempt must not eat a status scripted for a later request.
 */
const untilAborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    const fallback = setTimeout(resolve, 60_000).unref()
    signal.addEventListener('abort', () => (clearTimeout(fallback), resolve()), { once: true })
  })
const server = setupServer(
  http.post('http://localhost/:path', async ({ request, params }) => {
    received.push({ path: String(params.path), body: await request.text(), headers: request.headers })
    if (params.path === 'slow') {
      await untilAborted(request.signal)
      return new HttpResponse('too late', { status: 504 })
    }
    const status = script.shift() ?? 200
    return new HttpResponse(status === 200 ? 'ok' : 'upstream trouble', { status })
  }),
)
const on = (path: string) => received.filter((r) => r.path === path)


let seq = 0
async function person(label: string, organizationId: string, roleId: string) {
  const user = await prisma.user.create({ data: { email: `${label}-${++seq}@channels.test`, name: label, emailVerified: true } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId, organizationId } })
    await compileUserAcls(tx, user.id, organizationId)
  })
  return user
}

async function organization(name: string) {
  const owner = await prisma.user.create({ data: { email: `owner-${++seq}@channels.test`, name: `${name} owner`, emailVerified: true } })
  const org = await prisma.organization.create({ data: { name, ownerId: owner.id } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await compileUserAcls(tx, owner.id, org.id)
  })
  return { owner, org, admin: actorFor(owner) }
}

const sampleEvent = (summary: string) => ({
  id: `evt-${++seq}`,
  type: 'issue.active' as const,
  createdAt: '2030-01-01T00:00:00.000Z',
  organization: { id: 'o', name: 'Arena Live' },
  agent: { id: 'a', name: 'Arena processor' },
  issue: { id: 'i', kind: 'alert', key: 'proc.noInput', component: 'processor', severity: 2, severityLabel: 'Critical', message: 'no signal on SDI 1' },
  summary,
  link: 'http://portal.test/organization/o/agents/a',
})

let arena: Awaited<ReturnType<typeof organization>>
let other: Awaited<ReturnType<typeof organization>>

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'bypass' })
  arena = await organization('Arena Live')
  other = await organization('Other Co')
})
afterAll(() => server.close())
beforeEach(() => {
  script = []
})

describe('notification channels', () => {
  it('creates a webhook whose secret is shown once, and signs what it sends so a receiver can verify it', async () => {
    const { channel, secret } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Ops webhook', type: 'webhook', url: 'http://localhost/hook' })
    expect(secret).toMatch(/^whsec_/)
    const listed = await listChannels(arena.admin, { organization: arena.org.id })
    expect(JSON.stringify(listed)).not.toContain(secret!)
    expect(listed.channels.map((c) => c.name)).toContain('Ops webhook')

    const result = await testChannel(arena.admin, { organization: arena.org.id, id: channel.id })
    expect(result.message).toBe('Test message delivered')
    const [hit] = on('hook')
    const timestamp = hit!.headers.get('x-pixelfleet-timestamp')
    const signature = hit!.headers.get('x-pixelfleet-signature')
    // What a receiver does, by hand: HMAC-SHA256 of "<timestamp>.<raw body>" with the secret.
    expect(signature).toBe(`sha256=${createHmac('sha256', secret!).update(`${timestamp}.${hit!.body}`).digest('hex')}`)
    expect(verifySignature(secret!, { signature, timestamp }, hit!.body)).toBe(true)
    expect(verifySignature(secret!, { signature, timestamp }, hit!.body.replace('Test', 'Tampered'))).toBe(false)
    expect(verifySignature('whsec_wrong', { signature, timestamp }, hit!.body)).toBe(false)
    // A replay ten minutes later is refused by the timestamp check.
    expect(verifySignature(secret!, { signature, timestamp }, hit!.body, (Number(timestamp) + 600) * 1000)).toBe(false)
    expect(JSON.parse(hit!.body)).toMatchObject({ type: 'test', organization: { id: arena.org.id, name: 'Arena Live' } })

    const log = await channelDeliveries(arena.admin, { organization: arena.org.id, id: channel.id })
    expect(log.deliveries[0]).toMatchObject({ kind: 'test', status: 'sent', attempts: 1, statusCode: 200 })
    expect(log.deliveries[0]!.attemptLog).toHaveLength(1)
    const audits = await prisma.auditRecord.findMany({ where: { organizationId: arena.org.id, action: { startsWith: 'notificationChannel.' } } })
    expect(audits.map((a) => a.action).sort()).toEqual(['notificationChannel.create', 'notificationChannel.test'])
    expect(audits.map((a) => a.message).join(' ')).not.toContain(secret!)
  })

  it('retries 5xx and timeouts with exponential backoff on a fake clock, gives up after the last attempt, fails 4xx at once', async () => {
    const { channel } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Flaky', type: 'webhook', url: 'http://localhost/flaky' })
    const t0 = new Date('2030-01-01T00:00:00Z')
    const at = (ms: number) => new Date(t0.getTime() + ms)
    const [id] = await enqueueChannelMessages([{ channelId: channel.id, dedupKey: 'retry-1', kind: 'issue', event: sampleEvent('flaky one') }], t0)
    script = [503, 502, 200]
    expect(await deliverDueChannelMessages({ now: t0 })).toBe(0)
    let row = await prisma.channelDelivery.findUniqueOrThrow({ where: { id } })
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: 503 })
    expect(row.nextAttemptAt!.getTime()).toBe(at(backoffMs(1)).getTime())
    // Not due yet: nothing is sent.
    await deliverDueChannelMessages({ now: at(backoffMs(1) - 1) })
    expect(on('flaky')).toHaveLength(1)
    await deliverDueChannelMessages({ now: at(backoffMs(1)) })
    row = await prisma.channelDelivery.findUniqueOrThrow({ where: { id } })
    expect(row.nextAttemptAt!.getTime()).toBe(at(backoffMs(1) + backoffMs(2)).getTime())
    expect(backoffMs(2)).toBe(2 * backoffMs(1))
    expect(await deliverDueChannelMessages({ now: at(backoffMs(1) + backoffMs(2)) })).toBe(1)
    row = await prisma.channelDelivery.findUniqueOrThrow({ where: { id }, include: { attemptLog: { orderBy: { attempt: 'asc' } } } })
    expect(row.status).toBe('sent')
    expect((row as typeof row & { attemptLog: { statusCode: number | null }[] }).attemptLog.map((a) => a.statusCode)).toEqual([503, 502, 200])

    // Gives up after CHANNEL_MAX_ATTEMPTS; a timeout counts as retryable.
    const config = getConfig()
    setConfig({ ...config, CHANNEL_MAX_ATTEMPTS: 2, CHANNEL_TIMEOUT_MS: 100 })
    try {
      const { channel: slow } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Slow', type: 'webhook', url: 'http://localhost/slow' })
      const [slowId] = await enqueueChannelMessages([{ channelId: slow.id, dedupKey: 'slow-1', kind: 'issue', event: sampleEvent('slow one') }], t0)
      await deliverDueChannelMessages({ now: t0 })
      expect(await prisma.channelDelivery.findUniqueOrThrow({ where: { id: slowId } })).toMatchObject({ status: 'pending', lastError: 'Timed out after 100 ms' })
      await deliverDueChannelMessages({ now: at(backoffMs(1)) })
      expect(await prisma.channelDelivery.findUniqueOrThrow({ where: { id: slowId } })).toMatchObject({ status: 'failed', attempts: 2, nextAttemptAt: null })

      const [goneId] = await enqueueChannelMessages([{ channelId: channel.id, dedupKey: 'gone-1', kind: 'issue', event: sampleEvent('gone') }], t0)
      script = [404]
      await deliverDueChannelMessages({ now: at(10 * 3600_000) })
      expect(await prisma.channelDelivery.findUniqueOrThrow({ where: { id: goneId } })).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 404 })
    } finally {
      setConfig(config)
    }
  })

  it('posts Slack Block Kit and Teams Adaptive Card messages, unsigned', async () => {
    const { channel: slack } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Slack ops', type: 'slack', url: 'http://localhost/slack' })
    const { channel: teams, secret } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Teams ops', type: 'teams', url: 'http://localhost/teams' })
    expect(secret).toBeNull()
    await enqueueChannelMessages([
      { channelId: slack.id, dedupKey: 'shape', kind: 'issue', event: sampleEvent('Critical alert on Arena processor: <no signal>') },
      { channelId: teams.id, dedupKey: 'shape', kind: 'issue', event: sampleEvent('Critical alert on Arena processor: no signal') },
    ])
    await deliverDueChannelMessages()
    const slackBody = JSON.parse(on('slack')[0]!.body)
    expect(slackBody.text).toBe('Critical alert on Arena processor: <no signal>')
    expect(slackBody.blocks[0]).toEqual({ type: 'section', text: { type: 'mrkdwn', text: '*Critical alert on Arena processor: &lt;no signal&gt;*' } })
    expect(slackBody.blocks.at(-1).elements[0].url).toBe('http://portal.test/organization/o/agents/a')
    expect(on('slack')[0]!.headers.get('x-pixelfleet-signature')).toBeNull()
    const teamsBody = JSON.parse(on('teams')[0]!.body)
    expect(teamsBody.type).toBe('message')
    expect(teamsBody.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive')
    expect(teamsBody.attachments[0].content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' })
    expect(teamsBody.attachments[0].content.body[1].facts).toContainEqual({ title: 'Severity', value: 'Critical' })
  })

  it('refuses internal and non-https destinations (SSRF), when saving and when sending', async () => {
    const count = () => prisma.notificationChannel.count({ where: { organizationId: arena.org.id } })
    const before = await count()
    for (const url of ['https://10.1.2.3/hook', 'https://169.254.169.254/latest', 'https://[fd00::1]/x', 'http://example.com/hook', 'ftp://example.com', 'https://user:pw@example.com/x', 'not a url']) {
      await expect(createChannel(arena.admin, { organization: arena.org.id, name: 'Bad', type: 'webhook', url }), url).rejects.toMatchObject({ status: 400 })
    }
    expect(await count()).toBe(before)
    // A public name that resolves inside is refused too.
    await expect(validateChannelUrl('https://hooks.example.com/x', async () => ['192.168.1.5'])).rejects.toMatchObject({ status: 400 })
    await expect(validateChannelUrl('https://hooks.example.com/x', async () => ['203.0.113.7'])).resolves.toBe('https://hooks.example.com/x')
    // Production: no http, not even localhost; an explicit setting allows private addresses.
    setConfig({ ...getConfig(), NODE_ENV: 'production' })
    await expect(validateChannelUrl('http://localhost/hook')).rejects.toMatchObject({ status: 400 })
    await expect(validateChannelUrl('https://127.0.0.1/hook')).rejects.toMatchObject({ status: 400 })
    setConfig({ ...getConfig(), CHANNEL_ALLOW_PRIVATE: true })
    await expect(validateChannelUrl('https://10.1.2.3/hook')).resolves.toBe('https://10.1.2.3/hook')
    setConfig({ ...getConfig(), NODE_ENV: 'test', CHANNEL_ALLOW_PRIVATE: false })

    // A channel whose address turned internal after saving is refused at send time, not fetched.
    const { channel } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Moved', type: 'webhook', url: 'http://localhost/moved' })
    await prisma.notificationChannel.update({ where: { id: channel.id }, data: { url: 'https://10.0.0.8/hook' } })
    const [id] = await enqueueChannelMessages([{ channelId: channel.id, dedupKey: 'moved', kind: 'issue', event: sampleEvent('moved') }])
    await deliverDueChannelMessages()
    expect(await prisma.channelDelivery.findUniqueOrThrow({ where: { id } })).toMatchObject({ status: 'failed' })
    expect(on('moved')).toHaveLength(0)
  })

  it('refuses a viewer and a foreign organization, and changes nothing', async () => {
    const viewer = actorFor(await person('Viewer', arena.org.id, DEFAULT_ROLE_IDS.orgMember))
    const { channel } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Guarded', type: 'webhook', url: 'http://localhost/guarded' })
    const before = await prisma.notificationChannel.count()
    for (const actor of [viewer, other.admin]) {
      await expect(listChannels(actor, { organization: arena.org.id })).rejects.toMatchObject({ status: 403 })
      await expect(createChannel(actor, { organization: arena.org.id, name: 'X', type: 'webhook', url: 'http://localhost/x' })).rejects.toMatchObject({ status: 403 })
      await expect(testChannel(actor, { organization: arena.org.id, id: channel.id })).rejects.toMatchObject({ status: 403 })
      await expect(deleteChannel(actor, { organization: arena.org.id, id: channel.id })).rejects.toMatchObject({ status: 403 })
      await expect(channelDeliveries(actor, { organization: arena.org.id, id: channel.id })).rejects.toMatchObject({ status: 403 })
    }
    // Another organization's admin naming the channel under their own organization: not found.
    await expect(deleteChannel(other.admin, { organization: other.org.id, id: channel.id })).rejects.toMatchObject({ status: 404 })
    // A subscription cannot point at another organization's channel.
    await expect(updateSubscription(other.admin, { doc: { level: 'organization', target: other.org.id, alerts: 4, channel: channel.id } })).rejects.toMatchObject({ status: 400 })
    expect(await prisma.notificationChannel.count()).toBe(before)
    expect(on('guarded')).toHaveLength(0)
    await deleteChannel(arena.admin, { organization: arena.org.id, id: channel.id })
    expect(await prisma.notificationChannel.findUnique({ where: { id: channel.id } })).toBeNull()
  })

  it('a switch failure reaches the subscribed channel and the inbox as ONE root-cause message', async () => {
    const delivery = startNotificationDelivery()
    const project = await prisma.project.create({ data: { organizationId: arena.org.id, name: 'Main Stage' } })
    const { channel } = await createChannel(arena.admin, { organization: arena.org.id, name: 'Stage webhook', type: 'webhook', url: 'http://localhost/stage' })
    await updateSubscription(arena.admin, { doc: { level: 'organization', target: arena.org.id, alerts: 4, deviations: 0, channel: channel.id } })
    const tree = await listSubscriptionTree(arena.admin)
    const node = tree.organizations.find((o) => o.id === arena.org.id)!
    expect(node.subscription?.channelId).toBe(channel.id)
    expect(node.channels.map((c) => c.name)).toContain('Stage webhook')

    const agent = await prisma.agent.create({
      data: { clientName: 'Stage agent', product: 'VX1000', serial: 'SN-RC1', secretHash: 'x', organizationId: arena.org.id, enrolledAt: new Date(), defaultProjectId: project.id },
    })
    const tile = (n: number) => ({ id: `tile-${n}`, component: 'receiver' as const, product: 'R5', serial: `T${n}`, name: `Tile ${n}`, parent: 'processor', properties: {}, count: 1 })
    const system = updateClientStateRequestSchema.parse({
      systems: [
        {
          id: 'wall',
          name: 'Main wall',
          devices: [
            { id: 'switch-1', component: 'switch', product: 'SW', serial: 'S1', name: 'Stage switch', properties: { portsDown: [3], links: [{ port: 3, label: 'Processor', device: 'processor' }] }, count: 1 },
            { id: 'processor', component: 'processor', product: 'VX1000', serial: 'P1', name: 'Processor', properties: {}, count: 1 },
            ...[1, 2, 3, 4].map(tile),
          ],
          alerts: [
            { key: 'switch.portDown', component: 'switch', device: 'switch-1', message: 'Stage switch: port 3 (Processor) link down', severity: 3, history: [] },
            { key: 'recv.offline', component: 'receiver', message: 'Tile 1 not responding (+3 more)', severity: 2, history: [{ timestamp: Date.now(), count: 4 }] },
          ],
          deviations: [],
        },
      ],
    }).systems[0]!
    await ingestCall(agent.id, 'updateClientState', { systems: [system] }, { ip: null, receivedAt: new Date() })
    await drainIngest()
    await delivery.idle()

    const queued = await prisma.channelDelivery.findMany({ where: { channelId: channel.id } })
    expect(queued).toHaveLength(1)
    expect(queued[0]!.kind).toBe('rootCause')
    await deliverDueChannelMessages()
    const event = JSON.parse(on('stage')[0]!.body)
    expect(event).toMatchObject({ type: 'rootCause.active', issue: { key: 'switch.portDown' }, rootCause: { explainedIssues: 1, affectedDevices: 4 } })
    expect(event.summary).toBe('Root cause on Stage agent: Stage switch: port 3 (Processor) link down affects 4 devices')
    // the port's own alert is an Error; the dark tiles it explains are Critical, so the group is
    expect(event.issue).toMatchObject({ severity: 2, severityLabel: 'Critical' })

    await flushNotifications({ force: true })
    const mails = await prisma.outboxEmail.findMany({ where: { to: arena.owner.email, kind: { in: ['issueNotification', 'issueDigest'] } } })
    expect(mails).toHaveLength(1)
    expect(mails[0]!.kind).toBe('issueNotification')
    expect(mails[0]!.subject).toContain('Root cause: Stage switch: port 3 (Processor) link down affects 4 devices')
    expect(mails[0]!.subject).toMatch(/^\[Pixelfleet\] Critical alert on Stage agent/)
    expect(mails[0]!.text).not.toContain('Tile 1 not responding')

    // Reported again: nothing new for the channel.
    await ingestCall(agent.id, 'updateClientState', { systems: [system] }, { ip: null, receivedAt: new Date() })
    await drainIngest()
    await delivery.idle()
    expect(await prisma.channelDelivery.count({ where: { channelId: channel.id } })).toBe(1)
    await delivery.stop()
  })
})
