/**
 * Tunnel connections (spec 01 section 3) and the agent's tunnel state (section 4) as the relay
 * records them: a row per tunnel with address, port, forwards keyed by port, and the relay node
 * holding it (so a scaled-out portal can route a session to that node).
 */
import { type Actor } from '../actor'
import { storeTunnelStatus } from '../agents/derived'
import { accessDenied, notLoggedIn } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseJson, prisma } from '~/utils/db.server'
import { chunked } from '~/utils/id-chunks'

/** Forwards keyed by the agent's local port: how many proxied requests are open through each. */
export type TunnelForwards = Record<string, { connectionsActive: number }>

/** Shown as the agent's tunnel state while no tunnel is open (spec: a string = unavailable with that message). */
export const TUNNEL_CLOSED_MESSAGE = 'Tunnel disconnected from the relay'

async function setTunnelStatus(agentId: string, status: true | string) {
  const agent = await prisma.agent.update({ where: { id: agentId }, data: { tunnelStatus: storeTunnelStatus(status) }, select: { organizationId: true } })
  emitChange({ organizationId: agent.organizationId, kind: 'agent', ids: [agentId] })
}

/** A tunnel was authenticated and opened: its row, and the agent's tunnel state 'true'. */
export async function recordTunnelOpened(agentId: string, tunnel: { address: string; port: number; relayNode: string; forwards: TunnelForwards }) {
  const row = await prisma.tunnelConnection.create({
    data: { agentId, address: tunnel.address, port: tunnel.port, relayNode: tunnel.relayNode, forwards: JSON.stringify(tunnel.forwards) },
  })
  await setTunnelStatus(agentId, true)
  return row.id
}

/** Periodic and per-request bookkeeping of an open tunnel. */
export async function recordTunnelActivity(tunnelId: string, forwards: TunnelForwards) {
  await prisma.tunnelConnection.update({ where: { id: tunnelId }, data: { lastSeen: new Date(), forwards: JSON.stringify(forwards) } })
}

/**
 * The tunnel closed. `replaced` = the agent already opened a newer tunnel, whose state must not
 * be overwritten by this one's end.
 */
export async function recordTunnelClosed(tunnelId: string, agentId: string, options: { replaced: boolean }) {
  await prisma.tunnelConnection.update({ where: { id: tunnelId }, data: { closedAt: new Date(), lastSeen: new Date(), forwards: '{}' } })
  if (!options.replaced) await setTunnelStatus(agentId, TUNNEL_CLOSED_MESSAGE).catch(() => undefined)
}

/**
 * The node holding an open tunnel says so again (after its heartbeats could not be written, another
 * node may have judged it dead and closed the row): the row open, the agent's tunnel state 'true'.
 */
export async function reassertTunnel(tunnelId: string, agentId: string) {
  const reopened = await prisma.tunnelConnection.updateMany({ where: { id: tunnelId, closedAt: { not: null } }, data: { closedAt: null, lastSeen: new Date() } })
  const open = storeTunnelStatus(true)
  const restated = await prisma.agent.updateMany({ where: { id: agentId, OR: [{ tunnelStatus: null }, { tunnelStatus: { not: open } }] }, data: { tunnelStatus: open } })
  if (restated.count) emitChange({ organizationId: null, kind: 'agent', ids: [agentId] })
  return reopened.count + restated.count > 0
}

/** On relay start: tunnels a previous run of this node left open are over (their agents reconnect). */
export async function closeStaleTunnels(relayNode: string) {
  const stale = await prisma.tunnelConnection.findMany({ where: { relayNode, closedAt: null }, select: { id: true, agentId: true } })
  if (!stale.length) return
  // a node may have carried thousands of tunnels: ids bound by chunks (a statement binds a bounded number)
  const closedAt = new Date()
  for (const ids of chunked(stale.map((t) => t.id))) await prisma.tunnelConnection.updateMany({ where: { id: { in: ids } }, data: { closedAt, forwards: '{}' } })
  for (const ids of chunked([...new Set(stale.map((t) => t.agentId))])) {
    await prisma.agent.updateMany({ where: { id: { in: ids }, tunnelStatus: 'true' }, data: { tunnelStatus: TUNNEL_CLOSED_MESSAGE } })
  }
  emitChange({ organizationId: null, kind: 'agent' })
}

/** Admin > Agents, expanded row: the agent's open tunnel connections. Site admins only. */
export async function listTunnelConnections(actor: Actor, agentId: string) {
  if (actor.kind !== 'user') throw notLoggedIn()
  if (!actor.isSiteAdmin) throw accessDenied()
  const rows = await prisma.tunnelConnection.findMany({ where: { agentId, closedAt: null }, orderBy: { createdAt: 'desc' } })
  return rows.map((t) => ({
    id: t.id,
    address: t.address,
    port: t.port,
    relayNode: t.relayNode,
    createdAt: t.createdAt.toISOString(),
    lastSeen: t.lastSeen.toISOString(),
    forwards: parseJson<TunnelForwards>(t.forwards, {}),
  }))
}
