import { randomUUID } from 'node:crypto'
import { Prisma } from '@prisma/client'
import { type ChannelEvent, SIGNATURE_HEADER, TIMESTAMP_HEADER, renderBody, signBody } from './payloads.server'
import { assertPublicDestination, guardedFetch, parseChannelUrl } from './url-guard.server'
import { prisma, isUniqueViolation } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { counter } from '~/utils/metrics.server'
import { announceWork } from '../../events/bus.server'
import { workDue } from '../../jobs/due.server'
import { startPoller } from '../../jobs/poller.server'
import { retryDelayMs } from '../../jobs/retry'

/**
 * The channel queue (docs/notification-channels.md). Every message is a ChannelDelivery row
 * written before anything is sent, so a restart loses nothing: the sender picks up rows whose
 * nextAttemptAt is due. A row is claimed with a conditional update (two nodes never send it
 * twice). 2xx = sent; 5xx, 429, a timeout or a network error = retried with exponential backoff
 * until CHANNEL_MAX_ATTEMPTS; any other status = failed at once. Each attempt is logged.
 */

/** Wait before attempt n+1 after attempt n failed: 10 s, 20 s, 40 s, ... capped at 1 h (the channel delay table, app/domain/jobs/retry.ts). */
export const backoffMs = (attempt: number) => retryDelayMs('channel', attempt, Number.MAX_SAFE_INTEGER)!

/** The queue name the channel sender wakes on (announceWork). */
export const CHANNEL_QUEUE = 'channel'

export type QueuedMessage = { channelId: string; dedupKey: string; kind: string; event: ChannelEvent }

/** Writes messages to the queue; a (channel, dedupKey) already queued is skipped. Returns how many were new. */
export async function enqueueChannelMessages(messages: QueuedMessage[], now = new Date()): Promise<string[]> {
  const ids: string[] = []
  for (const m of messages) {
    try {
      const row = await prisma.channelDelivery.create({
        data: { channelId: m.channelId, dedupKey: m.dedupKey, kind: m.kind, summary: m.event.summary.slice(0, 500), payload: JSON.stringify(m.event), nextAttemptAt: now },
      })
      ids.push(row.id)
    } catch (error) {
      if (!(isUniqueViolation(error))) throw error
    }
  }
  if (ids.length) announceWork(CHANNEL_QUEUE)
  return ids
}

export const newEventId = () => randomUUID()

type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal; redirect: 'manual' }) => Promise<{ status: number; text: () => Promise<string> }>

export type SenderOptions = { now?: Date; fetch?: FetchLike; batch?: number; resolve?: (host: string) => Promise<string[]> }

const channelAttempts = counter({ name: 'pixelfleet_channel_delivery_attempts_total', help: 'Notification channel delivery attempts by channel type and outcome (sent, retry = failed and retried later, failed = given up)', labelNames: ['type', 'outcome'] })

const retryable = (status: number | null) => status === null || status === 429 || status === 408 || status >= 500

/** One HTTP attempt of a claimed row; records the attempt and the row's next state. */
async function attempt(row: { id: string; attempts: number; payload: string; channel: { type: string; url: string; secret: string } }, options: SenderOptions, now: Date) {
  const config = getConfig()
  const number = row.attempts + 1
  const started = Date.now()
  let status: number | null = null
  let error: string | null = null
  try {
    const url = parseChannelUrl(row.channel.url)
    // Checked again at send time: DNS may have changed since the channel was saved.
    await assertPublicDestination(url, options.resolve)
    const event = JSON.parse(row.payload) as ChannelEvent
    const body = renderBody(row.channel.type, event)
    const timestamp = Math.floor(now.getTime() / 1000)
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Pixelfleet-Notifications/1' }
    if (row.channel.type === 'webhook') {
      headers[TIMESTAMP_HEADER] = String(timestamp)
      headers[SIGNATURE_HEADER] = signBody(row.channel.secret, timestamp, body)
      headers['X-Pixelfleet-Event'] = event.type
      headers['X-Pixelfleet-Delivery'] = row.id
    }
    // guardedFetch checks the address it connects to again (DNS rebinding) and follows no redirect.
    const response = await (options.fetch ?? guardedFetch)(url.toString(), {
      method: 'POST',
      headers,
      body,
      signal: AbortSignal.timeout(config.CHANNEL_TIMEOUT_MS),
      // A redirect could point anywhere, including inside: never followed.
      redirect: 'manual',
    })
    status = response.status
    if (status < 200 || status >= 300) error = `HTTP ${status}: ${(await response.text().catch(() => '')).slice(0, 200)}`.trim()
  } catch (e) {
    const err = e as Error
    error = err.name === 'TimeoutError' || err.name === 'AbortError' ? `Timed out after ${config.CHANNEL_TIMEOUT_MS} ms` : err.message.slice(0, 300)
    // A refused destination is not retried: it will not become public by waiting.
    if ((e as { code?: string }).code === 'invalid-argument') status = 0
  }
  const ok = error === null
  const giveUp = !ok && (!retryable(status) || number >= config.CHANNEL_MAX_ATTEMPTS)
  channelAttempts.inc({ type: row.channel.type, outcome: ok ? 'sent' : giveUp ? 'failed' : 'retry' })
  await prisma.$transaction([
    prisma.channelDeliveryAttempt.create({ data: { deliveryId: row.id, attempt: number, statusCode: status || null, error, durationMs: Date.now() - started, at: now } }),
    prisma.channelDelivery.update({
      where: { id: row.id },
      data: {
        attempts: number,
        lastStatusCode: status || null,
        lastError: error,
        status: ok ? 'sent' : giveUp ? 'failed' : 'pending',
        sentAt: ok ? now : null,
        nextAttemptAt: ok || giveUp ? null : new Date(now.getTime() + backoffMs(number)),
      },
    }),
  ])
  return ok
}

/** Sends every due row (oldest first), each claimed with a lease first. Returns how many were delivered. */
export async function deliverDueChannelMessages(options: SenderOptions = {}): Promise<number> {
  const now = options.now ?? new Date()
  return workDue(
    {
      kind: 'channel',
      due: (at, take) =>
        prisma.channelDelivery.findMany({
          where: { status: 'pending', nextAttemptAt: { lte: at } },
          orderBy: { nextAttemptAt: 'asc' },
          take,
          include: { channel: { select: { type: true, url: true, secret: true } } },
        }),
      claim: async (row, until) => (await prisma.channelDelivery.updateMany({ where: { id: row.id, status: 'pending', nextAttemptAt: row.nextAttemptAt }, data: { nextAttemptAt: until } })).count === 1,
      attempt: (row) => attempt(row, options, now),
    },
    now,
    options.batch ?? 20,
  )
}

/**
 * When the earliest pending row becomes due (one indexed MIN over (status, nextAttemptAt)); null
 * when none is pending. Raw SQL: it runs after every send run, and Prisma's query building cost
 * several times the query itself.
 */
export async function nextChannelAttemptAt(): Promise<Date | null> {
  const [row] = await prisma.$queryRaw<{ at: Date | string | null }[]>(Prisma.sql`SELECT MIN("nextAttemptAt") AS at FROM "ChannelDelivery" WHERE "status" = 'pending'`)
  return row?.at ? new Date(row.at) : null
}

/** How long the sender sleeps when no pending row is known: new rows wake it (announceWork); this only catches rows a node that died wrote and never announced. */
export const CHANNEL_SAFETY_NET_MS = 30_000

/** Background sender, like the mail sender: state is in the rows, so restarts and several nodes are fine; new rows wake it at once, retries at their due time. */
export function startChannelSender(intervalMs = CHANNEL_SAFETY_NET_MS) {
  return startPoller({ name: 'channel sender', intervalMs, run: () => deliverDueChannelMessages(), nextDueAt: nextChannelAttemptAt, queues: [CHANNEL_QUEUE], runAtStart: true })
}
