/**
 * admin/fetchOrgMetricsAggregated: the organization's fleet metrics as staff see them: per project,
 * per system, the active issues, devices by kind and the device issues records of spec 01 section 3.
 */
import { type Actor } from '../actor'
import { notFound } from '../errors'
import { prisma } from '~/utils/db.server'
import { requireOrganizationId, requireStaff } from './orgs-admin.server'
import { byName } from '~/utils/name-order'

/** Severity at or below (more severe than) this counts as a priority issue: critical and error. */
const PRIORITY_SEVERITY = 3

export async function fetchOrgMetricsAggregated(actor: Actor | null, raw: { organizationId?: unknown } | null) {
  requireStaff(actor)
  const organizationId = requireOrganizationId(raw?.organizationId)
  const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } })
  if (!org) throw notFound('Organization not found')
  const [projects, systems] = await Promise.all([
    prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true } }).then((rows) => rows.sort(byName)),
    prisma.system.findMany({
      where: { agent: { organizationId } },
      select: {
        id: true,
        key: true,
        name: true,
        projectId: true,
        agentId: true,
        alertsCount: true,
        deviationsCount: true,
        agent: { select: { clientName: true } },
        issues: { where: { isActive: true }, select: { id: true, kind: true, key: true, component: true, severity: true, message: true, latestCount: true, latestAt: true } },
        deviceVersionCounts: { select: { component: true, count: true } },
      },
    }),
  ])
  const projectName = new Map(projects.map((p) => [p.id, p.name]))

  const projectRows = projects.map((p) => {
    const own = systems.filter((s) => s.projectId === p.id)
    return {
      projectId: p.id,
      name: p.name,
      agents: new Set(own.map((s) => s.agentId)).size,
      systems: own.length,
      alerts: own.reduce((n, s) => n + s.alertsCount, 0),
      deviations: own.reduce((n, s) => n + s.deviationsCount, 0),
    }
  })
  const systemRows = systems.map((s) => ({
    systemId: s.key,
    name: s.name || s.key,
    agentId: s.agentId,
    agentName: s.agent.clientName || s.agentId,
    projectId: s.projectId,
    projectName: s.projectId ? (projectName.get(s.projectId) ?? s.projectId) : null,
    devices: s.deviceVersionCounts.reduce((n, d) => n + d.count, 0),
    alerts: s.alertsCount,
    deviations: s.deviationsCount,
  }))
  const issueRows = systems
    .flatMap((s) => s.issues.map((i) => ({ ...i, systemId: s.key, agentId: s.agentId, projectId: s.projectId })))
    .sort((a, b) => a.severity - b.severity || b.latestAt.getTime() - a.latestAt.getTime())
  const deviceKinds = new Map<string, number>()
  for (const s of systems) for (const d of s.deviceVersionCounts) deviceKinds.set(d.component, (deviceKinds.get(d.component) ?? 0) + d.count)
  const deviceRows = [...deviceKinds].map(([component, count]) => ({ component, count })).sort((a, b) => b.count - a.count)

  // deviceIssues: per system and component, devices and their active issues (spec 01 section 3).
  const deviceIssues = systems.flatMap((s) => {
    const components = new Set([...s.deviceVersionCounts.map((d) => d.component), ...s.issues.map((i) => i.component)])
    return [...components].map((component) => {
      const issues = s.issues.filter((i) => i.component === component)
      const breakdown: Record<string, number> = {}
      for (const i of issues) breakdown[i.kind] = (breakdown[i.kind] ?? 0) + 1
      return {
        agentId: s.agentId,
        systemId: s.key,
        projectId: s.projectId,
        orgId: organizationId,
        componentLabel: component,
        count: s.deviceVersionCounts.filter((d) => d.component === component).reduce((n, d) => n + d.count, 0),
        issueCount: issues.length,
        priorityIssueCount: issues.filter((i) => i.severity >= 0 && i.severity <= PRIORITY_SEVERITY).length,
        issueBreakdown: breakdown,
      }
    })
  })
  return {
    organizationId,
    computedAt: new Date(),
    projects: projectRows,
    systems: systemRows,
    issues: issueRows,
    devices: deviceRows,
    deviceIssues: deviceIssues.filter((d) => d.count > 0 || d.issueCount > 0),
  }
}
