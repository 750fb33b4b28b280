import { severityLabel } from '../agents/derived'
import { escapeHtml } from '../auth/verification.server'
import { STATUS, accessesFor, issueInclude } from './audience.server'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { inChunks } from '~/utils/id-chunks'

/** What a user's claimed deliveries describe, and the e-mail (one item, or a digest) that tells them. */

export type DeliveryItem = {
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
export async function describeDeliveries(userId: string, rows: { id: string; issueId: string; activation: number; severity: number }[]): Promise<DeliveryItem[]> {
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

export function singleMail(user: { name: string }, item: DeliveryItem, settingsLink: string) {
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

export function digestMail(user: { name: string }, items: DeliveryItem[], settingsLink: string) {
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
