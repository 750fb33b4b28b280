import { type Prisma } from '@prisma/client'
import { z } from 'zod'
import { type Actor, actorLabel } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { accessDenied, invalid, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { cachedOrgRead, userKey } from '../fleet/org-read-cache.server'
import { loadFleetScope } from '../fleet/scope.server'
import { parseInput } from '../parse-input'
import { isAcknowledged, type IssueStateFilter } from './state'
import { windowPolicy } from './windows.server'
import { prisma } from '~/utils/db.server'

/**
 * Alarm lifecycle: list issues by state, acknowledge (with an optional comment), comment, clear a
 * stale issue by hand. Seeing an issue needs project.view on its system's project (organization-wide
 * agent.list for unassigned systems); changing it needs project.update there (org.update when unassigned).
 */

export const ISSUES_PAGE_SIZE = 50
/** The agent page shows every system's issues at once (issues age out after the 10-day history window). */
const AGENT_ISSUES_PAGE_SIZE = 500
const commentText = z.string({ invalid_type_error: 'Comment must be text' }).trim().max(2000, 'Comment must be at most 2000 characters')
export const acknowledgeInput = z.object({ comment: commentText.default('') }).strict()
export const commentInput = z.object({ text: commentText.min(1, 'Comment is required') }).strict()
export const clearInput = z.object({ comment: commentText.default('') }).strict()

/** Prisma filter for a state (acknowledged = acknowledgedAt set and ackActivation caught up with activation). */
export function stateWhere(state: IssueStateFilter): Prisma.IssueWhereInput {
  const acked: Prisma.IssueWhereInput = { acknowledgedAt: { not: null }, ackActivation: { gte: prisma.issue.fields.activation } }
  const unacked: Prisma.IssueWhereInput = { OR: [{ acknowledgedAt: null }, { ackActivation: { lt: prisma.issue.fields.activation } }] }
  if (state === 'active') return { isActive: true }
  if (state === 'active-unack') return { isActive: true, ...unacked }
  if (state === 'active-ack') return { isActive: true, ...acked }
  if (state === 'cleared') return { isActive: false }
  return {}
}

const listSelect = {
  id: true,
  kind: true,
  key: true,
  severity: true,
  component: true,
  deviceKey: true,
  message: true,
  latestCount: true,
  latestAt: true,
  isActive: true,
  activation: true,
  acknowledgedAt: true,
  acknowledgedBy: true,
  ackActivation: true,
  clearedAt: true,
  clearedBy: true,
  systemId: true,
  system: { select: { key: true, name: true, projectId: true, agent: { select: { id: true, clientName: true } } } },
} as const satisfies Prisma.IssueSelect

/** A listed issue and its comment count (counted for the page's issues: Prisma's `_count` grouped every comment of the database per page). */
type ListRow = Prisma.IssueGetPayload<{ select: typeof listSelect }> & { _count: { comments: number } }

function presentRow(i: ListRow, muted: boolean, canManage = false) {
  return {
    /** the viewer may acknowledge, comment and clear it */
    canManage,
    id: i.id,
    kind: i.kind,
    key: i.key,
    severity: i.severity,
    component: i.component,
    message: i.message || i.key,
    count: i.latestCount,
    latestAt: i.latestAt.toISOString(),
    isActive: i.isActive,
    acknowledged: isAcknowledged(i),
    acknowledgedBy: isAcknowledged(i) ? i.acknowledgedBy : '',
    acknowledgedAt: isAcknowledged(i) ? (i.acknowledgedAt?.toISOString() ?? null) : null,
    clearedBy: i.isActive ? '' : i.clearedBy,
    comments: i._count.comments,
    muted: muted && i.isActive,
    systemId: i.systemId,
    system: i.system.name || i.system.key,
    agentId: i.system.agent.id,
    agent: i.system.agent.clientName || i.system.agent.id,
  }
}
export type IssueRowView = ReturnType<typeof presentRow>

async function listWhere(access: OrganizationAccess, where: Prisma.IssueWhereInput, page: number, pageSize = ISSUES_PAGE_SIZE) {
  const organizationId = access.organization.id
  const total = await prisma.issue.count({ where })
  const pageCount = Math.max(1, Math.ceil(total / pageSize))
  const current = Math.min(Math.max(1, page), pageCount)
  const [rows, policy] = await Promise.all([
    prisma.issue.findMany({ where, select: listSelect, orderBy: [{ isActive: 'desc' }, { severity: 'asc' }, { latestAt: 'desc' }, { id: 'asc' }], skip: (current - 1) * pageSize, take: pageSize }),
    windowPolicy(organizationId),
  ])
  const commentCounts = rows.length
    ? await prisma.issueComment.groupBy({ by: ['issueId'], where: { issueId: { in: rows.map((r) => r.id) } }, _count: { _all: true } })
    : []
  const comments = new Map(commentCounts.map((c) => [c.issueId, c._count._all]))
  return {
    issues: rows.map((r) => presentRow({ ...r, _count: { comments: comments.get(r.id) ?? 0 } }, policy.modeFor(r.system.projectId, r.severity) === 'muted', manageable(access, r.system.projectId))),
    page: current,
    pageCount,
    pageSize,
    total,
  }
}

/** The project's issues (with its sub-projects) in one state, worst first. Needs project.view. */
export async function listProjectIssues(actor: Actor, organizationId: string, projectId: string, state: IssueStateFilter, page = 1) {
  const scope = await loadFleetScope(actor, organizationId, 'project.view')
  if (!scope.projects.has(projectId)) throw notFound('Project not found')
  if (!scope.access.can('project.view', projectId)) throw accessDenied()
  const load = async () => {
    const list = await listWhere(scope.access, { AND: [stateWhere(state), { system: scope.systemsInProjects(scope.subtree(projectId)) }] }, page)
    return { ...list, state, canManage: scope.access.can('project.update', projectId) }
  }
  // per user (rows carry what this user may do), state and page; every issue change drops it. A
  // window starting or ending (muted) shows at most ORG_READ_CACHE_MS late.
  const user = userKey(actor)
  return user ? cachedOrgRead(scope.organizationId, `project-issues:${projectId}:${user}:${state}:${page}`, load) : load()
}

/** An agent's issues over the systems the viewer sees, in one state. */
export async function listAgentIssues(actor: Actor, organizationId: string, agentId: string, state: IssueStateFilter, page = 1) {
  const scope = await loadFleetScope(actor, organizationId, 'agent.list')
  const systems = await prisma.system.findMany({ where: { agentId, agent: { organizationId } }, select: { id: true, projectId: true } })
  const visible = systems.filter((s) => scope.canSeeSystem(s.projectId))
  if (visible.length === 0 && systems.length > 0) throw notFound('Agent not found')
  // the visible systems as a relation filter: an agent may hold over a thousand systems, too many ids to bind
  const systemWhere: Prisma.SystemWhereInput = { agentId, agent: { organizationId }, ...scope.visibleSystemWhere() }
  return listWhere(scope.access, { AND: [stateWhere(state), { system: systemWhere }] }, page, AGENT_ISSUES_PAGE_SIZE)
}

type Loaded = { access: OrganizationAccess; issue: Prisma.IssueGetPayload<{ include: { system: { select: { id: true; key: true; name: true; projectId: true; agent: { select: { id: true; clientName: true; organizationId: true } } } } } }> }

/** Loads an issue of the organization the actor may see; 404 for others (nothing leaks). */
async function loadIssue(actor: Actor, organizationId: string, issueId: string): Promise<Loaded> {
  const access = await getOrganizationAccess(actor, organizationId)
  const issue = await prisma.issue.findUnique({
    where: { id: issueId },
    include: { system: { select: { id: true, key: true, name: true, projectId: true, agent: { select: { id: true, clientName: true, organizationId: true } } } } },
  })
  if (!issue || issue.system.agent.organizationId !== organizationId) throw notFound('Issue not found')
  const projectId = issue.system.projectId
  const visible = projectId ? access.hasProject(projectId) && access.can('project.view', projectId) : access.can('agent.list')
  if (!visible) throw notFound('Issue not found')
  return { access, issue }
}

const manageable = (access: OrganizationAccess, projectId: string | null) => (projectId ? access.can('project.update', projectId) : access.can('org.update'))
const canManage = ({ access, issue }: Loaded) => manageable(access, issue.system.projectId)

function requireManage(loaded: Loaded) {
  if (!canManage(loaded)) throw accessDenied('You may not change issues of this project')
}

/** One issue for the drawer: fields, history, comment thread, notifications and what the viewer may do. */
export async function getIssue(actor: Actor, organizationId: string, issueId: string) {
  const loaded = await loadIssue(actor, organizationId, issueId)
  const { issue } = loaded
  const [history, comments, deliveries, policy] = await Promise.all([
    prisma.issueHistory.findMany({ where: { issueId }, orderBy: { timestamp: 'desc' }, take: 50, select: { timestamp: true, count: true } }),
    prisma.issueComment.findMany({ where: { issueId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true, kind: true, authorName: true, text: true, createdAt: true } }),
    prisma.notificationDelivery.groupBy({ by: ['status'], where: { issueId, activation: issue.activation }, _count: { _all: true } }),
    windowPolicy(organizationId),
  ])
  const acknowledged = isAcknowledged(issue)
  return {
    issue: {
      ...presentRow({ ...issue, _count: { comments: comments.length } } as ListRow, policy.modeFor(issue.system.projectId, issue.severity) === 'muted', canManage(loaded)),
      deviceKey: issue.deviceKey,
      activation: issue.activation,
      createdAt: issue.createdAt.toISOString(),
      clearedAt: issue.isActive ? null : (issue.clearedAt?.toISOString() ?? null),
      acknowledgedAt: acknowledged ? (issue.acknowledgedAt?.toISOString() ?? null) : null,
    },
    history: history.map((h) => ({ timestamp: h.timestamp.toISOString(), count: h.count })),
    comments: comments.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })),
    /** this activation's notifications by status (pending, sent, muted, skipped) */
    notifications: Object.fromEntries(deliveries.map((d) => [d.status, d._count._all])) as Record<string, number>,
    capabilities: { canManage: canManage(loaded) },
  }
}

const issueLabel = (issue: Loaded['issue']) => `'${issue.message || issue.key}' on ${issue.system.agent.clientName || issue.system.agent.id} / ${issue.system.name || issue.system.key}`

function announce(organizationId: string, issue: Loaded['issue']) {
  emitChange({ organizationId, kind: 'issue', ids: [issue.id], byPerson: true })
}

/** Acknowledges the issue's current activation; further escalations of it notify nobody. */
export async function acknowledgeIssue(actor: Actor, organizationId: string, issueId: string, raw: unknown = {}) {
  const loaded = await loadIssue(actor, organizationId, issueId)
  requireManage(loaded)
  const { comment } = parseInput(acknowledgeInput, raw)
  const { issue } = loaded
  if (isAcknowledged(issue)) throw invalid('The issue is already acknowledged')
  const now = new Date()
  await prisma.$transaction(async (tx) => {
    // Conditional on the activation read above: a re-activation in between needs a fresh look.
    const { count } = await tx.issue.updateMany({ where: { id: issueId, activation: issue.activation }, data: { acknowledgedAt: now, acknowledgedBy: actorLabel(actor), ackActivation: issue.activation } })
    if (count === 0) throw invalid('The issue changed meanwhile; reload and try again')
    await tx.issueComment.create({ data: { issueId, userId: actor.kind === 'user' ? actor.userId : null, authorName: actorLabel(actor), kind: 'ack', text: comment, createdAt: now } })
    await audit(tx, actor, { organizationId, projectId: issue.system.projectId, action: 'issue.acknowledge', message: `Acknowledged issue ${issueLabel(issue)}${comment ? `: ${comment}` : ''}` })
  })
  announce(organizationId, issue)
  return { issueId, acknowledgedAt: now.toISOString() }
}

/**
 * Withdraws the acknowledgement of the issue's current activation (acknowledged by mistake, or the
 * fix did not hold): it is unacknowledged again, so its further escalations notify as before.
 */
export async function unacknowledgeIssue(actor: Actor, organizationId: string, issueId: string, raw: unknown = {}) {
  const loaded = await loadIssue(actor, organizationId, issueId)
  requireManage(loaded)
  const { comment } = parseInput(acknowledgeInput, raw)
  const { issue } = loaded
  if (!isAcknowledged(issue)) throw invalid('The issue is not acknowledged')
  const now = new Date()
  await prisma.$transaction(async (tx) => {
    // Conditional on the acknowledgement read above: one made or withdrawn in between needs a fresh look.
    const { count } = await tx.issue.updateMany({
      where: { id: issueId, activation: issue.activation, acknowledgedAt: issue.acknowledgedAt },
      data: { acknowledgedAt: null, acknowledgedBy: '', ackActivation: 0 },
    })
    if (count === 0) throw invalid('The issue changed meanwhile; reload and try again')
    await tx.issueComment.create({ data: { issueId, userId: actor.kind === 'user' ? actor.userId : null, authorName: actorLabel(actor), kind: 'unack', text: comment, createdAt: now } })
    await audit(tx, actor, { organizationId, projectId: issue.system.projectId, action: 'issue.unacknowledge', message: `Withdrew the acknowledgement of issue ${issueLabel(issue)}${comment ? `: ${comment}` : ''}` })
  })
  announce(organizationId, issue)
  return { issueId, unacknowledgedAt: now.toISOString() }
}

export async function commentIssue(actor: Actor, organizationId: string, issueId: string, raw: unknown) {
  const loaded = await loadIssue(actor, organizationId, issueId)
  requireManage(loaded)
  const { text } = parseInput(commentInput, raw)
  const comment = await prisma.$transaction(async (tx) => {
    const created = await tx.issueComment.create({ data: { issueId, userId: actor.kind === 'user' ? actor.userId : null, authorName: actorLabel(actor), kind: 'comment', text } })
    await audit(tx, actor, { organizationId, projectId: loaded.issue.system.projectId, action: 'issue.comment', message: `Commented on issue ${issueLabel(loaded.issue)}: ${text}` })
    return created
  })
  announce(organizationId, loaded.issue)
  return { commentId: comment.id }
}

/** Clears an active issue by hand (the agent stopped reporting it); it becomes active again if reported anew. */
export async function clearIssue(actor: Actor, organizationId: string, issueId: string, raw: unknown = {}) {
  const loaded = await loadIssue(actor, organizationId, issueId)
  requireManage(loaded)
  const { comment } = parseInput(clearInput, raw)
  const { issue } = loaded
  const now = new Date()
  await prisma.$transaction(async (tx) => {
    const { count } = await tx.issue.updateMany({ where: { id: issueId, isActive: true }, data: { isActive: false, clearedAt: now, clearedBy: actorLabel(actor), clearRecorded: issue.activation } })
    if (count === 0) throw invalid('The issue is already cleared')
    await tx.issueComment.create({ data: { issueId, userId: actor.kind === 'user' ? actor.userId : null, authorName: actorLabel(actor), kind: 'clear', text: comment, createdAt: now } })
    await audit(tx, actor, { organizationId, projectId: issue.system.projectId, action: 'issue.clear', message: `Cleared issue ${issueLabel(issue)} by hand${comment ? `: ${comment}` : ''}` })
  })
  announce(organizationId, issue)
  return { issueId, clearedAt: now.toISOString() }
}
