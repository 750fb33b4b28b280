import { listAgentIssues } from '~/domain/alarms/lifecycle.server'
import { parseIssueState } from '~/domain/alarms/state'
import { agentDetail } from '~/domain/fleet/agent-detail.server'
import { requireUser } from '~/utils/auth.server'
import { getConfig } from '~/utils/env.server'
import { domainCall } from '~/utils/errors.server'

/** The agent detail page's data: the agent and its systems, its issues in the chosen state (?issues=), the map tiles. */
export async function agentDetailPageData(request: Request, organizationId: string, agentId: string) {
  const { actor } = await requireUser(request)
  const detail = await domainCall(() => agentDetail(actor, organizationId, agentId))
  const issueState = parseIssueState(new URL(request.url).searchParams.get('issues'))
  const { issues } = await domainCall(() => listAgentIssues(actor, organizationId, agentId, issueState))
  return { ...detail, issueState, issueList: issues, mapTileUrl: getConfig().MAP_TILE_URL ?? null }
}

export type AgentDetailPageData = Awaited<ReturnType<typeof agentDetailPageData>>
