import { type Prisma } from '@prisma/client'
import { ROOT_CAUSE_RULES, ROOT_CAUSE_SYMPTOMS, groupByRootCause, systemsWithPossibleGroups, type RootCauseResult } from './group'
import { prisma } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'

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
  return groupSystems(await inChunks(ids, (chunk) => systemsWithRootCauses({ systemId: { in: chunk } })))
}

/** Groups the systems systemsWithRootCauses found (loads their active issues and devices). */
export async function groupSystems(withCause: string[]): Promise<RootCauseResult<RootCauseIssueRow>> {
  if (!withCause.length) return { groups: [], explainedBy: new Map() }
  const [issues, devices] = await Promise.all([
    inChunks(withCause, (chunk) => prisma.issue.findMany({ where: { systemId: { in: chunk }, isActive: true }, select: issueSelect })),
    inChunks(withCause, (chunk) => prisma.device.findMany({ where: { systemId: { in: chunk } }, select: { systemId: true, key: true, component: true, parentKey: true, properties: true } })),
  ])
  return groupByRootCause(issues, devices)
}

/**
 * Systems (of the issues matching `scope`) where an active upstream failure may explain another
 * active issue: one small query over the cause and symptom issues, no devices. Most of the time no
 * upstream device fails, or it fails alone, and nothing more is loaded.
 */
export async function systemsWithRootCauses(scope: Prisma.IssueWhereInput): Promise<string[]> {
  const rows = await prisma.issue.findMany({
    where: { ...scope, isActive: true, OR: [{ key: { in: Object.keys(ROOT_CAUSE_RULES) } }, ...ROOT_CAUSE_SYMPTOMS.map((s) => ({ key: { endsWith: `.${s}` } }))] },
    select: { id: true, systemId: true, key: true },
  })
  return systemsWithPossibleGroups(rows)
}
