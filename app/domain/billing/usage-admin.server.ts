/**
 * Admin usage overview (spec 01 sections 2 and 9). Figures count AgentEvent rows: ingest writes one
 * per call, stamped with the agent's organization and its systems' projects at that moment: one
 * source for the organization and the project figures. (The hourly UsageCounter has a row per
 * organization since decision 018, but no projects.)
 * Results are cached per period in UsageAggregate; the raw events stay the source of truth.
 */
import { z } from 'zod'
import { AGENT_CALLS, PROVISION_CALL } from '../../../protocol'
import { type Actor } from '../actor'
import { audit } from '../audit/audit.server'
import { invalid, notFound } from '../errors'
import { parseInput } from '../parse-input'
import { requireOrganizationId, requireStaff } from '../admin/orgs-admin.server'
import { parseJson, prisma } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'
import { USAGE_PERIODS, periodStart, recentPeriods, shiftPeriod, type UsagePeriod } from './usage-periods'

/** Every call name a counter can hold (the agent calls and the provisioning register). */
export const COUNTED_CALLS = [...AGENT_CALLS, PROVISION_CALL] as const

export const aggregatedInput = z.object({
  organizationId: z.string().nullish(),
  period: z.enum(['monthly', 'daily', 'hourly'], { errorMap: () => ({ message: 'Period is monthly, daily or hourly' }) }).default('monthly'),
  sourceDate: z.union([z.string(), z.number()]).nullish(),
  groupBy: z.enum(['organization', 'project'], { errorMap: () => ({ message: 'Group by organization or project' }) }).default('organization'),
  projectId: z.string().nullish(),
  /** recompute even when a cached figure exists (the row's Refresh) */
  refresh: z.boolean().optional(),
})

export type UsageFigures = {
  organizationId: string
  groupBy: 'organization' | 'project'
  projectId: string | null
  period: UsagePeriod
  periodStart: Date
  periodEnd: Date
  activeClients: number
  apiCalls: number
  calls: Record<string, number>
  computedAt: Date
  cached: boolean
}

const emptyCalls = () => Object.fromEntries(COUNTED_CALLS.map((c) => [c, 0])) as Record<string, number>

async function countOrganization(organizationId: string, from: Date, to: Date) {
  const where = { organizationId, createdAt: { gte: from, lt: to }, type: { in: [...COUNTED_CALLS] } }
  const [rows, agents] = await Promise.all([
    prisma.agentEvent.groupBy({ by: ['type'], where, _count: { _all: true } }),
    prisma.agentEvent.findMany({ where, select: { agentId: true }, distinct: ['agentId'] }),
  ])
  const calls = emptyCalls()
  for (const r of rows) calls[r.type] = (calls[r.type] ?? 0) + r._count._all
  return { calls, activeClients: agents.length }
}

/** A project's usage: its own and its sub-projects' systems. */
async function countProject(organizationId: string, projectId: string, from: Date, to: Date) {
  const projects = await prisma.project.findMany({ where: { organizationId }, select: { id: true, parentId: true } })
  if (!projects.some((p) => p.id === projectId)) throw notFound('Project not found')
  const ids = new Set([projectId])
  for (let grew = true; grew; ) {
    grew = false
    for (const p of projects) {
      if (!p.parentId || !ids.has(p.parentId) || ids.has(p.id)) continue
      ids.add(p.id)
      grew = true
    }
  }
  // one text match per project: by chunks for a project with hundreds of sub-projects (a statement binds
  // a bounded number of parameters); an event of projects in two chunks comes twice and is counted once
  const events = await inChunks([...ids], (chunk) =>
    prisma.agentEvent.findMany({
      where: { organizationId, createdAt: { gte: from, lt: to }, type: { in: [...COUNTED_CALLS] }, OR: chunk.map((id) => ({ projectIds: { contains: `"${id}"` } })) },
      select: { id: true, agentId: true, type: true, projectIds: true },
    }),
  )
  const calls = emptyCalls()
  const agents = new Set<string>()
  const counted = new Set<string>()
  for (const e of events) {
    if (counted.has(e.id)) continue
    counted.add(e.id)
    // `contains` is a text match: confirm on the parsed list.
    if (!parseJson<string[]>(e.projectIds, []).some((id) => ids.has(id))) continue
    calls[e.type] = (calls[e.type] ?? 0) + 1
    agents.add(e.agentId)
  }
  return { calls, activeClients: agents.size }
}

async function compute(organizationId: string, groupBy: 'organization' | 'project', projectId: string, period: UsagePeriod, start: Date): Promise<UsageFigures> {
  const end = shiftPeriod(period, start, 1)
  const { calls, activeClients } = groupBy === 'project' ? await countProject(organizationId, projectId, start, end) : await countOrganization(organizationId, start, end)
  const apiCalls = Object.values(calls).reduce((a, b) => a + b, 0)
  const computedAt = new Date()
  const key = { organizationId, projectId: groupBy === 'project' ? projectId : '', period, periodStart: start }
  const data = { activeClients, apiCalls, calls: JSON.stringify(calls), computedAt }
  await prisma.usageAggregate.upsert({ where: { organizationId_projectId_period_periodStart: key }, create: { ...key, ...data }, update: data })
  return { organizationId, groupBy, projectId: groupBy === 'project' ? projectId : null, period, periodStart: start, periodEnd: end, activeClients, apiCalls, calls, computedAt, cached: false }
}

/**
 * admin/usageAggregated: the figures of the period (UTC) holding `sourceDate`. A cached figure is
 * returned as is (with its computedAt) unless `refresh`; otherwise it is computed and cached.
 */
export async function usageAggregated(actor: Actor | null, raw: unknown): Promise<UsageFigures> {
  requireStaff(actor)
  const input = parseInput(aggregatedInput, raw ?? {})
  const organizationId = requireOrganizationId(input.organizationId)
  if (!(await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } }))) throw notFound('Organization not found')
  if (input.groupBy === 'project' && !input.projectId) throw invalid('Project is required', [{ path: 'projectId', message: 'Project is required' }])
  const source = input.sourceDate == null || input.sourceDate === '' ? new Date() : new Date(input.sourceDate)
  if (Number.isNaN(source.getTime())) throw invalid('Invalid source date', [{ path: 'sourceDate', message: 'Invalid source date' }])
  const start = periodStart(input.period, source)
  const projectId = input.groupBy === 'project' ? input.projectId! : ''
  if (!input.refresh) {
    const cached = await prisma.usageAggregate.findUnique({
      where: { organizationId_projectId_period_periodStart: { organizationId, projectId, period: input.period, periodStart: start } },
    })
    if (cached) {
      return {
        organizationId,
        groupBy: input.groupBy,
        projectId: projectId || null,
        period: input.period,
        periodStart: start,
        periodEnd: shiftPeriod(input.period, start, 1),
        activeClients: cached.activeClients,
        apiCalls: cached.apiCalls,
        calls: { ...emptyCalls(), ...parseJson<Record<string, number>>(cached.calls, {}) },
        computedAt: cached.computedAt,
        cached: true,
      }
    }
  }
  return compute(organizationId, input.groupBy, projectId, input.period, start)
}

export const aggregationInput = z.object({
  organizationId: z.string().nullish(),
  type: z.literal('usage', { errorMap: () => ({ message: "Only the 'usage' aggregation exists" }) }),
})

/**
 * admin/runEventAggregation: rebuilds the organization's cached usage from the raw counters and
 * events: every period already cached, plus the default windows of the organization view
 * (3 months, 7 days, 12 hours). Audited.
 */
export async function runEventAggregation(actor: Actor | null, raw: unknown) {
  const staff = requireStaff(actor)
  const input = parseInput(aggregationInput, raw ?? {})
  const organizationId = requireOrganizationId(input.organizationId)
  if (!(await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } }))) throw notFound('Organization not found')
  const existing = await prisma.usageAggregate.findMany({ where: { organizationId }, select: { projectId: true, period: true, periodStart: true } })
  const jobs = new Map<string, { projectId: string; period: UsagePeriod; start: Date }>()
  const add = (projectId: string, period: UsagePeriod, start: Date) => jobs.set(`${projectId}|${period}|${start.toISOString()}`, { projectId, period, start })
  for (const e of existing) add(e.projectId, e.period as UsagePeriod, e.periodStart)
  const now = new Date()
  for (const period of Object.keys(USAGE_PERIODS) as UsagePeriod[]) for (const start of recentPeriods(period, USAGE_PERIODS[period].defaultCount, now)) add('', period, start)
  const projectIds = new Set((await prisma.project.findMany({ where: { organizationId }, select: { id: true } })).map((p) => p.id))
  let rebuilt = 0
  for (const job of jobs.values()) {
    // A cached figure of a project deleted since is dropped rather than rebuilt.
    if (job.projectId && !projectIds.has(job.projectId)) {
      await prisma.usageAggregate.deleteMany({ where: { organizationId, projectId: job.projectId } })
      continue
    }
    await compute(organizationId, job.projectId ? 'project' : 'organization', job.projectId, job.period, job.start)
    rebuilt++
  }
  await prisma.$transaction((tx) => audit(tx, staff, { organizationId, action: 'usage.aggregate', message: `Usage aggregation rebuilt (${rebuilt} period(s))` }))
  return { organizationId, type: 'usage', rebuilt }
}

/** admin/clearEventAggregation: drops the organization's cached usage (raw counters stay). Audited. */
export async function clearEventAggregation(actor: Actor | null, raw: unknown) {
  const staff = requireStaff(actor)
  const input = parseInput(aggregationInput, raw ?? {})
  const organizationId = requireOrganizationId(input.organizationId)
  if (!(await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } }))) throw notFound('Organization not found')
  const cleared = await prisma.$transaction(async (tx) => {
    const { count } = await tx.usageAggregate.deleteMany({ where: { organizationId } })
    await audit(tx, staff, { organizationId, action: 'usage.clear', message: `Cached usage aggregation cleared (${count} period(s))` })
    return count
  })
  return { organizationId, type: 'usage', cleared }
}
