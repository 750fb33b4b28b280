import { type Actor } from '../actor'
import { isConnected } from '../agents/derived'
import { prisma } from '~/utils/db.server'
import { loadFleetScope } from './scope.server'

export type SystemTag = {
  id: string
  name: string
  agentId: string
  agentName: string
  /** unknown: the agent never reported */
  state: 'connected' | 'disconnected' | 'unknown'
  lastSeen: string | null
}

/**
 * The projects list's System(s) column (spec 02 section 2): per project the systems it holds, each
 * with its agent's name, connection state and last seen; only projects the viewer may view.
 */
export async function projectSystemTags(actor: Actor, organizationId: string): Promise<Record<string, SystemTag[]>> {
  const scope = await loadFleetScope(actor, organizationId, 'project.view')
  const systems = await prisma.system.findMany({
    where: { projectId: { in: scope.viewableProjectIds } },
    select: { id: true, key: true, name: true, projectId: true, agent: { select: { id: true, clientName: true, enabled: true, lastSeen: true } } },
    orderBy: [{ name: 'asc' }, { key: 'asc' }],
  })
  const now = Date.now()
  const tags: Record<string, SystemTag[]> = {}
  for (const s of systems) {
    const a = s.agent
    ;(tags[s.projectId!] ??= []).push({
      id: s.id,
      name: s.name || s.key,
      agentId: a.id,
      agentName: a.clientName || a.id,
      state: a.lastSeen === null ? 'unknown' : isConnected(a.enabled, a.lastSeen, now) ? 'connected' : 'disconnected',
      lastSeen: a.lastSeen?.toISOString() ?? null,
    })
  }
  return tags
}
