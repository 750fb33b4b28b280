/**
 * Relay nodes of a scaled-out portal (docs/architecture.md, "Relay across nodes"): each node
 * registers its internal address and renews a heartbeat; a session opened on one node reaches an
 * agent whose tunnel another node holds through that node. A node whose heartbeat is older than
 * NODE_EXPIRY_MS gets no traffic, and its open tunnel rows are closed by the surviving nodes.
 */
import { closeStaleTunnels } from './tunnels.server'
import { prisma } from '~/utils/db.server'

/** How often a node renews its heartbeat. */
export const NODE_HEARTBEAT_MS = 5_000
/** A node not heard of for this long is dead: not routed to, its tunnels closed. */
export const NODE_EXPIRY_MS = 20_000

export type RelayPeer = { nodeId: string; internalUrl: string }

/** Registers (or renews) this node with its internal address. */
export async function heartbeatRelayNode(nodeId: string, internalUrl: string, now = new Date()) {
  await prisma.relayNode.upsert({ where: { id: nodeId }, create: { id: nodeId, internalUrl, heartbeatAt: now }, update: { internalUrl, heartbeatAt: now } })
}

/** The node was shut down cleanly: nothing is routed to it any more. */
export async function removeRelayNode(nodeId: string) {
  await prisma.relayNode.deleteMany({ where: { id: nodeId } })
}

/**
 * The live node (other than `selfId`) holding the agent's newest open tunnel, or null. Tunnel rows
 * of nodes without a fresh heartbeat are ignored, so a crashed node stops getting traffic within
 * NODE_EXPIRY_MS.
 */
export async function findTunnelNode(agentId: string, selfId: string, now = Date.now()): Promise<RelayPeer | null> {
  const tunnels = await prisma.tunnelConnection.findMany({ where: { agentId, closedAt: null, relayNode: { not: selfId } }, orderBy: { createdAt: 'desc' }, select: { relayNode: true }, take: 5 })
  if (!tunnels.length) return null
  const nodes = await prisma.relayNode.findMany({ where: { id: { in: [...new Set(tunnels.map((t) => t.relayNode))] }, heartbeatAt: { gt: new Date(now - NODE_EXPIRY_MS) } } })
  for (const tunnel of tunnels) {
    const node = nodes.find((n) => n.id === tunnel.relayNode)
    if (node) return { nodeId: node.id, internalUrl: node.internalUrl }
  }
  return null
}

/** Closes the tunnel rows (and agent tunnel states) of nodes whose heartbeat expired, and forgets those nodes. */
export async function closeDeadNodes(now = Date.now()) {
  const dead = await prisma.relayNode.findMany({ where: { heartbeatAt: { lte: new Date(now - NODE_EXPIRY_MS) } }, select: { id: true } })
  for (const node of dead) {
    await closeStaleTunnels(node.id)
    await prisma.relayNode.deleteMany({ where: { id: node.id, heartbeatAt: { lte: new Date(now - NODE_EXPIRY_MS) } } })
  }
  return dead.map((n) => n.id)
}
