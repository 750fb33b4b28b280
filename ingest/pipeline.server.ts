/**
 * Ingest: what agents report over MQTT becomes rows. Every call goes through one write-behind
 * queue: whatever arrived during one turn of the event loop is committed in one SQLite
 * transaction (so batches grow with the load by themselves, and a lone message waits for nobody);
 * the caller's promise settles only after the commit (the broker sends the QoS 1 PUBACK then).
 * The transaction runs synchronously through prepared statements (sql-sqlite.server.ts), on
 * Prisma's own connection when ingest runs in the web/broker thread, or on the ingest worker's own
 * connection (thread.server.ts calls `writeIngestOn`; see worker.server.ts).
 * In-memory caches of what was last stored let a typical state report, which repeats the previous
 * one, write only its last seen, usage count and agent event (cache.server.ts).
 *
 * The SQL seam: everything database-specific is behind sql-sqlite.server.ts (prepared statements,
 * ids, date text, opening a connection); a PostgreSQL implementation exports the same names.
 *
 * The pieces: this file (the queue, the transaction, the entry points), batch.server.ts
 * (what a batch accumulates and writes at its end), calls.server.ts (each call's own
 * rows), systems.server.ts (a state report's systems, devices and issues),
 * cache.server.ts (what was last stored).
 */
import type Database from 'better-sqlite3'
import { setTimeout as sleep } from 'node:timers/promises'
import { type AgentCall, type AgentCallPayload, type AgentCallResult } from '../protocol'
import { type ChangeEvent } from '../app/domain/events/bus.server'
import { lookupLocation } from '../app/domain/agents/geoip.server'
import { noteIngestBatch } from './stats'
import { traceBatch, tracing } from './trace'
import { countCall, newBatch, noteChange, writeBatchTotals, type Batch, type CallMeta } from './batch.server'
import { announceIngestChanges } from '../app/domain/events/ingest-origin.server'
import { cachedAgent, forgetAgent, loadAgent } from './cache.server'
import { handlers, type Handler, type IngestCall } from './calls.server'
import { ingestDatabase } from './sql-pg.server'
import { prismaTransactionOpen } from '../app/utils/db.server'
import { isDatabaseUnavailable } from './failures.server'
import { statementsOf } from './sql-sqlite.server'

/** Where committed batches' change events go: this thread's bus, or (in the worker) back to the main thread. */
let announceChanges: (changes: ChangeEvent[]) => void = announceIngestChanges
/** The connection ingest writes on: Prisma's own, unless the worker gave it its own. */
let ownConnection: Database | null = null

/** Runs after every batch on the worker's own connection (its WAL checkpoints, checkpoints.server.ts). */
let afterBatch: (() => void) | null = null

/** The ingest worker writes on its own connection and posts its change events to the main thread. */
export function writeIngestOn(db: Database, announce: (changes: ChangeEvent[]) => void, after: (() => void) | null = null) {
  ownConnection = db
  announceChanges = announce
  afterBatch = after
}

/** Whether a batch is queued or being written. */
export const ingestBusy = () => queue.length > 0 || flushing !== null

// ------------------------------------------------------------------------ write-behind queue

type Job = {
  agentId: string
  run: (batch: Batch) => unknown
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/**
 * The most messages one transaction takes. The commit runs synchronously, so this also bounds
 * how long the broker's event loop is held (about 10 ms for 500 unchanged reports).
 */
const MAX_BATCH = 500

let queue: Job[] = []
let flushing: Promise<void> | null = null

function enqueue<T>(agentId: string, run: (batch: Batch) => T): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    queue.push({ agentId, run, resolve: resolve as (value: unknown) => void, reject })
    scheduleFlush()
  })
}

/** Flushes after the current I/O phase: everything the broker read in it shares one transaction. */
function scheduleFlush() {
  if (flushing || !queue.length) return
  flushing = new Promise<void>((resolve) => setImmediate(resolve))
    .then(flushBatch)
    .finally(() => {
      flushing = null
      scheduleFlush()
    })
}

async function flushBatch() {
  const db = ownConnection ?? (await ingestDatabase())
  // Never write inside a Prisma transaction that is open on the same connection (its rollback would
  // take ours along), nor on PostgreSQL while one of this thread is open: this thread blocks until
  // our statements return, so a row that transaction holds would never be released (db.server.ts).
  while (!ownConnection && (db.inTransaction || prismaTransactionOpen())) await sleep(1)
  const jobs = queue.slice(0, MAX_BATCH)
  queue = queue.slice(jobs.length)
  const started = performance.now()
  try {
    settle(jobs, commit(db, jobs), started)
    afterBatch?.()
  } catch (error) {
    // The database is down or locked: each message alone would fail the same way, after as long a wait.
    if (isDatabaseUnavailable(error)) {
      for (const job of jobs) forgetAgent(job.agentId)
      noteIngestBatch(0, jobs.length, (performance.now() - started) / 1000)
      for (const job of jobs) job.reject(error)
      return
    }
    // The batch itself failed (e.g. a shared statement hit a row deleted meanwhile): caches may be
    // ahead of the rollback; retry each message alone so one cannot fail its companions.
    for (const job of jobs) forgetAgent(job.agentId)
    for (const job of jobs) {
      try {
        settle([job], commit(db, [job]), started)
      } catch (error) {
        forgetAgent(job.agentId)
        noteIngestBatch(0, 1, (performance.now() - started) / 1000)
        job.reject(error)
      }
    }
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

function settle(jobs: Job[], outcomes: Outcome[], started: number) {
  const stored = outcomes.filter((outcome) => outcome.ok).length
  if (tracing) traceBatch(performance.timeOrigin + started, jobs.length)
  noteIngestBatch(stored, outcomes.length - stored, (performance.now() - started) / 1000)
  jobs.forEach((job, i) => {
    const outcome = outcomes[i]
    if (outcome.ok) job.resolve(outcome.value)
    else job.reject(outcome.error)
  })
}

/** A message whose payload was refused (its `prepare` threw) before it wrote anything; `reason` is what was thrown. */
class Refused extends Error {
  constructor(readonly reason: unknown) {
    super('refused')
  }
}

/** A message failed inside the fast (savepoint-free) attempt at a batch. */
class MessageFailed extends Error {}

/**
 * One transaction for the jobs. First without a savepoint per message (two statements fewer
 * each); if any message fails, that attempt is rolled back and the batch runs again with each
 * message in its own savepoint, so the one that fails (unknown agent, constraint) is rolled back
 * alone and the rest commit. Then last seen, presence, usage and events of the whole batch;
 * change events only after the commit.
 */
function commit(db: Database, jobs: Job[]): Outcome[] {
  try {
    return commitOnce(db, jobs, false)
  } catch (error) {
    if (!(error instanceof MessageFailed)) throw error
    // caches may hold what the rolled-back attempt wrote
    for (const job of jobs) forgetAgent(job.agentId)
    return commitOnce(db, jobs, true)
  }
}

function commitOnce(db: Database, jobs: Job[], savepoints: boolean): Outcome[] {
  const now = new Date()
  const batch = newBatch(statementsOf(db), now)
  const runAlone = savepoints ? db.transaction((job: Job) => job.run(batch)) : null
  // IMMEDIATE: take the write lock up front (busy_timeout waits for it) rather than failing when a
  // read snapshot cannot be upgraded because another connection committed meanwhile.
  const outcomes = db.transaction(() => {
    const results = jobs.map((job): Outcome => {
      if (!runAlone) {
        try {
          return { ok: true, value: job.run(batch) }
        } catch (error) {
          // refused before it wrote anything: the others go on
          if (error instanceof Refused) return { ok: false, error: error.reason }
          throw new MessageFailed()
        }
      }
      try {
        return { ok: true, value: runAlone(job) }
      } catch (error) {
        forgetAgent(job.agentId)
        return { ok: false, error: error instanceof Refused ? error.reason : error }
      }
    })
    writeBatchTotals(batch)
    return results
  }).immediate()
  announce(batch)
  return outcomes
}

function announce(batch: Batch) {
  if (batch.changes.size) announceChanges([...batch.changes.values()])
}

/** Waits until everything queued so far is committed (shutdown, tests). */
export async function drainIngest() {
  while (queue.length || flushing) await (flushing ?? Promise.resolve(scheduleFlush()))
}

// ---------------------------------------------------------------------------- entry points

/**
 * Runs one agent call through the queue; settles after its commit. `payload` is the validated
 * payload, or a function that produces it inside the batch (raw.server.ts parses there, so
 * a waiting request holds only its bytes, not a parsed report that would outlive a young-generation
 * collection); what that function throws rejects this call alone.
 */
export async function ingestCall<C extends IngestCall>(
  agentId: string,
  call: C,
  payload: AgentCallPayload<C> | (() => AgentCallPayload<C>),
  meta: CallMeta,
): Promise<AgentCallResult<C>> {
  const handler = handlers[call] as Handler<C>
  // A lookup can be asynchronous, the batch is not: resolve it first, only when the address is new.
  const location = meta.ip && cachedAgent(agentId)?.lastIp !== meta.ip ? await lookupLocation(meta.ip) : null
  return enqueue(agentId, (batch) => {
    let data: AgentCallPayload<C>
    try {
      data = typeof payload === 'function' ? payload() : payload
    } catch (error) {
      throw new Refused(error)
    }
    const agent = loadAgent(batch.sql, agentId)
    const result = handler({ batch, agentId, agent, meta, location }, data)
    // updateClientState counts itself (it knows its systems); the rest are agent-wide.
    if (call !== 'updateClientState') countCall(batch, agentId, agent, call, null)
    return result
  })
}

/** Counts a call another part of the domain served (selfEnroll) in usage and agent events, like every call. */
export function countServedCall(agentId: string, call: AgentCall): Promise<void> {
  return enqueue(agentId, (batch) => countCall(batch, agentId, loadAgent(batch.sql, agentId), call, null))
}

/** Presence from the broker: connect, clean disconnect, or Last Will (recorded as an 'offline' event). */
export function ingestPresence(agentId: string, online: boolean, meta: { will?: boolean }): Promise<void> {
  return enqueue(agentId, (batch) => {
    // Written in bulk at the end of the batch: a fleet reconnecting costs no query per agent.
    batch.presence.set(agentId, online)
    if (online) batch.seen.add(agentId)
    const agent = cachedAgent(agentId) ?? (meta.will ? loadAgent(batch.sql, agentId) : null)
    if (meta.will && agent) batch.events.push({ organizationId: agent.organizationId, agentId, type: 'offline', systemId: null, projectIds: '[]' })
    if (agent) noteChange(batch, agent.organizationId, 'agent', agentId)
  })
}

/** The stored secret hash and enabled flag of an agent (authentication on every connect). */
export async function agentCredentials(agentId: string): Promise<{ secretHash: string; enabled: boolean } | null> {
  const row = statementsOf(await ingestDatabase()).agentSecret.get(agentId) as { secretHash: string; enabled: number } | undefined
  return row ? { secretHash: row.secretHash, enabled: row.enabled === 1 } : null
}
