/**
 * One ingest batch: what the messages of one transaction accumulate besides their own rows (last
 * seen, presence, usage counts, agent events, change events), written at its end in a few
 * multi-row statements rather than one statement per message.
 */
import { type ChangeEvent } from '../app/domain/events/bus.server'
import { type CachedAgent } from './cache.server'
import { type Location } from '../app/domain/agents/geoip.server'
import { newId, newOrderedId, sqlDate, type IngestStatements } from './sql-sqlite.server'

export type CallMeta = { ip: string | null; receivedAt: Date }

export type Batch = {
  now: Date
  /** `now` as stored */
  nowText: string
  /** the hour of `now` as stored (usage counters) */
  hour: string
  sql: IngestStatements
  /** agents whose lastSeen moves to `now` */
  seen: Set<string>
  /** MQTT session state changes (true = online) */
  presence: Map<string, boolean>
  usage: Map<string, { agentId: string; organizationId: string | null; hour: string; call: string; count: number }>
  events: { organizationId: string | null; agentId: string; type: string; systemId: string | null; projectIds: string }[]
  changes: Map<string, ChangeEvent>
}

const hourOf = (date: Date) => sqlDate(Math.floor(date.getTime() / 3_600_000) * 3_600_000)

export function newBatch(sql: IngestStatements, now: Date): Batch {
  return { now, nowText: sqlDate(now), hour: hourOf(now), sql, seen: new Set(), presence: new Map(), usage: new Map(), events: [], changes: new Map() }
}

/** What a call needs besides its payload; `location` is looked up before the batch (it may be async). */
export type CallContext = { batch: Batch; agentId: string; agent: CachedAgent; meta: CallMeta; location: Location | null }

export function noteChange(batch: Batch, organizationId: string | null, kind: ChangeEvent['kind'], id: string) {
  if (!organizationId) return
  const key = `${organizationId}:${kind}`
  const change = batch.changes.get(key) ?? { organizationId, kind, ids: [] }
  if (!change.ids!.includes(id)) change.ids!.push(id)
  batch.changes.set(key, change)
}

/** The projects of an agent event: those of the given systems (all of the agent's when null), as stored JSON. */
function eventProjectIds(agent: CachedAgent, systemIds: string[] | null): string {
  // an agent reports the same systems message after message: computed once per set of systems
  const key = systemIds ? systemIds.join('\u0000') : null
  if (agent.eventProjects && agent.eventProjects.key === key) return agent.eventProjects.json
  const systems = [...agent.systems.values()].filter((s) => !systemIds || systemIds.includes(s.id))
  const json = JSON.stringify([...new Set(systems.map((s) => s.projectId).filter((p): p is string => !!p))])
  agent.eventProjects = { key, json }
  return json
}

/**
 * Counts one call per agent and hour and records it as an agent event (spec 01 section 9). Both
 * carry the organization the agent is in now: a counter row per organization, so calls after an
 * enrollment or a move within the hour count for the new one (decision 018).
 */
export function countCall(batch: Batch, agentId: string, agent: CachedAgent, call: string, systemIds: string[] | null) {
  const hour = batch.hour
  const key = `${agentId}|${agent.organizationId ?? ''}|${call}`
  const usage = batch.usage.get(key) ?? { agentId, organizationId: agent.organizationId, hour, call, count: 0 }
  usage.count++
  batch.usage.set(key, usage)
  batch.events.push({
    organizationId: agent.organizationId,
    agentId,
    type: call,
    systemId: systemIds?.length === 1 ? systemIds[0] : null,
    projectIds: eventProjectIds(agent, systemIds),
  })
}

/** Presence, last seen, usage and agent events of the whole batch, many rows per statement. */
export function writeBatchTotals(batch: Batch) {
  const { sql, nowText } = batch
  const online: string[] = []
  const offline: string[] = []
  for (const [agentId, isOnline] of batch.presence) (isOnline ? online : offline).push(agentId)
  if (online.length) sql.agentsOnline(online, [1, nowText])
  if (offline.length) sql.agentsOnline(offline, [0, nowText])
  if (batch.seen.size) sql.agentsSeen([...batch.seen], [nowText, nowText])
  const usage: unknown[] = []
  for (const u of batch.usage.values()) usage.push(newId(), u.agentId, u.organizationId, u.organizationId ?? '', u.hour, u.call, u.count)
  sql.usageAddRows(usage)
  const events: unknown[] = []
  const nowMs = batch.now.getTime()
  for (const e of batch.events) events.push(newOrderedId(nowMs), e.organizationId, e.agentId, e.type, e.systemId, e.projectIds, nowText)
  sql.eventInsertRows(events)
}
