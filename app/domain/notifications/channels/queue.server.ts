import { severityLabel } from '../../agents/derived'
import { rootCausesOfSystems, type RootCauseIssueRow } from '../../rootcause/rootcause.server'
import { type ChannelEvent } from './payloads.server'
import { enqueueChannelMessages, newEventId, type QueuedMessage } from './sender.server'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'

/**
 * Turns (channel, issue) pairs decided by notification delivery (delivery.server.ts: the
 * subscriber's nearest subscription names the channel, its severity sliders let the issue
 * through, the subscriber can see the project) into queued channel messages. One message per
 * channel and issue activation/severity; issues a root cause explains become ONE message per
 * channel naming the cause and how many devices it affects (docs/root-cause.md).
 */

export type ChannelIssue = {
  id: string
  kind: string
  key: string
  component: string
  message: string
  severity: number
  activation: number
  system: { id: string; key: string; name: string; projectId: string | null; agent: { id: string; clientName: string } }
}

const kindLabel = (kind: string) => (kind === 'deviation' ? 'deviation' : 'alert')

export async function queueChannelNotifications(organizationId: string, pairs: { channelId: string; issue: ChannelIssue }[]): Promise<number> {
  if (!pairs.length) return 0
  const [organization, projects, rootCauses] = await Promise.all([
    prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true, name: true } }),
    prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true, parentId: true } }),
    rootCausesOfSystems(pairs.map((p) => p.issue.system.id)),
  ])
  if (!organization) return 0
  const byId = new Map(projects.map((p) => [p.id, p]))
  const pathOf = (projectId: string) => {
    const names: string[] = []
    for (let id: string | null = projectId; id && names.length < 20; id = byId.get(id)?.parentId ?? null) names.unshift(byId.get(id)?.name ?? id)
    return names.join(' / ')
  }
  const groupOf = new Map<string, (typeof rootCauses.groups)[number]>()
  for (const g of rootCauses.groups) {
    groupOf.set(g.cause.id, g)
    for (const i of g.explained) groupOf.set(i.id, g)
  }
  const { publicUrl } = getConfig()
  const messages: QueuedMessage[] = []
  for (const { channelId, issue } of pairs) {
    const group = groupOf.get(issue.id)
    const cause: RootCauseIssueRow | ChannelIssue = group?.cause ?? issue
    const agentName = issue.system.agent.clientName || issue.system.agent.id
    // a group is as severe as the worst of its cause and what it explains
    const severity = group?.severity ?? cause.severity
    const base = {
      id: newEventId(),
      createdAt: new Date().toISOString(),
      organization,
      ...(issue.system.projectId ? { project: { id: issue.system.projectId, path: pathOf(issue.system.projectId) } } : {}),
      agent: { id: issue.system.agent.id, name: agentName },
      system: { id: issue.system.id, name: issue.system.name || issue.system.key },
      issue: { id: cause.id, kind: cause.kind, key: cause.key, component: cause.component, severity, severityLabel: severityLabel(severity), message: cause.message || cause.key },
      link: `${publicUrl}/organization/${organizationId}/agents/${issue.system.agent.id}`,
    }
    if (group) {
      const event: ChannelEvent = {
        ...base,
        type: 'rootCause.active',
        rootCause: {
          explainedIssues: group.explained.length,
          affectedDevices: group.deviceCount,
          issues: group.explained.map((i) => ({ id: i.id, key: i.key, component: i.component, severityLabel: severityLabel(i.severity), message: i.message || i.key })),
        },
        summary: `Root cause on ${agentName}: ${group.cause.message || group.cause.key} affects ${group.deviceCount} device${group.deviceCount === 1 ? '' : 's'}`,
      }
      messages.push({ channelId, dedupKey: `cause:${group.cause.id}:${group.cause.activation}`, kind: 'rootCause', event })
    } else {
      const event: ChannelEvent = { ...base, type: 'issue.active', summary: `${severityLabel(issue.severity)} ${kindLabel(issue.kind)} on ${agentName}: ${issue.message || issue.key}` }
      messages.push({ channelId, dedupKey: `issue:${issue.id}:${issue.activation}:${issue.severity}`, kind: 'issue', event })
    }
  }
  return (await enqueueChannelMessages(messages)).length
}
