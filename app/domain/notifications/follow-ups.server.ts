import { Prisma } from '@prisma/client'
import { severityLabel } from '../agents/derived'
import { formatDuration, lastActivationSpan } from '../alarms/clears'
import { isAcknowledged } from '../alarms/state'
import { windowPolicy } from '../alarms/windows.server'
import { isTrue } from '../fleet/dialect.server'
import { organizationMemberIds } from '../organizations/organizations.server'
import { type ChannelEvent } from './channels/payloads.server'
import { enqueueChannelMessages, newEventId, type QueuedMessage } from './channels/sender.server'
import { reachesThreshold } from './severity'
import { STATUS, accessesFor, chainOf, issueInclude, nearestSubscription, type IssueWithSystem, type SubscriptionRow } from './audience.server'
import { prisma, isUniqueViolation } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { inChunks } from '~/utils/id-chunks'

/**
 * Follow-ups of an alarm somebody was told about (decision 048, like Alertmanager's send_resolved
 * and repeat_interval), per subscription: the nearest subscription of the issue's project decides,
 * as for the first message.
 *
 * - resolved: when the activation clears (its clear is recorded, app/domain/alarms/clears.server.ts,
 *   after the 60 s hold-down), one message with how long it was active, to whoever was told of it
 *   (a sent 'active' or 'repeat' delivery) and has "Notify when resolved" on.
 * - repeat: while the activation stays active, unacknowledged and outside a maintenance window, one
 *   more message every repeatMinutes after the last one. A maintenance window suppresses repeats
 *   (nothing is recorded, so the next check after the window sends one).
 *
 * Each is a NotificationDelivery row (event resolved/repeat, round = repeat number) sent by the
 * flusher like any other, and a channel message with its own dedupKey. The unique keys make both
 * idempotent across nodes and repeated checks.
 */

/** How often the notification poller looks for repeats that are due. */
export const REPEAT_CHECK_MS = 60_000

type FollowUpRow = SubscriptionRow & { notifyResolved: boolean; repeatMinutes: number }
type FollowUp = { userId: string; issue: IssueWithSystem; event: 'resolved' | 'repeat'; round: number; channelId: string | null }

const TOLD = { status: { in: [STATUS.sent, STATUS.pending, STATUS.sending] }, event: { in: ['active', 'repeat'] } }

/** The follow-up subscriptions of the members of an organization, and its project tree. */
async function settingsOf(organizationId: string) {
  const organization = await prisma.organization.findUnique({ where: { id: organizationId }, select: { ownerId: true } })
  if (!organization) return null
  const memberIds = await organizationMemberIds(prisma, organizationId, organization.ownerId)
  const [subscriptions, projects] = await Promise.all([
    inChunks(memberIds, (chunk) =>
      prisma.subscription.findMany({
        where: { userId: { in: chunk }, OR: [{ level: 'default' }, { organizationId }] },
        select: { userId: true, level: true, target: true, alerts: true, deviations: true, channelId: true, notifyResolved: true, repeatMinutes: true },
      }),
    ),
    prisma.project.findMany({ where: { organizationId }, select: { id: true, parentId: true } }),
  ])
  const parents = new Map(projects.map((p) => [p.id, p.parentId]))
  const nearest = (userId: string, projectId: string) =>
    nearestSubscription(
      subscriptions.filter((s) => s.userId === userId),
      chainOf(parents, projectId),
      organizationId,
    ) as FollowUpRow | undefined
  return { nearest }
}

const byOrganization = (issues: IssueWithSystem[]) => {
  const groups = new Map<string, IssueWithSystem[]>()
  for (const issue of issues) {
    const organizationId = issue.system.agent.organizationId
    if (!organizationId || !issue.system.projectId) continue
    groups.set(organizationId, [...(groups.get(organizationId) ?? []), issue])
  }
  return groups
}

/** Writes the follow-ups the subscribers can still see; returns how many e-mail deliveries were new. */
async function write(organizationId: string, followUps: FollowUp[], now: Date): Promise<number> {
  if (!followUps.length) return 0
  const accesses = await accessesFor(organizationId, [...new Set(followUps.map((f) => f.userId))])
  const visible = followUps.filter((f) => accesses.get(f.userId)?.hasProject(f.issue.system.projectId!) && accesses.get(f.userId)?.can('project.view', f.issue.system.projectId!))
  let written = 0
  for (const f of visible) {
    try {
      await prisma.notificationDelivery.create({ data: { userId: f.userId, issueId: f.issue.id, activation: f.issue.activation, severity: f.issue.severity, event: f.event, round: f.round, status: STATUS.pending, createdAt: now } })
      written++
    } catch (error) {
      // another node (or an earlier check) wrote it first
      if (!isUniqueViolation(error)) throw error
    }
  }
  await queueChannelFollowUps(organizationId, visible, now)
  return written
}

/** How long the activation has been (or was) active, from its history. */
async function activeFor(issue: IssueWithSystem, until: Date): Promise<string | null> {
  const history = await prisma.issueHistory.findMany({ where: { issueId: issue.id }, orderBy: { timestamp: 'desc' }, take: 200, select: { timestamp: true, count: true } })
  const span = lastActivationSpan(history, until)
  return span ? formatDuration(span.end.getTime() - span.start.getTime()) : null
}

async function queueChannelFollowUps(organizationId: string, followUps: FollowUp[], now: Date) {
  const withChannel = followUps.filter((f) => f.channelId)
  if (!withChannel.length) return
  const [organization, projects] = await Promise.all([
    prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true, name: true } }),
    prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true, parentId: true } }),
  ])
  if (!organization) return
  const byId = new Map(projects.map((p) => [p.id, p]))
  const pathOf = (projectId: string) => {
    const names: string[] = []
    for (let id: string | null = projectId; id && names.length < 20; id = byId.get(id)?.parentId ?? null) names.unshift(byId.get(id)?.name ?? id)
    return names.join(' / ')
  }
  const { publicUrl } = getConfig()
  const messages: QueuedMessage[] = []
  for (const f of withChannel) {
    const { issue } = f
    const agentName = issue.system.agent.clientName || issue.system.agent.id
    const duration = await activeFor(issue, issue.isActive ? now : (issue.clearedAt ?? now))
    const what = `${severityLabel(issue.severity)} ${issue.kind === 'deviation' ? 'deviation' : 'alert'} on ${agentName}: ${issue.message || issue.key}`
    const event: ChannelEvent = {
      id: newEventId(),
      createdAt: now.toISOString(),
      type: f.event === 'resolved' ? 'issue.resolved' : 'issue.repeat',
      organization,
      project: { id: issue.system.projectId!, path: pathOf(issue.system.projectId!) },
      agent: { id: issue.system.agent.id, name: agentName },
      system: { id: issue.system.id, name: issue.system.name || issue.system.key },
      issue: { id: issue.id, kind: issue.kind, key: issue.key, component: issue.component, severity: issue.severity, severityLabel: severityLabel(issue.severity), message: issue.message || issue.key },
      followUp: { activeFor: duration ?? 'unknown', ...(f.event === 'repeat' ? { repeat: f.round } : {}) },
      summary: f.event === 'resolved' ? `Resolved after ${duration ?? 'an unknown time'}: ${what}` : `Still active${duration ? ` after ${duration}` : ''}: ${what}`,
      link: `${publicUrl}/organization/${organizationId}/agents/${issue.system.agent.id}`,
    }
    const key = f.event === 'resolved' ? `resolved:${issue.id}:${issue.activation}` : `repeat:${issue.id}:${issue.activation}:${f.round}`
    messages.push({ channelId: f.channelId!, dedupKey: key, kind: f.event, event })
  }
  await enqueueChannelMessages(messages, now)
}

/**
 * Queues resolved messages for the cleared issues among `ids` (system or issue ids, as the 'issue'
 * change event carries them). Returns how many e-mail deliveries were queued.
 */
export async function queueResolved(ids: string[], now = new Date()): Promise<number> {
  if (!ids.length) return 0
  const found = await inChunks([...new Set(ids)], (chunk) =>
    prisma.issue.findMany({ where: { isActive: false, activation: { gt: 0 }, OR: [{ systemId: { in: chunk } }, { id: { in: chunk } }] }, include: issueInclude }),
  )
  // cleared by itself or by hand, and recorded: the activation is over
  const cleared = [...new Map(found.filter((i) => i.clearRecorded >= i.activation).map((i) => [i.id, i])).values()]
  if (!cleared.length) return 0
  const deliveries = await inChunks(cleared, (chunk) =>
    prisma.notificationDelivery.findMany({
      where: { issueId: { in: chunk.map((i) => i.id) }, OR: [{ status: STATUS.sent, event: { in: ['active', 'repeat'] } }, { event: 'resolved' }] },
      select: { userId: true, issueId: true, activation: true, event: true },
    }),
  )
  let queued = 0
  for (const [organizationId, issues] of byOrganization(cleared)) {
    const settings = await settingsOf(organizationId)
    if (!settings) continue
    const followUps: FollowUp[] = []
    for (const issue of issues) {
      const ofActivation = deliveries.filter((d) => d.issueId === issue.id && d.activation === issue.activation)
      const told = new Set(ofActivation.filter((d) => d.event !== 'resolved').map((d) => d.userId))
      const done = new Set(ofActivation.filter((d) => d.event === 'resolved').map((d) => d.userId))
      for (const userId of told) {
        if (done.has(userId)) continue
        const subscription = settings.nearest(userId, issue.system.projectId!)
        if (!subscription?.notifyResolved) continue
        followUps.push({ userId, issue, event: 'resolved', round: 0, channelId: subscription.channelId })
      }
    }
    queued += await write(organizationId, followUps, now)
  }
  return queued
}

/**
 * Queues the repeats that are due at `now`: active, unacknowledged issues outside a maintenance
 * window whose subscriber was last told at least repeatMinutes ago. Returns how many were queued.
 */
export async function queueRepeats(now = new Date()): Promise<number> {
  // only activations somebody was told about can repeat: start from those deliveries' issues
  const toldIssues = await prisma.$queryRaw<{ issueId: string }[]>(Prisma.sql`
    SELECT DISTINCT d."issueId" AS "issueId" FROM "NotificationDelivery" d JOIN "Issue" i ON i."id" = d."issueId" AND i."activation" = d."activation"
    WHERE d."status" = ${STATUS.sent} AND d."event" IN ('active', 'repeat') AND ${isTrue('i."isActive"')}`)
  if (!toldIssues.length) return 0
  const issues = (await inChunks(toldIssues.map((r) => r.issueId), (chunk) => prisma.issue.findMany({ where: { id: { in: chunk }, isActive: true }, include: issueInclude }))).filter((i) => !isAcknowledged(i))
  const deliveries = await inChunks(issues, (chunk) =>
    prisma.notificationDelivery.findMany({ where: { issueId: { in: chunk.map((i) => i.id) }, ...TOLD }, select: { userId: true, issueId: true, activation: true, round: true, createdAt: true } }),
  )
  let queued = 0
  for (const [organizationId, list] of byOrganization(issues)) {
    const settings = await settingsOf(organizationId)
    if (!settings) continue
    const policy = await windowPolicy(organizationId, now)
    const followUps: FollowUp[] = []
    for (const issue of list) {
      // a maintenance window mutes repeats as it mutes first messages
      if (policy.modeFor(issue.system.projectId!, issue.severity) === 'muted') continue
      const last = new Map<string, { at: number; round: number }>()
      for (const d of deliveries) {
        if (d.issueId !== issue.id || d.activation !== issue.activation) continue
        const seen = last.get(d.userId)
        last.set(d.userId, { at: Math.max(seen?.at ?? 0, d.createdAt.getTime()), round: Math.max(seen?.round ?? 0, d.round) })
      }
      for (const [userId, told] of last) {
        const subscription = settings.nearest(userId, issue.system.projectId!)
        const minutes = subscription?.repeatMinutes ?? 0
        if (!subscription || minutes <= 0 || now.getTime() - told.at < minutes * 60_000) continue
        // lowered below the issue's severity since: no more repeats
        if (!reachesThreshold(issue.severity, issue.kind === 'deviation' ? subscription.deviations : subscription.alerts)) continue
        followUps.push({ userId, issue, event: 'repeat', round: told.round + 1, channelId: subscription.channelId })
      }
    }
    queued += await write(organizationId, followUps, now)
  }
  return queued
}
