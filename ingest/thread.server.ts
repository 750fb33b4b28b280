/**
 * The ingest worker thread (started by worker.server.ts): parses, validates and commits what
 * agents send, on its own SQLite connection, so the broker thread only speaks MQTT. Requests arrive
 * in batches (one message per turn of the main thread's event loop); replies and the change events
 * of committed batches go back the same way, one message per turn of this thread's loop.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { type Config } from '../server/config'
import { setConfig } from '~/utils/env.server'
import { type ChangeEvent } from '../app/domain/events/bus.server'
import { DomainError } from '../app/domain/errors'
import { countServedCall, drainIngest, ingestBusy, ingestCall, ingestPresence, writeIngestOn } from './pipeline.server'
import { WalCheckpoints, walIndexReader } from './checkpoints.server'
import { type CallMeta } from './batch.server'
import { forgetAgents } from './cache.server'
import { type IngestCall } from './calls.server'
import { ingestRaw } from './raw.server'
import { takeIngestStats, type IngestStats } from './stats'
import { openIngestDatabase } from './sql-sqlite.server'
import { ingestDatabase } from './sql-pg.server'
import { isPostgres } from '~/utils/db.server'
import { type AgentCall } from '../protocol'
import { ResponsePacker, unpackRequests, type PackedRaw } from './handoff'
import { startTracing, takeReplyStamps, traceNow, traceSettled, traceWalOf, tracing, type WorkerTrace } from './trace'

/** Requests other than raw ones (which travel packed, handoff.ts). */
export type WorkerRequest = { id: number } & (
  | { kind: 'call'; agentId: string; call: IngestCall; payload: unknown; meta: CallMeta }
  | { kind: 'served'; agentId: string; call: AgentCall }
  | { kind: 'presence'; agentId: string; online: boolean; will: boolean }
  | { kind: 'drain' }
)
export type SerializedError = { name: string; message: string; code?: string; status?: number; issues?: { path: string; message: string }[] }
export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError }
export type ToWorker =
  | { type: 'requests'; packed: ArrayBuffer; bytes: number; requests: WorkerRequest[] }
  | { type: 'forget'; event: ChangeEvent }
  | { type: 'config'; config: Config }
  | { type: 'crash' }
/** `responses`: replies that are a response text alone, packed; `replies`: the others. */
export type FromWorker = {
  responses: { ids: Float64Array; texts: string } | null
  replies: WorkerReply[]
  changes: ChangeEvent[]
  stats?: IngestStats | null
  /** stage stamps of the replies (trace.ts), only when tracing */
  trace?: WorkerTrace | null
}

const port = parentPort!
const config = (workerData as { config: Config }).config
setConfig(config)
startTracing(config.INGEST_TRACE)

const responses = new ResponsePacker()
let replies: WorkerReply[] = []
let changes: ChangeEvent[] = []
let scheduled = false
function send() {
  scheduled = false
  const message: FromWorker = { responses: responses.take(), replies, changes, stats: takeIngestStats(), trace: tracing ? takeReplyStamps() : null }
  replies = []
  changes = []
  port.postMessage(message)
}
/**
 * Replies go out as soon as the batch that settled them has run its promise callbacks: a tick
 * queued from those callbacks runs after all of them, and before the next batch (a setImmediate)
 * starts. With setImmediate here, the next batch ran first whenever the queue was not empty, so at
 * saturation every PUBACK waited for one more batch.
 */
function schedule() {
  if (scheduled) return
  scheduled = true
  process.nextTick(send)
}

// on PostgreSQL the synchronous stand-in (blocking this thread, never the broker's) takes SQLite's place
const announce = (committed: ChangeEvent[]) => {
  changes.push(...committed)
  schedule()
}
if (isPostgres(config.DATABASE_URL)) writeIngestOn(await ingestDatabase(), announce)
else {
  const db = openIngestDatabase(config.DATABASE_URL)
  const walIndex = walIndexReader(config.DATABASE_URL.replace(/^file:/, ''))
  traceWalOf(walIndex)
  // checkpoints between batches rather than in the commit that crosses the threshold (decision 090)
  const checkpoints = walIndex ? new WalCheckpoints(db, walIndex, ingestBusy) : null
  writeIngestOn(db, announce, checkpoints && (() => checkpoints.afterBatch()))
}

function serialize(error: unknown): SerializedError {
  if (error instanceof DomainError) return { name: error.name, message: error.message, code: error.code, status: error.status, issues: error.issues }
  return error instanceof Error ? { name: error.name, message: error.message } : { name: 'Error', message: String(error) }
}

function run(request: WorkerRequest): Promise<unknown> {
  switch (request.kind) {
    case 'call':
      return ingestCall(request.agentId, request.call, request.payload as never, request.meta)
    case 'served':
      return countServedCall(request.agentId, request.call)
    case 'presence':
      return ingestPresence(request.agentId, request.online, { will: request.will })
    case 'drain':
      return drainIngest()
  }
}

port.on('message', (message: ToWorker) => {
  if (message.type === 'forget') return forgetAgents(message.event)
  if (message.type === 'config') return setConfig(message.config)
  // Tests only: dies mid-flight like a crash would (the main thread restarts the worker).
  if (message.type === 'crash') process.exit(70)
  if (tracing) arrivedAt = traceNow()
  unpackRequests(message.packed, message.bytes, message.requests, runRaw, runObject)
})

/** When the message being unpacked arrived (tracing only). */
let arrivedAt = 0

// (no .finally: one promise less per request)
function runObject(request: WorkerRequest) {
  run(request).then(
    (value) => {
      replies.push({ id: request.id, ok: true, value })
      schedule()
    },
    (error: unknown) => {
      replies.push({ id: request.id, ok: false, error: serialize(error) })
      schedule()
    },
  )
}

function runRaw(request: PackedRaw) {
  const id = request.id
  const arrived = arrivedAt
  ingestRaw(request.agentId, request.call as IngestCall, request.payload, { ip: request.ip, receivedAt: request.receivedAt }).then(
    (outcome) => {
      if (tracing) traceSettled(id, arrived)
      // the usual answer (stored) goes back packed; refusals and failures with their details
      if (outcome.refusal === undefined && outcome.failed === undefined) responses.add(id, outcome.response)
      else replies.push({ id, ok: true, value: outcome })
      schedule()
    },
    (error: unknown) => {
      replies.push({ id, ok: false, error: serialize(error) })
      schedule()
    },
  )
}
