/**
 * Proxy sessions of the remote portal (spec 01 sections 2, 3 and 7; docs/security.md): the portal
 * checks the connect permission and opens a session with its own origin and a one-time authCheck,
 * kept only as its SHA-256 hash and bound to the user, the agent, the project it was granted
 * through, the person's portal sign-in and an expiry. The relay exchanges the authCheck once for a
 * cookie on the session origin and re-checks the session while it is used.
 */
import { randomBytes } from 'node:crypto'
import { UAParser } from 'ua-parser-js'
import { type Actor, type UserActor } from '../actor'
import { getOrganizationAccess, type OrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { randomToken, sha256 } from '../auth/crypto.server'
import { accessDenied, notFound, notLoggedIn } from '../errors'
import { prisma } from '~/utils/db.server'
import { relaySessionOrigin } from './address.server'
import { proxyAddress } from './proxy-address'
import { endProxySession, PROXY_CODE_TTL_MS, relaySessionLimits } from './session-checks.server'


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

/** A session's host label: 26 lowercase base-32 characters (130 random bits), a valid DNS label. */
function newHostLabel() {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  return [...randomBytes(26)].map((b) => alphabet[b & 31]).join('')
}

/**
 * Opens a proxy session (the portal page, or relay /login with a bearer token): checks the connect
 * permission, gives the session its own origin (host label) and returns a one-time code (the
 * address's authCheck) that the relay exchanges once for a cookie bound to the redeeming browser.
 * `credential` is the portal session or API token the person is signed in with: when it ends
 * (sign-out, revocation), so does the proxy session.
 */
export async function openProxySession(actor: Actor, input: { agentId: string; projectId?: string | null; organizationId?: string }, client: ClientInfo, credential: string) {
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
        organizationId: agent.organizationId,
        authCheckHash: sha256(authCheck),
        hostLabel: newHostLabel(),
        credentialHash: sha256(credential),
        clientIp: client.ip,
        userAgent: client.userAgent.slice(0, 500),
        browserName: browser.name ?? '',
        browserVersion: browser.version ?? '',
        osName: [os.name, os.version].filter(Boolean).join(' '),
        expiresAt: new Date(Date.now() + relaySessionLimits().maxMs),
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
  const origin = relaySessionOrigin(session.hostLabel!)
  const address = proxyAddress(origin, { authCheck, product: agent.product, agentId: agent.id, projectId })
  return { authCheck, sessionId: session.id, origin, address, product: agent.product, agentId: agent.id, projectId, expiresAt: session.expiresAt }
}

/**
 * The relay redeems a session's one-time code: once, within PROXY_CODE_TTL_MS, on the session's own
 * host. Returns the browser key to set as the relay cookie (only its hash is kept), or null.
 */
export async function redeemProxyCode(hostLabel: string, authCheck: string, now = new Date()): Promise<string | null> {
  const browserKey = randomToken(32)
  const { count } = await prisma.proxySession.updateMany({
    where: { hostLabel, authCheckHash: sha256(authCheck), boundAt: null, closedAt: null, createdAt: { gt: new Date(now.getTime() - PROXY_CODE_TTL_MS) } },
    data: { browserKeyHash: sha256(browserKey), boundAt: now, lastSeen: now },
  })
  return count === 1 ? browserKey : null
}

/** Relay /logout (by authCheck) and the portal page leaving (by session id): ends the caller's own session. */
export async function closeProxySession(actor: UserActor, target: { authCheck: string } | { sessionId: string }) {
  const session = await prisma.proxySession.findFirst({
    where: { userId: actor.userId, closedAt: null, ...('authCheck' in target ? { authCheckHash: sha256(target.authCheck) } : { id: target.sessionId }) },
    select: { id: true },
  })
  if (session) await endProxySession(session.id, 'closed')
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
