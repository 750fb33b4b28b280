import { z } from 'zod'
import { type Actor } from '../../actor'
import { getOrganizationAccess } from '../../access/access.server'
import { audit } from '../../audit/audit.server'
import { randomToken } from '../../auth/crypto.server'
import { rateLimit } from '../../auth/rate-limit.server'
import { invalid, notFound } from '../../errors'
import { emitChange } from '../../events/bus.server'
import { parseInput } from '../../parse-input'
import { CHANNEL_TYPES, CHANNEL_TYPE_LABELS, type ChannelType } from './payloads.server'
import { enqueueChannelMessages, newEventId, deliverDueChannelMessages } from './sender.server'
import { validateChannelUrl } from './url-guard.server'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { byName } from '~/utils/name-order'

/**
 * Settings > Notification channels (docs/notification-channels.md): webhooks, Slack and Teams
 * incoming webhooks of an organization. Managing them (list with URLs, create, delete, test, the
 * delivery log) needs org.update; the names are listed to any member for the subscription picker.
 * A webhook's signing secret is returned once, by create, and never again.
 */

export const MAX_CHANNELS_PER_ORGANIZATION = 50

const organizationField = z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required')

export const listChannelsInput = z.object({ organization: organizationField })
export const createChannelInput = z.object({
  organization: organizationField,
  name: z.string({ required_error: 'Name is required' }).trim().min(1, 'Name is required').max(80, 'Name must be at most 80 characters'),
  type: z.enum(CHANNEL_TYPES, { errorMap: () => ({ message: 'Type must be webhook, slack or teams' }) }),
  url: z.string({ required_error: 'URL is required' }).trim().min(1, 'URL is required').max(2000, 'URL must be at most 2000 characters'),
})
export const channelRefInput = z.object({ organization: organizationField, id: z.string({ required_error: 'Channel is required' }).min(1, 'Channel is required') })
export const channelDeliveriesInput = channelRefInput.extend({ limit: z.coerce.number().int().min(1).max(200).default(50) })

export type ChannelView = { id: string; name: string; type: ChannelType; typeLabel: string; url: string; createdAt: string; lastDelivery: { status: string; at: string; statusCode: number | null } | null }
export type ChannelOption = { id: string; name: string; type: ChannelType }

/** Shows scheme, host and the start of the path: a Slack/Teams URL is itself a secret. */
export function maskUrl(raw: string): string {
  try {
    const url = new URL(raw)
    const path = url.pathname.length > 12 ? `${url.pathname.slice(0, 12)}…` : url.pathname
    return `${url.protocol}//${url.host}${path}`
  } catch {
    return '…'
  }
}

async function manageAccess(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('org.update')
  return access
}

async function channelOf(organizationId: string, id: string) {
  const channel = await prisma.notificationChannel.findFirst({ where: { id, organizationId } })
  if (!channel) throw notFound('Channel not found')
  return channel
}

/** Organization/notificationChannels: every channel with its masked URL and latest delivery. */
export async function listChannels(actor: Actor, raw: unknown): Promise<{ channels: ChannelView[] }> {
  const { organization } = parseInput(listChannelsInput, raw)
  await manageAccess(actor, organization)
  const rows = (
    await prisma.notificationChannel.findMany({
      where: { organizationId: organization },
      include: { deliveries: { orderBy: { createdAt: 'desc' }, take: 1, select: { status: true, createdAt: true, sentAt: true, lastStatusCode: true } } },
    })
  ).sort(byName)
  return {
    channels: rows.map((c) => {
      const last = c.deliveries[0]
      return {
        id: c.id,
        name: c.name,
        type: c.type as ChannelType,
        typeLabel: CHANNEL_TYPE_LABELS[c.type as ChannelType] ?? c.type,
        url: maskUrl(c.url),
        createdAt: c.createdAt.toISOString(),
        lastDelivery: last ? { status: last.status, at: (last.sentAt ?? last.createdAt).toISOString(), statusCode: last.lastStatusCode } : null,
      }
    }),
  }
}

/** The picker on the notification settings rows: names only, for any member of the organization. */
export async function channelOptions(organizationIds: string[]): Promise<Map<string, ChannelOption[]>> {
  const rows = (await prisma.notificationChannel.findMany({ where: { organizationId: { in: organizationIds } }, select: { id: true, name: true, type: true, organizationId: true } })).sort(byName)
  const map = new Map<string, ChannelOption[]>()
  for (const r of rows) map.set(r.organizationId, [...(map.get(r.organizationId) ?? []), { id: r.id, name: r.name, type: r.type as ChannelType }])
  return map
}

/** Organization/createNotificationChannel: the secret (webhooks) is in this answer only. */
export async function createChannel(actor: Actor, raw: unknown): Promise<{ channel: ChannelView; secret: string | null }> {
  const input = parseInput(createChannelInput, raw)
  await manageAccess(actor, input.organization)
  const url = await validateChannelUrl(input.url)
  const count = await prisma.notificationChannel.count({ where: { organizationId: input.organization } })
  if (count >= MAX_CHANNELS_PER_ORGANIZATION) throw invalid(`An organization can have at most ${MAX_CHANNELS_PER_ORGANIZATION} channels`)
  const secret = input.type === 'webhook' ? `whsec_${randomToken(32)}` : ''
  const channel = await prisma.$transaction(async (tx) => {
    const row = await tx.notificationChannel.create({ data: { organizationId: input.organization, name: input.name, type: input.type, url, secret } })
    await audit(tx, actor, {
      organizationId: input.organization,
      action: 'notificationChannel.create',
      message: `${CHANNEL_TYPE_LABELS[input.type]} notification channel ${input.name} created (${maskUrl(url)})`,
    })
    return row
  })
  emitChange({ organizationId: input.organization, kind: 'organization' })
  return {
    channel: { id: channel.id, name: channel.name, type: input.type, typeLabel: CHANNEL_TYPE_LABELS[input.type], url: maskUrl(url), createdAt: channel.createdAt.toISOString(), lastDelivery: null },
    secret: secret || null,
  }
}

/** Organization/deleteNotificationChannel: subscriptions using it fall back to e-mail only. */
export async function deleteChannel(actor: Actor, raw: unknown): Promise<{ message: string }> {
  const { organization, id } = parseInput(channelRefInput, raw)
  await manageAccess(actor, organization)
  const channel = await channelOf(organization, id)
  await prisma.$transaction(async (tx) => {
    await tx.notificationChannel.delete({ where: { id: channel.id } })
    await audit(tx, actor, { organizationId: organization, action: 'notificationChannel.delete', message: `Notification channel ${channel.name} deleted` })
  })
  emitChange({ organizationId: organization, kind: 'organization' })
  return { message: 'Channel deleted' }
}

/** Organization/testNotificationChannel: queues a test message and tries to send it at once. */
export async function testChannel(actor: Actor, raw: unknown): Promise<{ message: string; delivery: DeliveryLogRow | null }> {
  const { organization, id } = parseInput(channelRefInput, raw)
  const access = await manageAccess(actor, organization)
  const channel = await channelOf(organization, id)
  await rateLimit(`channelTest:${channel.id}`, 30, 60 * 60_000)
  const eventId = newEventId()
  const [deliveryId] = await enqueueChannelMessages([
    {
      channelId: channel.id,
      dedupKey: `test:${eventId}`,
      kind: 'test',
      event: {
        id: eventId,
        type: 'test',
        createdAt: new Date().toISOString(),
        organization: { id: organization, name: access.organization.name },
        summary: `Test notification for ${access.organization.name} from Pixelfleet`,
        link: `${getConfig().publicUrl}/organization/${organization}/settings/channels`,
      },
    },
  ])
  await prisma.$transaction(async (tx) => {
    await audit(tx, actor, { organizationId: organization, action: 'notificationChannel.test', message: `Test message sent to notification channel ${channel.name}` })
  })
  // The test button answers with the first attempt's outcome; retries continue in the background.
  await deliverDueChannelMessages()
  const row = deliveryId ? await firstAttemptOf(deliveryId) : null
  emitChange({ organizationId: organization, kind: 'organization' })
  return { message: row?.status === 'sent' ? 'Test message delivered' : 'Test message queued; see the delivery log', delivery: row ? toLogRow(row) : null }
}

/**
 * The delivery after its first attempt. The background sender, woken by the new row, may have
 * claimed it before this request's own run: then wait for its attempt (bounded by the channel
 * timeout) rather than answer "queued" for a message that is being delivered right now.
 */
async function firstAttemptOf(deliveryId: string) {
  const deadline = Date.now() + getConfig().CHANNEL_TIMEOUT_MS + 5_000
  for (;;) {
    const row = await prisma.channelDelivery.findUnique({ where: { id: deliveryId } })
    if (!row || row.attempts > 0 || row.status !== 'pending' || Date.now() >= deadline) return row
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

export type DeliveryLogRow = {
  id: string
  kind: string
  summary: string
  status: string
  attempts: number
  statusCode: number | null
  error: string | null
  createdAt: string
  sentAt: string | null
  nextAttemptAt: string | null
  attemptLog?: { attempt: number; statusCode: number | null; error: string | null; at: string; durationMs: number }[]
}

const toLogRow = (r: { id: string; kind: string; summary: string; status: string; attempts: number; lastStatusCode: number | null; lastError: string | null; createdAt: Date; sentAt: Date | null; nextAttemptAt: Date | null }): DeliveryLogRow => ({
  id: r.id,
  kind: r.kind,
  summary: r.summary,
  status: r.status,
  attempts: r.attempts,
  statusCode: r.lastStatusCode,
  error: r.lastError,
  createdAt: r.createdAt.toISOString(),
  sentAt: r.sentAt?.toISOString() ?? null,
  nextAttemptAt: r.status === 'pending' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
})

/** Organization/notificationChannelDeliveries: the newest messages of a channel with every attempt. */
export async function channelDeliveries(actor: Actor, raw: unknown): Promise<{ channel: { id: string; name: string }; deliveries: DeliveryLogRow[] }> {
  const { organization, id, limit } = parseInput(channelDeliveriesInput, raw)
  await manageAccess(actor, organization)
  const channel = await channelOf(organization, id)
  const rows = await prisma.channelDelivery.findMany({
    where: { channelId: channel.id },
    orderBy: { createdAt: 'desc' },
    take: limit,
    include: { attemptLog: { orderBy: { attempt: 'asc' } } },
  })
  return {
    channel: { id: channel.id, name: channel.name },
    deliveries: rows.map((r) => ({
      ...toLogRow(r),
      attemptLog: r.attemptLog.map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, at: a.at.toISOString(), durationMs: a.durationMs })),
    })),
  }
}
