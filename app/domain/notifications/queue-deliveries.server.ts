import { Prisma } from '@prisma/client'
import { organizationMemberIds } from '../organizations/organizations.server'
import { isAcknowledged } from '../alarms/state'
import { windowPolicy } from '../alarms/windows.server'
import { isTrue } from '../fleet/dialect.server'
import { queueChannelNotifications } from './channels/queue.server'
import { evaluateClears } from './clear-evaluation.server'
import { reachesThreshold } from './severity'
import { STATUS, accessesFor, chainOf, issueInclude, nearestSubscription, thresholdFor, type IssueWithSystem } from './audience.server'
import { prisma, isUniqueViolation } from '~/utils/db.server'
import { chunked, inChunks } from '~/utils/id-chunks'

/**
 * Deciding who must hear about each active issue (spec 02 sections 2 and 4): one pending
 * NotificationDelivery row per (user, issue, activation, severity), and the channel messages of
 * the subscribers' channels. The unique constraint makes this idempotent: a second report of the
 * same still-active issue adds nothing; an escalation (a smaller severity number) within the same
 * activation adds a row and so a new e-mail.
 */

export type IssueActivation = { issueId: string }

/**
 * Writes the pending deliveries one organization's active issues call for. Thresholds and
 * deduplication are settled first from a few queries, so the common case (a repeated report
 * everybody was already told about) loads no access at all.
 */
async function queueForOrganization(organizationId: string, issues: IssueWithSystem[]): Promise<number> {
  const organization = await prisma.organization.findUnique({ where: { id: organizationId }, select: { ownerId: true } })
  if (!organization) return 0
  const memberIds = await organizationMemberIds(prisma, organizationId, organization.ownerId)
  const subscriptions = await inChunks(memberIds, (chunk) =>
    prisma.subscription.findMany({
      where: { userId: { in: chunk }, OR: [{ level: 'default' }, { organizationId }] },
      select: { userId: true, level: true, target: true, alerts: true, deviations: true, channelId: true },
    }),
  )
  const subscriberIds = [...new Set(subscriptions.map((s) => s.userId))]
  if (subscriberIds.length === 0) return 0
  const [projects, earlier] = await Promise.all([
    prisma.project.findMany({ where: { organizationId }, select: { id: true, parentId: true } }),
    // (both lists chunked: a large sweep raises thousands of issues at once)
    inChunks(subscriberIds, (users) =>
      inChunks(issues, (chunk) =>
        prisma.notificationDelivery.findMany({
          where: { issueId: { in: chunk.map((i) => i.id) }, userId: { in: users } },
          select: { userId: true, issueId: true, activation: true, severity: true },
        }),
      ),
    ),
  ])
  const parents = new Map(projects.map((p) => [p.id, p.parentId]))

  const candidates: { userId: string; issue: IssueWithSystem }[] = []
  // The subscription's channel (besides e-mail); the channel queue deduplicates per channel.
  const channelCandidates: { userId: string; channelId: string; issue: IssueWithSystem }[] = []
  for (const userId of subscriberIds) {
    const own = subscriptions.filter((s) => s.userId === userId)
    for (const issue of issues) {
      const chain = chainOf(parents, issue.system.projectId!)
      if (!reachesThreshold(issue.severity, thresholdFor(own, chain, organizationId, issue.kind))) continue
      // Already told about this activation at this severity or a worse one: nothing new to say.
      const told = earlier.some((d) => d.userId === userId && d.issueId === issue.id && d.activation === issue.activation && d.severity <= issue.severity)
      if (told) continue
      candidates.push({ userId, issue })
      const channelId = nearestSubscription(own, chain, organizationId)?.channelId
      if (channelId) channelCandidates.push({ userId, channelId, issue })
    }
  }
  if (candidates.length === 0) return 0

  const accesses = await accessesFor(organizationId, [...new Set(candidates.map((c) => c.userId))])
  // Show and maintenance windows (app/domain/alarms): muted rows are logged but never sent; urgent ones skip the batch window.
  const policy = await windowPolicy(organizationId)
  const visible = (userId: string, projectId: string) => Boolean(accesses.get(userId)?.hasProject(projectId) && accesses.get(userId)?.can('project.view', projectId))
  // channels stay quiet during a maintenance window too
  await queueChannelNotifications(
    organizationId,
    channelCandidates.filter((c) => visible(c.userId, c.issue.system.projectId!) && policy.modeFor(c.issue.system.projectId!, c.issue.severity) !== 'muted'),
  )
  let queued = 0
  for (const { userId, issue } of candidates) {
    const access = accesses.get(userId)
    const projectId = issue.system.projectId!
    // Never for data the subscriber cannot see.
    if (!access?.hasProject(projectId) || !access.can('project.view', projectId)) continue
    try {
      const mode = policy.modeFor(projectId, issue.severity)
      await prisma.notificationDelivery.create({
        data: { userId, issueId: issue.id, activation: issue.activation, severity: issue.severity, status: mode === 'muted' ? STATUS.muted : STATUS.pending, urgent: mode === 'urgent' },
      })
      queued++
    } catch (error) {
      // Another evaluation (or web node) queued the same delivery first.
      if (!(isUniqueViolation(error))) throw error
    }
  }
  return queued
}

/** Queues deliveries for the active issues matching `where` for each chunk of `ids`; returns how many were queued. */
async function queueNotifications(ids: string[], where: (chunk: string[]) => Prisma.IssueWhereInput): Promise<number> {
  const found = await inChunks(ids, (chunk) => prisma.issue.findMany({ where: { AND: [where(chunk), { isActive: true }] }, include: issueInclude }))
  // (an issue can match in two chunks: by its system id in one, its own id in another)
  const issues = [...new Map(found.map((issue) => [issue.id, issue])).values()]
  const byOrganization = new Map<string, IssueWithSystem[]>()
  for (const issue of issues) {
    // Acknowledged (app/domain/alarms): somebody is on it, escalations of this activation stay quiet.
    if (isAcknowledged(issue)) continue
    const organizationId = issue.system.agent.organizationId
    // Data of unassigned systems is visible to nobody, so it notifies nobody.
    if (!organizationId || !issue.system.projectId) continue
    byOrganization.set(organizationId, [...(byOrganization.get(organizationId) ?? []), issue])
  }
  // what notifies nobody is evaluated as it is (acknowledged, unassigned)
  const grouped = new Set([...byOrganization.values()].flat())
  await markEvaluated(issues.filter((issue) => !grouped.has(issue)))
  let queued = 0
  for (const [organizationId, list] of byOrganization) {
    queued += await queueForOrganization(organizationId, list)
    await markEvaluated(list)
  }
  return queued
}

/**
 * Records that these issues' audience was evaluated at their activation and severity, so that
 * queueUnevaluated leaves them alone. Guarded on both: an issue that changed since it was loaded
 * stays unevaluated until its own evaluation.
 */
async function markEvaluated(issues: readonly Pick<IssueWithSystem, 'id' | 'activation' | 'severity'>[]) {
  const groups = new Map<string, { activation: number; severity: number; ids: string[] }>()
  for (const issue of issues) {
    const key = `${issue.activation}:${issue.severity}`
    const group = groups.get(key) ?? { activation: issue.activation, severity: issue.severity, ids: [] }
    group.ids.push(issue.id)
    groups.set(key, group)
  }
  for (const { activation, severity, ids } of groups.values()) {
    for (const chunk of chunked(ids)) {
      await prisma.issue.updateMany({ where: { id: { in: chunk }, activation, severity }, data: { notifyEvaluated: activation, notifyEvaluatedSeverity: severity } })
    }
  }
}

/** How many unevaluated issues one check takes on (the rest wait for the next). */
export const UNEVALUATED_PER_CHECK = 2000

/**
 * Evaluates the active issues whose activation or escalation was never evaluated: their change
 * event lived only in the memory of a process that died (or a node that lost its broker link)
 * between ingest's commit and the evaluation. Run when delivery starts and with every repeat
 * check. Deliveries are deduplicated, so an issue whose event is merely still queued is harmless
 * here. Returns how many deliveries were queued.
 */
export async function queueUnevaluated(): Promise<number> {
  const unevaluated = await prisma.issue.findMany({
    where: {
      isActive: true,
      OR: [
        { notifyEvaluated: { lt: prisma.issue.fields.activation } },
        // an escalation (a smaller severity number) within the evaluated activation
        { notifyEvaluated: { equals: prisma.issue.fields.activation }, notifyEvaluatedSeverity: { gt: prisma.issue.fields.severity } },
      ],
    },
    select: { id: true },
    take: UNEVALUATED_PER_CHECK,
  })
  return unevaluated.length ? onIssuesActivated(unevaluated.map((issue) => ({ issueId: issue.id }))) : 0
}

/**
 * Queues notifications for issues that became active or escalated. Safe to call more than once
 * for the same issue: deliveries are deduplicated per (user, issue, activation, severity).
 * Returns how many deliveries were queued.
 */
export function onIssuesActivated(events: IssueActivation[]): Promise<number> {
  const ids = [...new Set(events.map((e) => e.issueId))]
  return ids.length ? queueNotifications(ids, (chunk) => ({ id: { in: chunk } })) : Promise.resolve(0)
}

/**
 * Ingest announces changed issues as an 'issue' change event whose ids are the systems whose
 * issues changed (ingest/systems.server.ts). Issue ids are accepted as well.
 */
export async function onIssueChangeEvent(ids: string[]): Promise<number> {
  if (!ids.length) return 0
  // cleared issues: their 'cleared' entry and their resolved messages, marked evaluated (clear-evaluation.server.ts)
  await evaluateClears(ids)
  return queueNotifications(ids, (chunk) => ({ OR: [{ systemId: { in: chunk } }, { id: { in: chunk } }] }))
}

/**
 * A maintenance window mutes what becomes active during it; what is still active (same
 * activation, unacknowledged) when the window ends is told then, so a device that died during
 * rigging is reported. The muted rows of those issues give way to a normal evaluation (e-mail and
 * channels); runs with every flush, a few rows at most. Returns the issues released.
 */
export async function releaseMutedDeliveries(now = new Date()): Promise<number> {
  const rows = await prisma.$queryRaw<{ id: string; issueId: string; organizationId: string; projectId: string; severity: number; activation: number; acknowledgedAt: Date | string | null; ackActivation: number }[]>(Prisma.sql`
    SELECT d."id" AS id, d."issueId" AS "issueId", a."organizationId" AS "organizationId", s."projectId" AS "projectId", i."severity" AS severity,
      i."activation" AS activation, i."acknowledgedAt" AS "acknowledgedAt", i."ackActivation" AS "ackActivation"
    FROM "NotificationDelivery" d JOIN "Issue" i ON i."id" = d."issueId" AND i."activation" = d."activation"
    JOIN "System" s ON s."id" = i."systemId" JOIN "Agent" a ON a."id" = s."agentId"
    WHERE d."status" = ${STATUS.muted} AND ${isTrue('i."isActive"')} AND s."projectId" IS NOT NULL AND a."organizationId" IS NOT NULL`)
  const candidates = rows.filter((r) => !isAcknowledged(r))
  if (candidates.length === 0) return 0
  const released: typeof candidates = []
  for (const organizationId of new Set(candidates.map((r) => r.organizationId))) {
    const policy = await windowPolicy(organizationId, now)
    released.push(...candidates.filter((r) => r.organizationId === organizationId && policy.modeFor(r.projectId, r.severity) !== 'muted'))
  }
  if (released.length === 0) return 0
  for (const chunk of chunked(released.map((r) => r.id))) await prisma.notificationDelivery.deleteMany({ where: { id: { in: chunk }, status: STATUS.muted } })
  const issueIds = [...new Set(released.map((r) => r.issueId))]
  await onIssuesActivated(issueIds.map((issueId) => ({ issueId })))
  return issueIds.length
}
