import { type Actor } from '../actor'
import { isIngestChange } from '../events/ingest-origin.server'
import { type ChangeEvent, onChange } from '../events/bus.server'
import { type FleetScope } from './scope.server'
import { getConfig } from '~/utils/env.server'

/**
 * How long an organization-wide aggregate (dashboard, project overview) is reused between
 * requests and viewers. Every change that can move such a figure drops the organization's entries
 * at once (below), except an agent report's own 'agent' change, which only moves last seen:
 * 'connected' (a report within 30 minutes) may show this much late, as on the projects list.
 */
export const ORG_READ_CACHE_MS = 5_000
/** FLEET_READ_CACHE_MS (default ORG_READ_CACHE_MS); 0 turns sharing off (benchmarks of the uncached cost) */
const ttl = () => getConfig().FLEET_READ_CACHE_MS ?? ORG_READ_CACHE_MS
/** `refreshInBackground`: an entry older than this is loaded again before answering, not behind. */
export const REFRESH_BEHIND_MAX_AGE_MS = 60_000
/**
 * Rows (systems, agents) from which a table's load is slow enough to be answered once more after a
 * machine-made change rather than waited for (`staleOnMachineChange`, decision 086): ~0.3-4 s at
 * 20,000 agents on a busy machine, a few ms for an organization of this size.
 */
export const LARGE_FLEET_ROWS = 1_000
/** Entries kept per organization before they are all dropped (pages x views x visibilities). */
const MAX_ENTRIES_PER_ORG = 200

type Entry = {
  at: number
  value: Promise<unknown>
  dropOnReport: boolean
  /** the value once loaded (for `refreshInBackground`) */
  settled?: { value: unknown }
  /** a background refresh of an expired entry is running */
  refreshing?: boolean
  /** the value once loaded was large enough that a machine-made change only marks it stale (below) */
  staleOnMachineChange?: (value: unknown) => boolean
  /** a machine-made change arrived after this value was loaded: answered once more while it loads again */
  stale?: boolean
}
const entries = new Map<string, Map<string, Entry>>()
let listening = false

const DROPPED_BY = new Set<ChangeEvent['kind']>(['organization', 'project', 'system', 'issue', 'agent', 'member', 'role'])

/**
 * Dropped on any change to the organization itself, its projects, systems (devices and versions
 * come with 'system' changes), issues (ingest's too), members and roles, and agents; an agent
 * report (ingest's own 'agent' change, last seen) drops only entries asked with `dropOnReport`
 * (tables that show last seen). Callers check permissions before asking and key entries by what
 * decides the result (the viewer's visible systems, or the user).
 *
 * A machine-made change (anything ingest announces, and issue changes not made by a person: the
 * offline sweep's and ingest's alarms) does not drop an entry asked with `staleOnMachineChange` whose loaded value the
 * caller calls large: it is marked stale, so the next request answers it once more and loads it
 * again behind (decision 086). A fleet of 20,000 agents changes every few seconds, so dropping
 * made every such load (seconds on PostgreSQL) a viewer's wait.
 */
function listen() {
  if (listening) return
  listening = true
  onChange((e) => {
    if (!DROPPED_BY.has(e.kind)) return
    const orgs = e.organizationId === null ? [...entries.values()] : [entries.get(e.organizationId)].filter((m) => m !== undefined)
    const report = e.kind === 'agent' && isIngestChange()
    const machineMade = isIngestChange() || (e.kind === 'issue' && !e.byPerson)
    for (const org of orgs) {
      for (const [key, entry] of org) {
        if (report && !entry.dropOnReport) continue
        if (machineMade && entry.settled && entry.staleOnMachineChange?.(entry.settled.value)) entry.stale = true
        else org.delete(key)
      }
    }
  })
}

/** The part of a viewer's scope that decides which systems they see: equal keys see the same rows. */
export function visibilityKey(scope: FleetScope): string {
  return `${scope.orgWide ? 'org' : 'projects'}:${[...scope.viewableProjectIds].sort().join(',')}`
}

/**
 * A user, the token they came with (a token narrows their rights) and whether they are staff (a
 * site admin's claim changes with no organization's event): for entries holding what that user
 * may do. Null for agents and the system.
 */
export function userKey(actor: Actor): string | null {
  return actor.kind === 'user' ? `${actor.userId}:${actor.token?.id ?? ''}:${actor.isSiteAdmin ? 'staff' : ''}` : null
}

/**
 * `load()` shared for ORG_READ_CACHE_MS by every request asking the same `key` of the organization
 * (concurrent requests share one load). Only for results that depend on nothing but the key and
 * the organization's data; callers check permissions before asking, and must not mutate the result.
 *
 * `refreshInBackground` (decision 062): an expired entry that no change dropped keeps answering
 * while one load in the background replaces it; for aggregates over a whole fleet that take
 * seconds on 20,000 agents, which every viewer would otherwise wait for once per expiry. A
 * change of the organization still drops the entry (the next request loads and waits), and an entry
 * older than REFRESH_BEHIND_MAX_AGE_MS is loaded before answering: what is answered is at most that
 * old, for data no change event announced.
 */
export function cachedOrgRead<T>(
  organizationId: string,
  key: string,
  load: () => Promise<T>,
  now = Date.now(),
  options: { dropOnReport?: boolean; refreshInBackground?: boolean; staleOnMachineChange?: (value: T) => boolean } = {},
): Promise<T> {
  const keepMs = ttl()
  if (keepMs === 0) return load()
  listen()
  let org = entries.get(organizationId)
  const hit = org?.get(key)
  if (hit && !hit.stale && now - hit.at < keepMs && now >= hit.at) return hit.value as Promise<T>
  if (hit && options.refreshInBackground && hit.settled && now >= hit.at && now - hit.at < REFRESH_BEHIND_MAX_AGE_MS) {
    if (!hit.refreshing) refresh(organizationId, key, hit, load, now)
    return Promise.resolve(hit.settled.value as T)
  }
  if (!org || org.size >= MAX_ENTRIES_PER_ORG) entries.set(organizationId, (org = new Map()))
  const value = load()
  const map = org
  const entry: Entry = { at: now, value, dropOnReport: options.dropOnReport ?? false, staleOnMachineChange: options.staleOnMachineChange as Entry['staleOnMachineChange'] }
  map.set(key, entry)
  value.then(
    (v) => void (entry.settled = { value: v }),
    () => map.get(key)?.value === value && map.delete(key),
  )
  return value
}

/** Loads an expired entry again; the entry is replaced only if no change dropped it meanwhile. */
function refresh(organizationId: string, key: string, stale: Entry, load: () => Promise<unknown>, now: number) {
  stale.refreshing = true
  // a machine-made change from here on is not in this load: the new entry stays stale then
  stale.stale = false
  const map = entries.get(organizationId)
  const value = load()
  value.then(
    (v) => {
      if (entries.get(organizationId) === map && map?.get(key) === stale) {
        map.set(key, { at: now, value, dropOnReport: stale.dropOnReport, staleOnMachineChange: stale.staleOnMachineChange, stale: stale.stale, settled: { value: v } })
      }
    },
    // a failed refresh forgets the entry: the next request loads and sees the error
    () => entries.get(organizationId)?.get(key) === stale && entries.get(organizationId)?.delete(key),
  )
}

/** Forgets every cached read (tests that write rows without a change event). */
export function clearOrgReadCache() {
  entries.clear()
}
