/**
 * How a proxy session stays valid while it is used (docs/security.md): the relay judges every
 * request against the session record (ended, expired, idle, browser binding) and re-checks the
 * person's rights (portal sign-in, account, organization membership, connect permission, the
 * agent's organization) at least every few seconds. A failed check ends the session with its
 * reason, audited once.
 */
import { type Actor, type UserActor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { sha256 } from '../auth/crypto.server'
import { DomainError } from '../errors'
import { prisma, type Tx } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { NO_PROJECT } from './proxy-address'

/** What the relay needs to judge requests on one session origin (null: no such session). */
export type ProxySessionRecord = Awaited<ReturnType<typeof loadProxySession>>

/** Reads the session a host label names, as the relay (no person acting). */
export function loadProxySession(hostLabel: string) {
  return prisma.proxySession.findUnique({
    where: { hostLabel },
    select: {
      id: true,
      agentId: true,
      userId: true,
      projectId: true,
      organizationId: true,
      authCheckHash: true,
      browserKeyHash: true,
      credentialHash: true,
      createdAt: true,
      lastSeen: true,
      expiresAt: true,
      closedAt: true,
      closedReason: true,
      user: { select: { id: true, email: true, name: true, isAdmin: true, disabled: true } },
    },
  })
}

/** How long the one-time code in a session's first address may wait to be redeemed by the frame. */
export const PROXY_CODE_TTL_MS = 60_000

/** Why a session ended (ProxySession.closedReason). */
export type EndReason = 'closed' | 'signed-out' | 'user-disabled' | 'access-removed' | 'agent-removed' | 'organization-deleted' | 'idle' | 'expired'

const REASON_TEXT: Record<EndReason, string> = {
  closed: 'closed by the user',
  'signed-out': 'the user signed out of the portal',
  'user-disabled': 'the account was disabled',
  'access-removed': 'the user no longer has the connect permission',
  'agent-removed': 'the agent was removed from the organization',
  'organization-deleted': 'the organization was deleted',
  idle: 'idle too long',
  expired: 'it reached its maximum duration',
}

/** Idle and absolute limits (RELAY_SESSION_IDLE_MINUTES, RELAY_SESSION_MAX_HOURS). */
export function relaySessionLimits() {
  const config = getConfig()
  return { idleMs: config.RELAY_SESSION_IDLE_MINUTES * 60_000, maxMs: Math.round(config.RELAY_SESSION_MAX_HOURS * 3_600_000) }
}

export type ProxyVerdict =
  | { ok: true; session: { id: string; agentId: string; userId: string } }
  | { ok: false; status: 401 | 403; message: string; end?: EndReason }

const ENDED = 'This remote portal session has ended. Open the portal again from the agents list.'

/**
 * The cheap per-request judgement (no database read): the session exists and is open, within its
 * absolute and idle limits, for this browser (`browserKey` from the relay cookie).
 */
export function judgeProxySession(session: ProxySessionRecord, browserKey: string | null, now = Date.now()): ProxyVerdict {
  if (!session) return { ok: false, status: 401, message: ENDED }
  if (session.closedAt) return { ok: false, status: 401, message: `This remote portal session has ended (${REASON_TEXT[session.closedReason as EndReason] ?? 'closed'}). Open the portal again.` }
  const due = endDue(session, now)
  if (due === 'expired') return { ok: false, status: 401, message: 'This remote portal session has expired. Open the portal again.', end: due }
  if (due === 'idle') return { ok: false, status: 401, message: 'This remote portal session has expired after being idle. Open the portal again.', end: due }
  if (!session.browserKeyHash || !browserKey || sha256(browserKey) !== session.browserKeyHash) {
    return { ok: false, status: 401, message: 'This remote portal session belongs to another browser. Open the portal again from the agents list.' }
  }
  return { ok: true, session: { id: session.id, agentId: session.agentId, userId: session.userId } }
}

/** The time-based end a session has reached, if any: absolute expiry, idle, or a one-time code never redeemed in time. */
export function endDue(session: NonNullable<ProxySessionRecord>, now = Date.now()): EndReason | null {
  if (session.expiresAt.getTime() <= now) return 'expired'
  if (!session.browserKeyHash && session.createdAt.getTime() + PROXY_CODE_TTL_MS <= now) return 'expired'
  if (session.lastSeen.getTime() + relaySessionLimits().idleMs <= now) return 'idle'
  return null
}

/** Whether the address segments (agent, project) name this session's agent. */
export function addressMatches(session: NonNullable<ProxySessionRecord>, agentId: string, projectSegment: string) {
  return session.agentId === agentId && (session.projectId ?? NO_PROJECT) === projectSegment
}

/**
 * The periodic re-check (a few database reads): null while the person may still use the session,
 * otherwise the reason it must end.
 */
export async function proxySessionRightsLost(session: NonNullable<ProxySessionRecord>, now = new Date()): Promise<EndReason | null> {
  if (session.user.disabled) return 'user-disabled'
  if (!(await credentialLive(session.credentialHash, now))) return 'signed-out'
  const agent = await prisma.agent.findUnique({ where: { id: session.agentId }, select: { organizationId: true, defaultProjectId: true, systems: { select: { projectId: true } } } })
  if (!agent?.organizationId || agent.organizationId !== session.organizationId) return 'agent-removed'
  const actor = sessionActor(session)
  try {
    const access = await getOrganizationAccess(actor, agent.organizationId)
    const mayConnect = (id?: string | null) => access.can('project.agents.connect', id) || access.can('project.agents.connect.admin', id)
    const orgWide = access.can('org.agents.connect') || access.can('org.agents.connect.admin')
    if (session.projectId === null) return orgWide ? null : 'access-removed'
    const agentProjects = new Set([agent.defaultProjectId, ...agent.systems.map((s) => s.projectId)])
    if (!agentProjects.has(session.projectId)) return 'access-removed'
    return orgWide || mayConnect(session.projectId) ? null : 'access-removed'
  } catch (error) {
    if (error instanceof DomainError) return 'access-removed'
    throw error
  }
}

/** The portal session or API token the proxy session was opened with is still valid. */
async function credentialLive(credentialHash: string, now: Date) {
  if (!credentialHash) return false
  const session = await prisma.session.findUnique({ where: { tokenHash: credentialHash }, select: { expiresAt: true } })
  if (session) return session.expiresAt > now
  const token = await prisma.apiToken.findUnique({ where: { tokenHash: credentialHash }, select: { revokedAt: true, expiresAt: true } })
  return !!token && !token.revokedAt && (!token.expiresAt || token.expiresAt > now)
}

function sessionActor(session: { clientIp?: string; user: { id: string; email: string; name: string; isAdmin: boolean } }): UserActor {
  return { kind: 'user', userId: session.user.id, email: session.user.email, name: session.user.name, isSiteAdmin: session.user.isAdmin, ip: session.clientIp ?? '', userAgent: '' }
}

/** Ends a session once (closed time and reason) and audits the end; false when it had already ended. */
export async function endProxySession(sessionId: string, reason: EndReason): Promise<boolean> {
  return prisma.$transaction(async (tx) => {
    const { count } = await tx.proxySession.updateMany({ where: { id: sessionId, closedAt: null }, data: { closedAt: new Date(), closedReason: reason, connectionsActive: 0 } })
    if (count !== 1) return false
    const session = await tx.proxySession.findUniqueOrThrow({
      where: { id: sessionId },
      select: { organizationId: true, projectId: true, clientIp: true, agent: { select: { id: true, clientName: true, organizationId: true } }, user: { select: { id: true, email: true, name: true, isAdmin: true } } },
    })
    // A session of an organization deleted meanwhile is audited at site level (its log went with it).
    const organizationId = session.organizationId ?? session.agent.organizationId
    const organizationLives = organizationId !== null && (await tx.organization.count({ where: { id: organizationId } })) === 1
    await audit(tx, sessionActor(session), {
      organizationId: organizationLives ? organizationId : null,
      projectId: session.projectId,
      action: 'agent.disconnect',
      message: `Remote portal session to agent ${session.agent.clientName || session.agent.id} ended: ${REASON_TEXT[reason]}`,
    })
    return true
  })
}

/**
 * Ends every open session opened through an organization, inside the transaction that deletes it
 * (so none outlives it, and the relay refuses its requests at its next re-check). The
 * organization's log goes with it: one site-level record says how many sessions ended.
 */
export async function endOrganizationProxySessions(tx: Tx, actor: Actor, organizationId: string) {
  const { count } = await tx.proxySession.updateMany({ where: { organizationId, closedAt: null }, data: { closedAt: new Date(), closedReason: 'organization-deleted', connectionsActive: 0 } })
  if (count) await audit(tx, actor, { organizationId: null, action: 'agent.disconnect', message: `${count} remote portal session${count === 1 ? '' : 's'} of organization ${organizationId} ended: ${REASON_TEXT['organization-deleted']}` })
  return count
}

/** Requests of one session per path, as the relay aggregated them (path without query -> count). */
export type PathCounts = Map<string, number>

/**
 * One audit record per session and flush (the relay flushes at the end of a session and every
 * few minutes while it lasts), listing each path with its request count, most requested first.
 */
export async function auditProxyRequests(sessionId: string, paths: PathCounts, overflow: number) {
  if (!paths.size && !overflow) return
  const session = await prisma.proxySession.findUnique({
    where: { id: sessionId },
    select: { organizationId: true, projectId: true, clientIp: true, agent: { select: { id: true, clientName: true } }, user: { select: { id: true, email: true, name: true, isAdmin: true } } },
  })
  if (!session) return
  const total = [...paths.values()].reduce((a, b) => a + b, 0) + overflow
  const listed = [...paths.entries()].sort((a, b) => b[1] - a[1]).map(([path, n]) => `${path} ×${n}`)
  let message = `Remote portal requests to agent ${session.agent.clientName || session.agent.id}: ${total} request${total === 1 ? '' : 's'} on ${paths.size} path${paths.size === 1 ? '' : 's'}${overflow ? ` (+${overflow} on further paths)` : ''}: ${listed.join(', ')}`
  if (message.length > 2000) message = `${message.slice(0, 1990)}, …`
  await prisma.$transaction((tx) => audit(tx, sessionActor(session), { organizationId: session.organizationId, projectId: session.projectId, action: 'agent.connect.requests', message }))
}

/** Open sessions the relay should sweep (end when idle, expired or no longer allowed). */
export function listOpenProxySessionLabels() {
  return prisma.proxySession.findMany({ where: { closedAt: null, hostLabel: { not: null } }, select: { hostLabel: true }, take: 5000 }).then((rows) => rows.map((r) => r.hostLabel!))
}
