/**
 * Proxy sessions of the remote portal (spec 01 sections 2, 3 and 7): a person asks the relay to
 * /login for one agent; the portal checks the connect permission and issues an authCheck, a
 * random token kept only as its SHA-256 hash and bound to the user, the agent, the project it was
 * granted through and an expiry. The relay validates it on every proxied request.
 */
import { UAParser } from 'ua-parser-js'
import { type Actor, type UserActor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { randomToken, sha256 } from '../auth/crypto.server'
import { accessDenied, notFound, notLoggedIn } from '../errors'
import { prisma } from '~/utils/db.server'
import { NO_PROJECT } from './proxy-address'

/** How long an authCheck stays valid; the portal page logs in again when it is reopened. */
export const PROXY_SESSION_TTL_MS = 4 * 60 * 60 * 1000

type AgentInOrganization = { id: string; organizationId: string | null; defaultProjectId: string | null; systems: { projectId: string | null }[] }

/**
 * The project through which the actor may connect to the agent: `null` when an organization-level
 * connect permission covers it, otherwise one of the agent's projects with project-level connect
 * (or connect-admin). Throws 403 when there is none. With `projectId` only that project counts.
 */
export function connectGrant(access: OrganizationAccess, agent: AgentInOrganization, projectId?: string | null): string | null {
  const mayConnect = (id?: string | null) => access.can('project.agents.connect', id) || access.can('project.agents.connect.admin', id)
  const orgWide = access.can('org.agents.connect') || access.can('org.agents.connect.admin')
  const agentProjects = new Set([agent.defaultProjectId, ...agent.systems.map((s) => s.projectId)].filter((id): id is string => !!id))
  if (projectId) {
    // The project in the address must be one the agent reports to, or the session would widen access.
    if (!access.hasProject(projectId) || !agentProjects.has(projectId)) throw accessDenied()
    if (orgWide || mayConnect(projectId)) return projectId
    throw accessDenied()
  }
  if (orgWide) return null
  const granted = [...agentProjects].find((id) => mayConnect(id))
  if (!granted) throw accessDenied()
  return granted
}

/** Loads an enrolled agent and the actor's access to its organization; 404/403 as the rest of the app. */
export async function loadConnectableAgent(actor: Actor, agentId: string, organizationId?: string) {
  const agent = await prisma.agent.findUnique({
    where: { id: agentId },
    select: { id: true, clientName: true, product: true, organizationId: true, defaultProjectId: true, tunnelStatus: true, systems: { select: { projectId: true } } },
  })
  if (!agent?.organizationId || (organizationId && agent.organizationId !== organizationId)) {
    // Someone outside the organization learns nothing about whether the agent exists.
    if (organizationId) await getOrganizationAccess(actor, organizationId)
    throw notFound('Agent not found')
  }
  const access = await getOrganizationAccess(actor, agent.organizationId)
  return { agent: { ...agent, organizationId: agent.organizationId }, access }
}

export type ClientInfo = { ip: string; userAgent: string }

/** Relay /login: checks the connect permission and opens a proxy session; the authCheck is returned once. */
export async function openProxySession(actor: Actor, input: { agentId: string; projectId?: string | null; organizationId?: string }, client: ClientInfo) {
  if (actor.kind !== 'user') throw notLoggedIn()
  const { agent, access } = await loadConnectableAgent(actor, input.agentId, input.organizationId)
  const projectId = connectGrant(access, agent, input.projectId)
  const authCheck = randomToken(24)
  const { browser, os } = new UAParser(client.userAgent).getResult()
  const session = await prisma.$transaction(async (tx) => {
    const created = await tx.proxySession.create({
      data: {
        userId: actor.userId,
        userEmail: actor.email,
        agentId: agent.id,
        projectId,
        authCheckHash: sha256(authCheck),
        clientIp: client.ip,
        userAgent: client.userAgent.slice(0, 500),
        browserName: browser.name ?? '',
        browserVersion: browser.version ?? '',
        osName: [os.name, os.version].filter(Boolean).join(' '),
        expiresAt: new Date(Date.now() + PROXY_SESSION_TTL_MS),
      },
    })
    await audit(tx, actor, {
      organizationId: agent.organizationId,
      projectId,
      action: 'agent.connect',
      message: `Opened a remote portal session to agent ${agent.clientName || agent.id}`,
    })
    return created
  })
  return { authCheck, sessionId: session.id, product: agent.product, agentId: agent.id, projectId, expiresAt: session.expiresAt }
}

/** Relay /logout: ends the caller's own session (unknown or foreign checks are ignored). */
export async function closeProxySession(actor: UserActor, authCheck: string) {
  await prisma.proxySession.updateMany({
    where: { authCheckHash: sha256(authCheck), userId: actor.userId, closedAt: null },
    data: { closedAt: new Date(), connectionsActive: 0 },
  })
}

export type ProxySessionCheck =
  | { ok: true; session: { id: string; agentId: string; userId: string } }
  | { ok: false; status: 401 | 403; message: string }

/** What the relay needs to judge requests of one authCheck (null: no such session). */
export type ProxySessionRecord = Awaited<ReturnType<typeof loadProxySession>>

/** Reads the session an authCheck names, as the relay (no person acting). */
export function loadProxySession(authCheck: string) {
  return prisma.proxySession.findUnique({
    where: { authCheckHash: sha256(authCheck) },
    select: { id: true, agentId: true, userId: true, projectId: true, expiresAt: true, closedAt: true, user: { select: { disabled: true } } },
  })
}

/**
 * The relay's check of one proxied request: a live session of an enabled user, for exactly this
 * agent and project (the address segments), not past its expiry.
 */
export function judgeProxySession(session: ProxySessionRecord, agentId: string, projectSegment: string, now = Date.now()): ProxySessionCheck {
  if (!session || session.closedAt) return { ok: false, status: 401, message: 'This remote portal session is not valid. Open the portal again.' }
  if (session.expiresAt.getTime() <= now) return { ok: false, status: 401, message: 'This remote portal session has expired. Open the portal again.' }
  if (session.user.disabled) return { ok: false, status: 403, message: 'This account is disabled.' }
  if (session.agentId !== agentId || (session.projectId ?? NO_PROJECT) !== projectSegment) {
    return { ok: false, status: 403, message: 'This remote portal session belongs to another agent.' }
  }
  return { ok: true, session: { id: session.id, agentId: session.agentId, userId: session.userId } }
}

/** Activity of one session as the relay sees it (last seen is now). */
export async function recordProxyActivity(sessionId: string, activity: { connectionsActive: number; lastPath?: string }) {
  await prisma.proxySession.update({
    where: { id: sessionId },
    data: { lastSeen: new Date(), connectionsActive: activity.connectionsActive, ...(activity.lastPath !== undefined ? { lastPath: activity.lastPath.slice(0, 1000) } : {}) },
  })
}

/** Admin > Sessions: live (unexpired, open) proxy sessions, newest first. Site admins only. */
export async function listProxySessions(actor: Actor) {
  if (actor.kind !== 'user') throw notLoggedIn()
  if (!actor.isSiteAdmin) throw accessDenied()
  const rows = await prisma.proxySession.findMany({
    where: { closedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: 'desc' },
    take: 500,
    include: { agent: { select: { clientName: true, product: true, organizationId: true } } },
  })
  return rows.map((s) => ({
    id: s.id,
    // "the document path" of the session: where the agent lives
    agentPath: `organizations/${s.agent.organizationId ?? '-'}/agents/${s.agentId}`,
    agentId: s.agentId,
    agentName: s.agent.clientName || s.agentId,
    userEmail: s.userEmail,
    clientIp: s.clientIp,
    browser: [s.browserName, s.browserVersion].filter(Boolean).join(' '),
    os: s.osName,
    createdAt: s.createdAt.toISOString(),
    lastSeen: s.lastSeen.toISOString(),
    connectionsActive: s.connectionsActive ?? 0,
    lastPath: s.lastPath,
  }))
}
