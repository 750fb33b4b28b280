import { type Actor } from '../actor'
import { notFound } from '../errors'
import { prisma } from '~/utils/db.server'
import { type Prisma } from '@prisma/client'
import { agentCore, agentSelect, canConnect, summarizeDevices } from './agent-summary.server'
import { deviceTree } from './project.server'
import { loadFleetScope } from './scope.server'
import { agentRootCauses } from '../rootcause/views.server'
import { offlineMinutesOf } from '../agents/presence.server'
import { byName } from '~/utils/name-order'

/**
 * Agent detail (spec 02 section 2): header, Status, Info and Location cards, one tab per visible
 * system with its project, health and devices. Needs agent.list on the organization or on a
 * project one of the agent's systems reports to.
 */
export async function agentDetail(actor: Actor, organizationId: string, agentId: string) {
  const scope = await loadFleetScope(actor, organizationId, 'agent.list')
  const agent = await prisma.agent.findFirst({
    where: { id: agentId, organizationId },
    select: {
      ...agentSelect,
      enrolledAt: true,
      stateUpdatedAt: true,
      locationLat: true,
      locationLong: true,
      locationLookupIp: true,
      locationManualLat: true,
      locationManualLong: true,
      useLocationMode: true,
      systems: { select: { id: true, key: true, name: true, projectId: true }, orderBy: { key: 'asc' } },
    },
  })
  const listable = agent && (scope.orgWide || agent.systems.some((s) => s.projectId && scope.agentListProjectIds.includes(s.projectId)))
  if (!agent || !listable) throw notFound('Agent not found')

  const visible = agent.systems.filter((s) => scope.canSeeSystem(s.projectId))
  // the visible systems as a relation filter, not their ids: an agent may hold over a thousand systems (SQLite binds 999)
  const visibleSystems: Prisma.SystemWhereInput = { agentId, ...scope.visibleSystemWhere() }
  const [devices, issues, offlineMinutes] = await Promise.all([
    prisma.device.findMany({
      where: { system: visibleSystems },
      select: { id: true, systemId: true, key: true, name: true, component: true, product: true, serial: true, parentKey: true, versionSoftware: true, versionFirmware: true, properties: true, count: true },
      orderBy: { key: 'asc' },
    }),
    prisma.issue.findMany({
      where: { system: visibleSystems, isActive: true },
      select: { id: true, systemId: true, kind: true, key: true, severity: true, component: true, message: true, latestCount: true, latestAt: true, deviceKey: true },
      orderBy: [{ severity: 'asc' }, { latestCount: 'desc' }],
    }),
    offlineMinutesOf([agentId]),
  ])
  const access = scope.access
  const assignableProjects = scope.viewableProjectIds
    .filter((id) => access.can('agent.assignToProject', id))
    .map((id) => ({ id, name: scope.projectPath(id).map((p) => p.name).join(' / ') }))
    .sort(byName)
  const summary = summarizeDevices(devices)
  const unassigned = agent.systems.filter((s) => s.projectId === null)
  return {
    agent: {
      ...agentCore(agent, Date.now(), offlineMinutes.get(agent.id)!),
      enrolledAt: agent.enrolledAt?.toISOString() ?? null,
      lastReported: (agent.stateUpdatedAt ?? agent.lastSeen)?.toISOString() ?? null,
      ...summary,
      issuesCount: issues.length,
      location: {
        geoip: agent.locationLat !== null && agent.locationLong !== null ? { lati: agent.locationLat, long: agent.locationLong, lookupIP: agent.locationLookupIp } : null,
        manual: agent.locationManualLat !== null && agent.locationManualLong !== null ? { lati: agent.locationManualLat, long: agent.locationManualLong } : null,
        mode: agent.useLocationMode === 'manual' ? ('manual' as const) : ('geoip' as const),
      },
    },
    /** systems reporting (visible ones); unassigned ones only with organization-level rights */
    systems: visible.map((s) => {
      const own = devices.filter((d) => d.systemId === s.id)
      const systemIssues = issues.filter((i) => i.systemId === s.id)
      return {
        id: s.id,
        key: s.key,
        name: s.name || s.key,
        projectId: s.projectId,
        projectPath: s.projectId ? scope.projectPath(s.projectId).map((p) => ({ id: p.id, name: p.name })) : [],
        issues: systemIssues.map((i) => ({ ...i, latestAt: i.latestAt.toISOString() })),
        rootCauses: agentRootCauses(systemIssues, own, [{ ...s, agent: { id: agent.id, clientName: agent.clientName } }]),
        devices: deviceTree(own),
        deviceCount: own.reduce((n, d) => n + d.count, 0),
      }
    }),
    /** the warning bar: systems reporting data but not assigned (organization-level viewers only) */
    unassignedCount: scope.orgWide ? unassigned.length : 0,
    assignableProjects,
    capabilities: {
      canDelete: access.can('agent.delete'),
      canUnassign: access.can('agent.assignToProject'),
      canAssign: access.canAnywhere('agent.assignToProject'),
      canLocate: access.can('agent.assignToProject') || agent.systems.some((s) => s.projectId && access.can('agent.assignToProject', s.projectId)),
      canConnect: canConnect(scope, agent.systems),
    },
  }
}
