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

/**
 * Renews this node's heartbeat, or registers it: 'registered' when its row was missing (first
 * start, or another node judged it dead and forgot it: its tunnel rows must then be re-asserted).
 */
export async function heartbeatRelayNode(nodeId: string, internalUrl: string, now = new Date()): Promise<'renewed' | 'registered'> {
  const { count } = await prisma.relayNode.updateMany({ where: { id: nodeId }, data: { internalUrl, heartbeatAt: now } })
  if (count) return 'renewed'
  await prisma.relayNode.upsert({ where: { id: nodeId }, create: { id: nodeId, internalUrl, heartbeatAt: now }, update: { internalUrl, heartbeatAt: now } })
  return 'registered'
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
export async function findTunnelNode(agentId: string, selfId: string, now = Date.now(), expiryMs = NODE_EXPIRY_MS): Promise<RelayPeer | null> {
  const tunnels = await prisma.tunnelConnection.findMany({ where: { agentId, closedAt: null, relayNode: { not: selfId } }, orderBy: { createdAt: 'desc' }, select: { relayNode: true }, take: 5 })
  if (!tunnels.length) return null
  const nodes = await prisma.relayNode.findMany({ where: { id: { in: [...new Set(tunnels.map((t) => t.relayNode))] }, heartbeatAt: { gt: new Date(now - expiryMs) } } })
  for (const tunnel of tunnels) {
    const node = nodes.find((n) => n.id === tunnel.relayNode)
    if (node) return { nodeId: node.id, internalUrl: node.internalUrl }
  }
  return null
}

/**
 * Closes the tunnel rows (and agent tunnel states) of nodes whose heartbeat expired, and forgets
 * those nodes. The caller decides when it may judge (relay/nodes.ts: only after its own heartbeats
 * have been written for longer than the expiry, docs/decisions/031-relay-heartbeat-after-database-blip.md).
 */
export async function closeDeadNodes(now = Date.now(), expiryMs = NODE_EXPIRY_MS) {
  const stale = new Date(now - expiryMs)
  const dead = await prisma.relayNode.findMany({ where: { heartbeatAt: { lte: stale } } })
  const closed: string[] = []
  for (const node of dead) {
    // Forgotten first, and only while still stale: a node that renewed meanwhile keeps its
    // tunnels, and one forgotten learns it at its next heartbeat ('registered') and re-asserts them.
    const { count } = await prisma.relayNode.deleteMany({ where: { id: node.id, heartbeatAt: { lte: stale } } })
    if (!count) continue
    try {
      await closeStaleTunnels(node.id)
    } catch (error) {
      // Registered again as it was, so the next judgement retries the close.
      await prisma.relayNode.create({ data: node }).catch(() => undefined)
      throw error
    }
    closed.push(node.id)
  }
  return closed
}
