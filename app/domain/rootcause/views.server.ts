import { type Actor } from '../actor'
import { accessDenied, notFound } from '../errors'
import { type FleetScope, loadFleetScope } from '../fleet/scope.server'
import { cachedOrgRead } from '../fleet/org-read-cache.server'
import { explainsText, groupByRootCause, type RootCauseResult } from './group'
import { groupSystems, systemsWithRootCauses, type RootCauseIssueRow } from './rootcause.server'
import { prisma } from '~/utils/db.server'

export type RootCauseGroupView = {
  cause: { id: string; severity: number; component: string; message: string; system: string; agent: string; agentId: string }
  explained: { id: string; severity: number; component: string; message: string; count: number }[]
  text: string
  deviceCount: number
  /** the worst severity of the cause and the issues it explains */
  severity: number
}

/** At most this many systems with a failing upstream device are grouped per page view. */
const MAX_SYSTEMS = 200

type SystemLabel = { id: string; name: string; key: string; agent: { id: string; clientName: string } }

export function toGroupViews(result: RootCauseResult<RootCauseIssueRow>, systems: Map<string, SystemLabel>): RootCauseGroupView[] {
  return result.groups.map((g) => {
    const system = systems.get(g.cause.systemId)
    return {
      cause: {
        id: g.cause.id,
        severity: g.cause.severity,
        component: g.cause.component,
        message: g.cause.message || g.cause.key,
        system: system ? system.name || system.key : '',
        agent: system ? system.agent.clientName || system.agent.id : '',
        agentId: system?.agent.id ?? '',
      },
      explained: g.explained.map((i) => ({ id: i.id, severity: i.severity, component: i.component, message: i.message || i.key, count: i.latestCount })),
      text: explainsText(g),
      deviceCount: g.deviceCount,
      severity: g.severity,
    }
  })
}

/**
 * The project Issues tab's root causes (docs/root-cause.md): groups over the systems of the
 * project and its subprojects that have an active upstream failure. Needs project.view.
 */
export async function projectRootCauses(actor: Actor, organizationId: string, projectId: string): Promise<{ groups: RootCauseGroupView[]; explainedIds: string[] }> {
  const scope = await loadFleetScope(actor, organizationId, 'project.view')
  if (!scope.projects.has(projectId)) throw notFound('Project not found')
  if (!scope.access.can('project.view', projectId)) throw accessDenied()
  // the same for every viewer allowed to see the project (its whole subtree), so shared briefly
  return cachedOrgRead(scope.organizationId, `root-causes:${projectId}`, () => rootCausesOfProjects(scope, scope.subtree(projectId)))
}

async function rootCausesOfProjects(scope: FleetScope, projectIds: string[]): Promise<{ groups: RootCauseGroupView[]; explainedIds: string[] }> {
  const systemIds = (await systemsWithRootCauses({ system: scope.systemsInProjects(projectIds) })).slice(0, MAX_SYSTEMS)
  if (!systemIds.length) return { groups: [], explainedIds: [] }
  const [result, systems] = await Promise.all([
    groupSystems(systemIds),
    prisma.system.findMany({ where: { id: { in: systemIds } }, select: { id: true, name: true, key: true, agent: { select: { id: true, clientName: true } } } }),
  ])
  return { groups: toGroupViews(result, new Map(systems.map((s) => [s.id, s]))), explainedIds: [...result.explainedBy.keys()] }
}

/** Agent detail: groups over issues and devices it already loaded (no extra queries). */
export function agentRootCauses(
  issues: { id: string; systemId: string; kind: string; key: string; component: string; message: string; severity: number; latestCount: number }[],
  devices: { systemId: string; key: string; component: string; parentKey: string | null; properties: string }[],
  systems: SystemLabel[],
): RootCauseGroupView[] {
  const rows = issues.map((i) => ({ ...i, deviceKey: (i as { deviceKey?: string | null }).deviceKey ?? null, isActive: true, activation: 0 }))
  return toGroupViews(groupByRootCause(rows, devices), new Map(systems.map((s) => [s.id, s])))
}
