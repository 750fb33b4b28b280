import { ROOT_CAUSE_RULES, groupByRootCause, type RootCauseResult } from './group'
import { prisma } from '~/utils/db.server'

const issueSelect = {
  id: true,
  systemId: true,
  kind: true,
  key: true,
  component: true,
  deviceKey: true,
  message: true,
  severity: true,
  latestCount: true,
  isActive: true,
  activation: true,
} as const

export type RootCauseIssueRow = { id: string; systemId: string; kind: string; key: string; component: string; deviceKey: string | null; message: string; severity: number; latestCount: number; isActive: boolean; activation: number }

/**
 * Loads the active issues and the devices of `systemIds` and groups them (group.ts). Callers
 * check access first: this reads whatever systems it is given.
 */
export async function rootCausesOfSystems(systemIds: string[]): Promise<RootCauseResult<RootCauseIssueRow>> {
  const ids = [...new Set(systemIds)]
  if (!ids.length) return { groups: [], explainedBy: new Map() }
  // Most of the time no upstream device is failing: one small query and no devices loaded.
  const causes = await prisma.issue.findMany({ where: { systemId: { in: ids }, isActive: true, key: { in: Object.keys(ROOT_CAUSE_RULES) } }, select: { systemId: true } })
  const withCause = [...new Set(causes.map((c) => c.systemId))]
  if (!withCause.length) return { groups: [], explainedBy: new Map() }
  const [issues, devices] = await Promise.all([
    prisma.issue.findMany({ where: { systemId: { in: withCause }, isActive: true }, select: issueSelect }),
    prisma.device.findMany({ where: { systemId: { in: withCause } }, select: { systemId: true, key: true, component: true, parentKey: true, properties: true } }),
  ])
  return groupByRootCause(issues, devices)
}
