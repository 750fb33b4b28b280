import { Prisma } from '@prisma/client'
import { z } from 'zod'
import { type Actor } from '../actor'
import { audit } from '../audit/audit.server'
import { accessDenied, fromZodIssues, notFound } from '../errors'
import { emitChange } from '../events/bus.server'
import { prisma } from '~/utils/db.server'
import { chunked } from '~/utils/id-chunks'
import { type AgentFilters } from './agents-table-state'
import { queryAgentIds } from './agents-table.server'
import { type FleetScope, loadFleetScope } from './scope.server'

/** Agents per transaction: each chunk's id list is one bounded parameter list, whatever the selection's size. */
export const BULK_CHUNK_SIZE = 200
/** An explicit id list is what a person ticks on pages; a whole fleet goes by 'filtered'. */
export const MAX_SELECTED_IDS = 5_000
/** Agents one operation may touch (a 10,000-agent fleet fits). */
export const MAX_BULK_AGENTS = 50_000

const text = z.string().max(200)
const filtersSchema = z
  .object({
    name: text.default(''),
    product: z.array(text).max(200).default([]),
    version: z.array(text).max(200).default([]),
    connected: z.array(text).max(2).default([]),
    input: z.array(text).max(200).default([]),
  })
  .strict()

/** Which agents: ticked ids, or every agent matching the table's filters (resolved on the server). */
export const bulkSelectionSchema = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('ids'), ids: z.array(z.string().min(1).max(64)).min(1, 'Select at least one agent').max(MAX_SELECTED_IDS) }),
  z.object({ mode: z.literal('filtered'), filters: filtersSchema.default({}) }),
])
export type BulkSelection = z.input<typeof bulkSelectionSchema>

export const bulkAgentsInput = z.object({
  organizationId: z.string().min(1),
  operation: z.enum(['assign', 'remove']),
  /** assign: the target project; null = '(None)' (unassign, organization-level right) */
  projectId: z.string().nullish(),
  selection: bulkSelectionSchema,
})
export type BulkAgentsInput = z.input<typeof bulkAgentsInput>

export type BulkProgress = { processed: number; total: number }
export type BulkSummary = {
  operation: 'assign' | 'remove'
  total: number
  /** agents changed */
  done: number
  /** agents already as asked (assign: every system already in the project) */
  unchanged: number
  skipped: { reason: string; count: number; agentIds: string[] }[]
  message: string
}

/** The agents of a selection this viewer may list, in table order for 'filtered'. */
async function resolveSelection(scope: FleetScope, selection: z.output<typeof bulkSelectionSchema>): Promise<string[]> {
  if (selection.mode === 'filtered') {
    const filters: AgentFilters = { ...selection.filters, name: selection.filters.name.trim() }
    return (await queryAgentIds(scope, { filters, sorting: [], limit: MAX_BULK_AGENTS }, 0)).ids
  }
  // ids the viewer cannot list are skipped per chunk by the processing itself (reason 'not found')
  return [...new Set(selection.ids)]
}

type Chunk = { ids: string[] }
type Outcome = { done: string[]; unchanged: string[]; skipped: Map<string, string[]> }

/**
 * Validates and authorizes a bulk operation on the agents list, then returns its runner. Errors
 * that stop the whole operation (bad input, no right on the target project) are thrown here, before
 * anything changes; each agent is then checked on its own and skipped with a reason when not allowed.
 */
export async function prepareBulkAgents(actor: Actor, raw: unknown, chunkSize = BULK_CHUNK_SIZE) {
  const parsed = bulkAgentsInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const { organizationId, operation, selection } = parsed.data
  const targetId = parsed.data.projectId || null
  const scope = await loadFleetScope(actor, organizationId, 'agent.list')
  const { access } = scope
  if (operation === 'assign') {
    if (targetId && !access.hasProject(targetId)) throw notFound('Project not found')
    // the target itself: without the right there, no agent could be assigned
    if (!access.can('agent.assignToProject', targetId)) throw accessDenied()
  } else if (!access.can('agent.delete')) throw accessDenied()
  const ids = await resolveSelection(scope, selection)
  const projectName = (id: string | null) => (id ? (scope.projects.get(id)?.name ?? id) : '(None)')

  /** Per chunk: agents of the organization the viewer may list (an id list of one chunk's size). */
  async function loadChunk(tx: Prisma.TransactionClient, chunk: Chunk) {
    const visible = await tx.$queryRaw<{ id: string }[]>(
      Prisma.sql`SELECT a."id" FROM "Agent" a WHERE a."id" IN (${Prisma.join(chunk.ids)}) AND ${scope.visibleAgentSql('a')}`,
    )
    const agents = await tx.agent.findMany({ where: { id: { in: visible.map((v) => v.id) } }, select: { id: true, clientName: true, systems: { select: { id: true, projectId: true } } } })
    // in the selection's order, so summaries list agents as the table does
    const byId = new Map(agents.map((a) => [a.id, a]))
    return chunk.ids.flatMap((id) => byId.get(id) ?? [])
  }

  async function assignChunk(tx: Prisma.TransactionClient, chunk: Chunk, out: Outcome) {
    const agents = await loadChunk(tx, chunk)
    const found = new Set(agents.map((a) => a.id))
    for (const id of chunk.ids) if (!found.has(id)) skip(out, 'not found', id)
    const moving: string[] = []
    for (const agent of agents) {
      if (!agent.systems.length) {
        skip(out, 'no systems reported', agent.id)
        continue
      }
      const toMove = agent.systems.filter((s) => s.projectId !== targetId)
      // the same rule as assigning one system: the right on the project it leaves, organization-wide for unassigned → (None)
      const blocked = toMove.find((s) => (s.projectId ? !access.can('agent.assignToProject', s.projectId) : !targetId && !access.can('agent.assignToProject')))
      if (blocked) skip(out, `no permission on project ${projectName(blocked.projectId)}`, agent.id)
      else if (!toMove.length) out.unchanged.push(agent.id)
      else {
        moving.push(...toMove.map((s) => s.id))
        out.done.push(agent.id)
      }
    }
    // a chunk's agents may hold more systems than SQLite binds in one statement
    for (const ids of chunked(moving)) await tx.system.updateMany({ where: { id: { in: ids } }, data: { projectId: targetId } })
  }

  async function removeChunk(tx: Prisma.TransactionClient, chunk: Chunk, out: Outcome) {
    const agents = await loadChunk(tx, chunk)
    const found = new Set(agents.map((a) => a.id))
    for (const id of chunk.ids) if (!found.has(id)) skip(out, 'not found', id)
    // the same rule as removing one agent (agent/remove): organization-level agent.delete, checked per agent
    const allowed = agents.filter(() => access.can('agent.delete')).map((a) => a.id)
    if (!allowed.length) return
    await tx.system.updateMany({ where: { agentId: { in: allowed } }, data: { projectId: null } })
    await tx.agent.updateMany({ where: { id: { in: allowed }, organizationId }, data: { organizationId: null, enrolledAt: null, defaultProjectId: null } })
    out.done.push(...allowed)
  }

  /** Runs chunk by chunk, one transaction each, then writes one audit record for the whole operation. */
  async function run(onProgress?: (p: BulkProgress) => void): Promise<BulkSummary> {
    const out: Outcome = { done: [], unchanged: [], skipped: new Map() }
    onProgress?.({ processed: 0, total: ids.length })
    for (let i = 0; i < ids.length; i += chunkSize) {
      const chunk = { ids: ids.slice(i, i + chunkSize) }
      const before = out.done.length
      await prisma.$transaction((tx) => (operation === 'assign' ? assignChunk(tx, chunk, out) : removeChunk(tx, chunk, out)))
      if (out.done.length > before) {
        // live updates per chunk: open tables refresh while a long operation runs
        emitChange({ organizationId, kind: 'agent', ids: out.done.slice(before) })
        emitChange({ organizationId, kind: 'system' })
      }
      onProgress?.({ processed: Math.min(ids.length, i + chunkSize), total: ids.length })
    }
    const summary = summarize(operation, ids.length, out)
    if (out.done.length) {
      await prisma.$transaction((tx) =>
        audit(tx, actor, {
          organizationId,
          projectId: operation === 'assign' ? targetId : null,
          action: operation === 'assign' ? 'agent.bulkAssign' : 'agent.bulkRemove',
          message:
            (operation === 'assign'
              ? `Assigned the systems of ${out.done.length} agent(s) to project ${projectName(targetId)}`
              : `Removed ${out.done.length} agent(s) from the organization`) +
            ` (bulk: ${summary.message}). Agents: ${out.done.join(', ')}`,
        }),
      )
    }
    return summary
  }

  return { total: ids.length, operation, run }
}

function skip(out: Outcome, reason: string, id: string) {
  const list = out.skipped.get(reason) ?? []
  list.push(id)
  out.skipped.set(reason, list)
}

function summarize(operation: 'assign' | 'remove', total: number, out: Outcome): BulkSummary {
  const skipped = [...out.skipped.entries()].map(([reason, ids]) => ({ reason, count: ids.length, agentIds: ids.slice(0, 50) })).sort((a, b) => b.count - a.count)
  const parts = [`${out.done.length} ${operation === 'assign' ? 'assigned' : 'removed'}`]
  if (out.unchanged.length) parts.push(`${out.unchanged.length} already in the project`)
  const skippedCount = skipped.reduce((n, s) => n + s.count, 0)
  if (skippedCount) parts.push(`${skippedCount} skipped: ${skipped.map((s) => (skipped.length > 1 ? `${s.count} ${s.reason}` : s.reason)).join('; ')}`)
  return { operation, total, done: out.done.length, unchanged: out.unchanged.length, skipped, message: parts.join(', ') }
}

/** The /client/v1 form: runs the whole operation and answers with its summary. */
export async function bulkAgents(actor: Actor, raw: unknown) {
  const job = await prepareBulkAgents(actor, raw)
  return job.run()
}

export const bulkExportInput = z.object({ organizationId: z.string().min(1), selection: bulkSelectionSchema })

/** The selected agents' ids for a CSV export (only agents the viewer may list; table order for 'filtered'). */
export async function bulkExportIds(actor: Actor, raw: unknown) {
  const parsed = bulkExportInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const scope = await loadFleetScope(actor, parsed.data.organizationId, 'agent.list')
  const ids = await resolveSelection(scope, parsed.data.selection)
  const visible: string[] = []
  for (let i = 0; i < ids.length; i += BULK_CHUNK_SIZE) {
    const chunk = ids.slice(i, i + BULK_CHUNK_SIZE)
    const rows = await prisma.$queryRaw<{ id: string }[]>(Prisma.sql`SELECT a."id" FROM "Agent" a WHERE a."id" IN (${Prisma.join(chunk)}) AND ${scope.visibleAgentSql('a')}`)
    const ok = new Set(rows.map((r) => r.id))
    visible.push(...chunk.filter((id) => ok.has(id)))
  }
  return { scope, ids: visible }
}
