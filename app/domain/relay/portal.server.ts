import { type Actor } from '../actor'
import { DomainError } from '../errors'
import { prisma } from '~/utils/db.server'
import { connectGrant, loadConnectableAgent } from './sessions.server'
import { byName } from '~/utils/name-order'

/**
 * The remote portal screen (spec 01 section 2): the agent shown, after the same connect check the
 * relay's /login makes, and, with a project, the project's tunnel-connected agents the viewer may
 * also connect to (the header's selector).
 */
export async function portalView(actor: Actor, input: { organizationId: string; agentId: string; projectId?: string }) {
  const { agent, access } = await loadConnectableAgent(actor, input.agentId, input.organizationId)
  connectGrant(access, agent, input.projectId)
  let agents = [{ id: agent.id, name: agent.clientName || agent.id }]
  if (input.projectId) {
    const projectId = input.projectId
    const candidates = await prisma.agent.findMany({
      where: {
        organizationId: input.organizationId,
        enabled: true,
        tunnelStatus: 'true',
        OR: [{ defaultProjectId: projectId }, { systems: { some: { projectId } } }],
      },
      select: { id: true, clientName: true, organizationId: true, defaultProjectId: true, systems: { select: { projectId: true } } },
      orderBy: { clientName: 'asc' },
      take: 200,
    })
    const connectable = candidates.filter((c) => c.id !== agent.id && mayConnect(() => connectGrant(access, c, projectId)))
    agents = [...agents, ...connectable.map((c) => ({ id: c.id, name: c.clientName || c.id }))].sort(byName)
  }
  return {
    organization: { id: access.organization.id, name: access.organization.name },
    agent: { id: agent.id, name: agent.clientName || agent.id, product: agent.product, tunnelConnected: agent.tunnelStatus === 'true' },
    projectId: input.projectId ?? null,
    agents,
  }
}

function mayConnect(check: () => unknown) {
  try {
    check()
    return true
  } catch (error) {
    if (error instanceof DomainError) return false
    throw error
  }
}
