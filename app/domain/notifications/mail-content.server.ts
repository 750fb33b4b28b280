import { severityLabel } from '../agents/derived'
import { escapeHtml } from '../auth/verification.server'
import { formatDuration, lastActivationSpan } from '../alarms/clears'
import { isAcknowledged } from '../alarms/state'
import { STATUS, accessesFor, issueInclude } from './audience.server'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { inChunks } from '~/utils/id-chunks'

/** What a user's claimed deliveries describe, and the e-mail (one item, or a digest) that tells them. */

export type DeliveryEvent = 'active' | 'repeat' | 'resolved'

export type DeliveryItem = {
  deliveryId: string
  /** active: became active or escalated; repeat: still active (follow-ups.server.ts); resolved: cleared */
  event: DeliveryEvent
  /** repeat and resolved: how long the activation has been (was) active */
  activeFor: string | null
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
export async function describeDeliveries(userId: string, rows: { id: string; issueId: string; activation: number; severity: number; event: string }[], now = new Date()): Promise<DeliveryItem[]> {
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
      prisma.notificationDelivery.findMany({ where: { userId, issueId: { in: chunk }, status: STATUS.sent, event: 'active' }, select: { issueId: true, activation: true, severity: true } }),
    ),
  ])
  const durations = await followUpDurations(rows, issueById, now)
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
    // a repeat that is no longer true when sent (cleared, acknowledged or a new activation) is dropped
    if (row.event === 'repeat' && (!issue.isActive || isAcknowledged(issue) || issue.activation !== row.activation)) continue
    const event = (row.event === 'repeat' || row.event === 'resolved' ? row.event : 'active') as DeliveryEvent
    items.push({
      deliveryId: row.id,
      event,
      activeFor: durations.get(row.id) ?? null,
      issueId: issue.id,
      systemId: issue.system.id,
      kind: issue.kind,
      severity: row.severity,
      escalated: event === 'active' && worse.some((d) => d.issueId === row.issueId && d.activation === row.activation && d.severity > row.severity),
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

/** How long each repeat and resolved row's activation has been (was) active, from the issue's history. */
async function followUpDurations(rows: { id: string; issueId: string; event: string }[], issues: Map<string, { id: string; isActive: boolean; clearedAt: Date | null }>, now: Date) {
  const durations = new Map<string, string>()
  for (const row of rows) {
    const issue = issues.get(row.issueId)
    if (row.event === 'active' || !issue) continue
    const history = await prisma.issueHistory.findMany({ where: { issueId: issue.id }, orderBy: { timestamp: 'desc' }, take: 200, select: { timestamp: true, count: true } })
    const span = lastActivationSpan(history, issue.isActive ? now : (issue.clearedAt ?? now))
    if (span) durations.set(row.id, formatDuration((issue.isActive ? now : span.end).getTime() - span.start.getTime()))
  }
  return durations
}

const kindLabel = (kind: string) => (kind === 'deviation' ? 'deviation' : 'alert')
const headline = (item: DeliveryItem) =>
  `${item.event === 'resolved' ? 'Resolved: ' : item.event === 'repeat' ? 'Still active: ' : ''}${severityLabel(item.severity)} ${kindLabel(item.kind)}${item.escalated ? ' (escalated)' : ''}`
const verbOf = (item: DeliveryItem) =>
  item.event === 'resolved'
    ? `was resolved${item.activeFor ? ` after ${item.activeFor} active` : ''}`
    : item.event === 'repeat'
      ? `is still active${item.activeFor ? ` after ${item.activeFor}` : ''} and not acknowledged`
      : item.escalated
        ? 'escalated'
        : 'became active'

function itemFields(item: DeliveryItem): [string, string][] {
  return [
    ['Organization', item.organizationName],
    ['Project', item.projectPath],
    ['Agent', item.agentName],
    ['System', item.systemName],
    ['Component', item.component],
    ['Severity', severityLabel(item.severity)],
    ['Message', item.message],
    ...(item.activeFor ? ([['Active for', item.activeFor]] as [string, string][]) : []),
  ]
}

export function singleMail(user: { name: string }, item: DeliveryItem, settingsLink: string) {
  const fields = itemFields(item)
  const verb = verbOf(item)
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

/** The digest's opening: the wording of before when every item is a new activation. */
const intro = (items: DeliveryItem[]) => (items.every((i) => i.event === 'active') ? 'became active or escalated' : 'became active, are still active or were resolved')

export function digestMail(user: { name: string }, items: DeliveryItem[], settingsLink: string) {
  const sorted = [...items].sort((a, b) => a.severity - b.severity || a.organizationName.localeCompare(b.organizationName))
  const line = (item: DeliveryItem) =>
    `${headline(item)} | ${item.organizationName} / ${item.projectPath} | agent ${item.agentName}, system ${item.systemName}, ${item.component}: ${item.message}${item.activeFor ? ` (active ${item.activeFor})` : ''}`
  return {
    subject: items.every((i) => i.event === 'resolved') ? `[Pixelfleet] ${items.length} alerts and deviations were resolved` : `[Pixelfleet] ${items.length} alerts and deviations need your attention`,
    text: [
      `Hello ${user.name},`,
      '',
      `${items.length} alerts and deviations ${intro(items)}:`,
      '',
      ...sorted.flatMap((item) => [`- ${line(item)}`, `  ${item.link}`]),
      '',
      `You receive this e-mail because of your notification settings: ${settingsLink}`,
    ].join('\n'),
    html:
      `<p>Hello ${escapeHtml(user.name)},</p><p>${items.length} alerts and deviations ${intro(items)}:</p>` +
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
