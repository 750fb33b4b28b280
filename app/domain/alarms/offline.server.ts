import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { isConnected, SEVERITY } from '../agents/derived'
import { audit } from '../audit/audit.server'
import { accessDenied } from '../errors'
import { emitChange } from '../events/bus.server'
import { parseInput } from '../parse-input'
import { recordClears } from './clears.server'
import { OFFLINE_ISSUE, OFFLINE_MINUTES } from './state'
import { prisma, isUniqueViolation } from '~/utils/db.server'
import { inChunks } from '~/utils/id-chunks'
import { startPoller } from '../jobs/poller.server'

/**
 * Offline alarm: an agent not seen for its project's "Offline alarm after" delay gets an 'Agent
 * offline' critical issue on each of its systems (issues belong to systems, and each system's
 * project has its own delay and subscribers); it clears once the agent is seen again.
 *
 * The sweeper runs on every web node. Raising is a conditional write in a transaction (insert,
 * which the (systemId, kind, key) unique key lets only one node win, or an update guarded by
 * isActive = false), so several nodes never raise it twice nor bump the activation twice.
 * Notifications follow through the usual 'issue' change event (app/domain/notifications).
 */

type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0]
type SilentSystem = { id: string; project: { offlineAlarmMinutes: number | null } | null }

/**
 * Raises the offline issue of one system inside `tx`: an update guarded by isActive = false when
 * it has one, else an insert (the unique key lets one node win). Null when another node was first.
 */
async function raiseOne(tx: Tx, system: SilentSystem, found: { id: string } | undefined, now: Date): Promise<string | null> {
  const minutes = system.project?.offlineAlarmMinutes ?? OFFLINE_MINUTES.default
  const fields = { component: OFFLINE_ISSUE.component, message: message(minutes), severity: SEVERITY.critical, latestCount: 1, latestAt: now, isActive: true, clearedAt: null, clearedBy: '' }
  let issueId: string
  if (found) {
    const { count } = await tx.issue.updateMany({ where: { id: found.id, isActive: false }, data: { ...fields, activation: { increment: 1 } } })
    if (count === 0) return null
    issueId = found.id
  } else {
    issueId = (await tx.issue.create({ data: { systemId: system.id, kind: OFFLINE_ISSUE.kind, key: OFFLINE_ISSUE.key, activation: 1, ...fields } })).id
  }
  await tx.issueHistory.create({ data: { issueId, timestamp: now, count: 1 } })
  return issueId
}

/** Another node raised it first. */
function lostToAnotherNode(error: unknown): null {
  if (isUniqueViolation(error)) return null
  throw error
}

/** Agents silent for longer than this are left alone: an upgrade must not raise alarms for long-dead agents. */
const LOOK_BACK_MS = 2 * 86_400_000
export const OFFLINE_SWEEP_MS = 15_000

const message = (minutes: number) => `Agent offline: not seen for ${minutes} minute${minutes === 1 ? '' : 's'}`

export type SweepResult = { raised: string[]; cleared: string[] }

/** One sweep at `now`: raises and clears offline issues. Returns the issue ids it changed. */
export async function sweepOfflineAgents(now = new Date()): Promise<SweepResult> {
  const t = now.getTime()
  const systems = await prisma.system.findMany({
    where: {
      agent: { organizationId: { not: null }, enabled: true, lastSeen: { lt: new Date(t - OFFLINE_MINUTES.min * 60_000), gte: new Date(t - LOOK_BACK_MS) } },
    },
    select: { id: true, projectId: true, project: { select: { offlineAlarmMinutes: true } }, agent: { select: { organizationId: true, lastSeen: true } } },
  })
  // the presence rule of the Connected tag (derived.ts), with this system's project delay
  const silent = systems.filter((s) => !isConnected(true, s.agent.lastSeen, t, s.project?.offlineAlarmMinutes ?? OFFLINE_MINUTES.default))
  // Prisma binds every id besides kind and key, and a statement binds a bounded number: in one
  // query a large fleet's silent systems failed every sweep (P2029) and raised nothing
  const existing = await inChunks(silent, (chunk) =>
    prisma.issue.findMany({ where: { systemId: { in: chunk.map((s) => s.id) }, kind: OFFLINE_ISSUE.kind, key: OFFLINE_ISSUE.key }, select: { id: true, systemId: true, isActive: true } }),
  )
  const bySystem = new Map(existing.map((i) => [i.systemId, i]))
  const raised: { id: string; organizationId: string; systemId: string }[] = []
  const toRaise = silent.filter((system) => !bySystem.get(system.id)?.isActive)
  // One short transaction per system (raiseOne). A chunked insert (several systems per statement)
  // was tried for large fleets on PostgreSQL, but with two sweepers at once on SQLite the raised
  // alarm's notification was lost (tests/integration/alarms.test.ts); cause not found yet.
  for (const system of toRaise) {
    const id = await prisma.$transaction((tx) => raiseOne(tx, system, bySystem.get(system.id), now)).catch(lostToAnotherNode)
    if (id) raised.push({ id, organizationId: system.agent.organizationId!, systemId: system.id })
  }

  // Clear: active offline issues whose agent was seen within its delay.
  const active = await prisma.issue.findMany({
    where: { kind: OFFLINE_ISSUE.kind, key: OFFLINE_ISSUE.key, isActive: true },
    select: { id: true, systemId: true, system: { select: { project: { select: { offlineAlarmMinutes: true } }, agent: { select: { organizationId: true, lastSeen: true, enabled: true } } } } },
  })
  const cleared: { id: string; organizationId: string | null; systemId: string }[] = []
  for (const issue of active) {
    const { agent, project } = issue.system
    const minutes = project?.offlineAlarmMinutes ?? OFFLINE_MINUTES.default
    const back = isConnected(true, agent.lastSeen, t, minutes)
    // A disabled agent or one that left the organization is no longer watched.
    if (!back && agent.enabled && agent.organizationId) continue
    // a count-0 entry ends the activation in the history, so its 'cleared' entry states the outage
    const changed = await prisma.$transaction(async (tx) => {
      const { count } = await tx.issue.updateMany({ where: { id: issue.id, isActive: true }, data: { isActive: false, latestCount: 0, latestAt: now } })
      if (count === 1) await tx.issueHistory.create({ data: { issueId: issue.id, timestamp: now, count: 0 } })
      return count === 1
    })
    if (changed) cleared.push({ id: issue.id, organizationId: agent.organizationId, systemId: issue.systemId })
  }
  await recordClears(cleared.map((c) => c.id), now)

  for (const change of [...raised, ...cleared]) {
    // System ids as ingest sends them, so notification delivery and live views react the same way.
    emitChange({ organizationId: change.organizationId, kind: 'issue', ids: [change.systemId] })
  }
  return { raised: raised.map((r) => r.id), cleared: cleared.map((c) => c.id) }
}

/** The periodic sweeper of this server process (app/domain/jobs/poller.server.ts); `stop` waits for a sweep in progress. */
export function startOfflineSweeper(intervalMs = OFFLINE_SWEEP_MS): { stop: () => Promise<void> } {
  return startPoller({ name: 'offline sweep', intervalMs, run: () => sweepOfflineAgents() })
}

export const offlineDelayInput = z.object({
  minutes: z.coerce
    .number({ invalid_type_error: 'Enter a number of minutes' })
    .int('Enter whole minutes')
    .min(OFFLINE_MINUTES.min, `At least ${OFFLINE_MINUTES.min} minute`)
    .max(OFFLINE_MINUTES.max, `At most ${OFFLINE_MINUTES.max} minutes (24 hours)`),
})

export async function getOfflineDelay(actor: Actor, organizationId: string, projectId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.hasProject(projectId)) throw accessDenied()
  access.require('project.view', projectId)
  const project = await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { offlineAlarmMinutes: true } })
  return { minutes: project.offlineAlarmMinutes }
}

/** Project setting "Offline alarm after" (project.update). */
export async function updateOfflineDelay(actor: Actor, organizationId: string, projectId: string, raw: unknown) {
  const access = await getOrganizationAccess(actor, organizationId)
  if (!access.hasProject(projectId)) throw accessDenied()
  access.require('project.update', projectId)
  const { minutes } = parseInput(offlineDelayInput, raw)
  const project = await prisma.$transaction(async (tx) => {
    const before = await tx.project.findUniqueOrThrow({ where: { id: projectId }, select: { offlineAlarmMinutes: true, name: true } })
    await tx.project.update({ where: { id: projectId }, data: { offlineAlarmMinutes: minutes } })
    await audit(tx, actor, { organizationId, projectId, action: 'project.update', message: `Project '${before.name}' offline alarm after ${before.offlineAlarmMinutes} -> ${minutes} minutes` })
    return before
  })
  emitChange({ organizationId, kind: 'project', ids: [projectId] })
  return { projectId, minutes, previous: project.offlineAlarmMinutes }
}
