import { Prisma } from '@prisma/client'
import { LARGE_TRANSACTION } from '../large-transaction'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { severityLabel } from '../agents/derived'
import { userActor } from '../auth/session.server'
import { escapeHtml } from '../auth/verification.server'
import { onChange } from '../events/bus.server'
import { sendMail } from '../mail/mail.server'
import { queueChannelNotifications } from './channels/queue.server'
import { foldRootCauses } from './rootcause-mail.server'
import { organizationMemberIds } from '../organizations/organizations.server'
import { isAcknowledged } from '../alarms/state'
import { recordClears } from '../alarms/clears.server'
import { windowPolicy } from '../alarms/windows.server'
import { isTrue } from '../fleet/dialect.server'
import { reachesThreshold } from './severity'
import { prisma, isUniqueViolation } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { chunked, inChunks } from '~/utils/id-chunks'

/**
 * E-mail notifications for alerts and deviations (spec 02 sections 2 and 4).
 *
 * 1. `onIssueChangeEvent` (fed by ingest's 'issue' change events, after its commit) and
 *    `onIssuesActivated` (issue ids, for any other caller) decide who must hear about each active issue and writes one pending NotificationDelivery row
 *    per (user, issue, activation, severity). The unique constraint makes this idempotent: a second
 *    report of the same still-active issue adds nothing; an escalation (a smaller severity number)
 *    within the same activation adds a row and so a new e-mail.
 * 2. The flusher sends each user's pending rows once the oldest has waited NOTIFY_BATCH_MS: one
 *    row becomes one e-mail, several become one digest (a fleet-wide fault is one e-mail, not
 *    hundreds). The queue lives in the database, so a restart loses nothing.
 *
 * Who: members of the issue's organization who can see its project (project.view through the
 * access engine, checked again at send time) and whose nearest subscription (project, parent
 * projects, organization, default) lets the severity through. Unassigned systems notify nobody.
 */

export type IssueActivation = { issueId: string }

const STATUS = { pending: 'pending', sending: 'sending', sent: 'sent', skipped: 'skipped', muted: 'muted' } as const

type SubscriptionRow = { userId: string; level: string; target: string; alerts: number; deviations: number; channelId: string | null }

const issueInclude = {
  system: {
    select: {
      id: true,
      key: true,
      name: true,
      projectId: true,
      agent: { select: { id: true, clientName: true, organizationId: true } },
    },
  },
} as const

type IssueWithSystem = Prisma.IssueGetPayload<{ include: typeof issueInclude }>

/** The nearest existing subscription for a project wins: project, its parents, organization, default. */
function nearestSubscription(subscriptions: SubscriptionRow[], chain: string[], organizationId: string): SubscriptionRow | undefined {
  return (
    chain.map((projectId) => subscriptions.find((s) => s.level === 'project' && s.target === projectId)).find(Boolean) ??
    subscriptions.find((s) => s.level === 'organization' && s.target === organizationId) ??
    subscriptions.find((s) => s.level === 'default')
  )
}

function thresholdFor(subscriptions: SubscriptionRow[], chain: string[], organizationId: string, kind: string): number {
  const nearest = nearestSubscription(subscriptions, chain, organizationId)
  if (!nearest) return 0
  return kind === 'deviation' ? nearest.deviations : nearest.alerts
}

/** Loads access for each user once per organization; users who lost membership are left out. */
async function accessesFor(organizationId: string, userIds: string[]): Promise<Map<string, OrganizationAccess>> {
  const users = await inChunks(userIds, (chunk) =>
    prisma.user.findMany({ where: { id: { in: chunk }, disabled: false, isAgent: false }, select: { id: true, email: true, name: true, isAdmin: true } }),
  )
  const accesses = new Map<string, OrganizationAccess>()
  for (const user of users) {
    const access = await getOrganizationAccess(userActor(user, { ip: '', userAgent: '' }), organizationId).catch(() => null)
    if (access) accesses.set(user.id, access)
  }
  return accesses
}

/** Project ids from `projectId` up to the root. */
function chainOf(parents: Map<string, string | null>, projectId: string): string[] {
  const chain: string[] = []
  for (let id: string | null | undefined = projectId; id && !chain.includes(id); id = parents.get(id)) chain.push(id)
  return chain
}

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
  let queued = 0
  for (const [organizationId, list] of byOrganization) queued += await queueForOrganization(organizationId, list)
  return queued
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
  // issues that cleared by themselves get their 'cleared' entry (app/domain/alarms/clears.server.ts)
  await recordClears(ids)
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

// ------------------------------------------------------------------------------- sending

type DeliveryItem = {
  deliveryId: string
  issueId: string
  systemId: string
  kind: string
  severity: number
  escalated: boolean
  message: string
  component: string
  organizationName: string
  projectPath: string
  agentName: string
  systemName: string
  link: string
}

/** Loads what one user's claimed deliveries describe, dropping any the user can no longer see. */
async function describeDeliveries(userId: string, rows: { id: string; issueId: string; activation: number; severity: number }[]): Promise<DeliveryItem[]> {
  const issueIds = [...new Set(rows.map((r) => r.issueId))]
  const issues = await inChunks(issueIds, (chunk) => prisma.issue.findMany({ where: { id: { in: chunk } }, include: issueInclude }))
  const issueById = new Map(issues.map((i) => [i.id, i]))
  const organizationIds = [...new Set(issues.map((i) => i.system.agent.organizationId).filter((id): id is string => Boolean(id)))]
  const [organizations, projects, accessList, worse] = await Promise.all([
    prisma.organization.findMany({ where: { id: { in: organizationIds } }, select: { id: true, name: true } }),
    prisma.project.findMany({ where: { organizationId: { in: organizationIds } }, select: { id: true, name: true } }),
    Promise.all(organizationIds.map(async (id) => [id, (await accessesFor(id, [userId])).get(userId)] as const)),
    // Earlier deliveries of the same activations at a milder severity: these rows are escalations.
    inChunks(issueIds, (chunk) =>
      prisma.notificationDelivery.findMany({ where: { userId, issueId: { in: chunk }, status: STATUS.sent }, select: { issueId: true, activation: true, severity: true } }),
    ),
  ])
  const orgName = new Map(organizations.map((o) => [o.id, o.name]))
  const projectName = new Map(projects.map((p) => [p.id, p.name]))
  const access = new Map(accessList)
  const { publicUrl } = getConfig()

  const items: DeliveryItem[] = []
  for (const row of rows) {
    const issue = issueById.get(row.issueId)
    const organizationId = issue?.system.agent.organizationId
    const projectId = issue?.system.projectId
    const userAccess = organizationId ? access.get(organizationId) : undefined
    if (!issue || !organizationId || !projectId || !userAccess?.hasProject(projectId) || !userAccess.can('project.view', projectId)) continue
    items.push({
      deliveryId: row.id,
      issueId: issue.id,
      systemId: issue.system.id,
      kind: issue.kind,
      severity: row.severity,
      escalated: worse.some((d) => d.issueId === row.issueId && d.activation === row.activation && d.severity > row.severity),
      message: issue.message || issue.key,
      component: issue.component,
      organizationName: orgName.get(organizationId) ?? organizationId,
      projectPath: userAccess
        .projectChain(projectId)
        .reverse()
        .map((id) => projectName.get(id) ?? id)
        .join(' / '),
      agentName: issue.system.agent.clientName || issue.system.agent.id,
      systemName: issue.system.name || issue.system.key,
      link: `${publicUrl}/organization/${organizationId}/agents/${issue.system.agent.id}`,
    })
  }
  return items
}

const kindLabel = (kind: string) => (kind === 'deviation' ? 'deviation' : 'alert')
const headline = (item: DeliveryItem) =>
  `${severityLabel(item.severity)} ${kindLabel(item.kind)}${item.escalated ? ' (escalated)' : ''}`

function itemFields(item: DeliveryItem): [string, string][] {
  return [
    ['Organization', item.organizationName],
    ['Project', item.projectPath],
    ['Agent', item.agentName],
    ['System', item.systemName],
    ['Component', item.component],
    ['Severity', severityLabel(item.severity)],
    ['Message', item.message],
  ]
}

function singleMail(user: { name: string }, item: DeliveryItem, settingsLink: string) {
  const fields = itemFields(item)
  const verb = item.escalated ? 'escalated' : 'became active'
  return {
    subject: `[Pixelfleet] ${headline(item)} on ${item.agentName}: ${item.message}`,
    text: [
      `Hello ${user.name},`,
      '',
      `${item.kind === 'deviation' ? 'A deviation' : 'An alert'} ${verb}:`,
      '',
      ...fields.map(([label, value]) => `${`${label}:`.padEnd(14)}${value}`),
      '',
      `Open the agent: ${item.link}`,
      '',
      `You receive this e-mail because of your notification settings: ${settingsLink}`,
    ].join('\n'),
    html:
      `<p>Hello ${escapeHtml(user.name)},</p><p>${item.kind === 'deviation' ? 'A deviation' : 'An alert'} ${verb}:</p><table cellpadding="3">` +
      fields.map(([label, value]) => `<tr><td><strong>${label}</strong></td><td>${escapeHtml(value)}</td></tr>`).join('') +
      `</table><p><a href="${item.link}">Open the agent</a></p>` +
      `<p style="color:#666">You receive this e-mail because of your <a href="${settingsLink}">notification settings</a>.</p>`,
  }
}

function digestMail(user: { name: string }, items: DeliveryItem[], settingsLink: string) {
  const sorted = [...items].sort((a, b) => a.severity - b.severity || a.organizationName.localeCompare(b.organizationName))
  const line = (item: DeliveryItem) =>
    `${headline(item)} | ${item.organizationName} / ${item.projectPath} | agent ${item.agentName}, system ${item.systemName}, ${item.component}: ${item.message}`
  return {
    subject: `[Pixelfleet] ${items.length} alerts and deviations need your attention`,
    text: [
      `Hello ${user.name},`,
      '',
      `${items.length} alerts and deviations became active or escalated:`,
      '',
      ...sorted.flatMap((item) => [`- ${line(item)}`, `  ${item.link}`]),
      '',
      `You receive this e-mail because of your notification settings: ${settingsLink}`,
    ].join('\n'),
    html:
      `<p>Hello ${escapeHtml(user.name)},</p><p>${items.length} alerts and deviations became active or escalated:</p>` +
      `<table cellpadding="3"><tr>${['Severity', 'Organization', 'Project', 'Agent', 'System', 'Component', 'Message'].map((h) => `<th align="left">${h}</th>`).join('')}</tr>` +
      sorted
        .map(
          (item) =>
            `<tr><td>${escapeHtml(headline(item))}</td><td>${escapeHtml(item.organizationName)}</td><td>${escapeHtml(item.projectPath)}</td>` +
            `<td><a href="${item.link}">${escapeHtml(item.agentName)}</a></td><td>${escapeHtml(item.systemName)}</td><td>${escapeHtml(item.component)}</td><td>${escapeHtml(item.message)}</td></tr>`,
        )
        .join('') +
      `</table><p style="color:#666">You receive this e-mail because of your <a href="${settingsLink}">notification settings</a>.</p>`,
  }
}

/** Claims rows still pending (so two flushers never send the same row) and returns the claimed ones. */
async function claim<R extends { id: string }>(rows: R[]): Promise<R[]> {
  const claimed = await prisma.$transaction(async (tx) => {
    const won: R[] = []
    for (const row of rows) {
      const { count } = await tx.notificationDelivery.updateMany({ where: { id: row.id, status: STATUS.pending }, data: { status: STATUS.sending } })
      if (count === 1) won.push(row)
    }
    return won
  }, LARGE_TRANSACTION)
  return claimed
}

/**
 * Sends every user's pending deliveries whose batch window has passed (`force` ignores the
 * window). One pending item makes one e-mail; several make one digest. Returns e-mails sent.
 */
export async function flushNotifications(options: { now?: Date; force?: boolean } = {}): Promise<number> {
  const now = options.now ?? new Date()
  const windowMs = getConfig().NOTIFY_BATCH_MS
  await releaseMutedDeliveries(now)
  const pending = await prisma.notificationDelivery.findMany({
    where: { status: STATUS.pending },
    select: { id: true, userId: true, issueId: true, activation: true, severity: true, createdAt: true, urgent: true },
    orderBy: { createdAt: 'asc' },
  })
  const byUser = new Map<string, typeof pending>()
  for (const row of pending) byUser.set(row.userId, [...(byUser.get(row.userId) ?? []), row])

  let sent = 0
  for (const [userId, rows] of byUser) {
    if (!options.force && !rows.some((r) => r.urgent) && now.getTime() - rows[0]!.createdAt.getTime() < windowMs) continue
    const claimed = await claim(rows)
    if (claimed.length === 0) continue
    const user = await prisma.user.findUnique({ where: { id: userId }, select: { name: true, email: true, disabled: true } })
    const items = user && !user.disabled ? await describeDeliveries(userId, claimed) : []
    const deliverable = new Set(items.map((i) => i.deliveryId))
    const skippedIds = claimed.filter((r) => !deliverable.has(r.id)).map((r) => r.id)
    for (const chunk of chunked(skippedIds)) await prisma.notificationDelivery.updateMany({ where: { id: { in: chunk } }, data: { status: STATUS.skipped } })
    if (!user || items.length === 0) continue
    const settingsLink = `${getConfig().publicUrl}/settings/notifications`
    // Issues an upstream failure explains become one item naming the cause.
    const mailItems = await foldRootCauses(items)
    const mail = mailItems.length === 1 ? singleMail(user, mailItems[0]!, settingsLink) : digestMail(user, mailItems, settingsLink)
    const email = await sendMail({ to: user.email, kind: mailItems.length === 1 ? 'issueNotification' : 'issueDigest', ...mail })
    await prisma.$transaction(chunked([...deliverable]).map((chunk) => prisma.notificationDelivery.updateMany({ where: { id: { in: chunk } }, data: { status: STATUS.sent, emailId: email.id } })))
    sent++
  }
  return sent
}

// ------------------------------------------------------------------------------- service

/**
 * Runs delivery inside the server process: listens for 'issue' change events and flushes on a
 * short tick. `idle` waits for work in flight; `stop` ends both and waits, so tests exit.
 */
export function startNotificationDelivery(): { idle: () => Promise<void>; stop: () => Promise<void> } {
  const windowMs = getConfig().NOTIFY_BATCH_MS
  let work: Promise<unknown> = Promise.resolve()
  // One piece of work at a time: evaluations and flushes never overlap.
  const enqueue = (task: () => Promise<unknown>) => {
    work = work.then(task).catch((error) => console.error('[notifications]', error))
  }
  // Events arriving while an evaluation waits are coalesced into it (busy ingest, one query set).
  let changed = new Set<string>()
  const unsubscribe = onChange((event) => {
    if (event.kind !== 'issue' || !event.ids?.length) return
    const scheduled = changed.size > 0
    for (const id of event.ids) changed.add(id)
    if (scheduled) return
    enqueue(() => {
      const ids = [...changed]
      changed = new Set()
      return onIssueChangeEvent(ids)
    })
  })
  let flushing = false
  const timer = setInterval(() => {
    if (flushing) return
    flushing = true
    enqueue(() => flushNotifications().finally(() => (flushing = false)))
  }, Math.min(Math.max(windowMs, 100), 1000))
  timer.unref()
  const idle = async () => {
    // Work enqueued while waiting joins the chain: wait until it stops growing.
    for (let current = work; ; current = work) {
      await current
      if (current === work) return
    }
  }
  return {
    idle,
    stop: async () => {
      clearInterval(timer)
      unsubscribe()
      await idle()
    },
  }
}
