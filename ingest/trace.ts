/**
 * Per-message timing through ingest's stages, for `npm run bench:ingest -- --trace` only: off
 * unless the configuration's INGEST_TRACE names a file, and then each stage costs a clock reading. Stamps, in epoch
 * milliseconds (both threads' `performance` clocks mapped to one time line):
 *   received      the broker thread hands the request to ingest (broker.server.ts)
 *   posted        the turn's requests were posted to the worker (worker.server.ts)
 *   workerIn      the worker took that message off its port (thread.server.ts)
 *   batchStart    its batch began (pipeline.server.ts), `batchSize` messages in it
 *   committed     that batch committed
 *   repliesPosted the worker posted the replies
 *   answered      the broker thread received the reply
 *   acked         the broker thread wrote the PUBACK (after publishing the response)
 * The worker also stamps each batch (and whether its commit ran a WAL checkpoint) and each
 * checkpoint it runs between batches (checkpoints.server.ts). The broker thread writes every
 * completed record to the file when the process exits; the bench reads it (bench/ingest-trace.ts
 * summarizes stage times, batch sizes, checkpoints, collections and the slowest messages).
 */
import fs from 'node:fs'
import { PerformanceObserver } from 'node:perf_hooks'
import { isMainThread } from 'node:worker_threads'

/** The file the broker thread writes the records to on exit (INGEST_TRACE), once `startTracing` was called. */
let file: string | null = null
/** Whether stages are stamped in this thread (both threads start tracing from the same configuration). */
export let tracing = false

export const traceNow = () => performance.timeOrigin + performance.now()

export type TraceRecord = {
  received: number
  posted: number
  workerIn: number
  batchStart: number
  committed: number
  batchSize: number
  repliesPosted: number
  answered: number
  acked: number
}

/** One batch of the worker: start and commit (epoch ms), messages, WAL frames a checkpoint in its commit copied, WAL frames after it. */
export type TraceBatch = [start: number, committed: number, size: number, checkpointed: number, walFrames: number]
/** One checkpoint between batches: start (epoch ms), duration (ms), WAL frames copied, WAL frames. */
export type TraceCheckpoint = [start: number, duration: number, copied: number, walFrames: number]

/** One garbage collection: start (epoch ms), duration (ms), V8's kind (1 scavenge, 4 mark-compact, 8 incremental, 16 weak callbacks). */
export type TraceGc = [start: number, duration: number, kind: number]

let pauses: number[] = []

/**
 * Starts stamping in this thread when the configuration names a trace file: the broker thread
 * (worker.server.ts, before its first request) and the worker thread (thread.server.ts, from the
 * configuration it is started with) each call it once. The broker thread writes the file on exit.
 */
export function startTracing(traceFile: string | undefined) {
  if (tracing || !traceFile) return
  tracing = true
  file = traceFile
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(performance.timeOrigin + entry.startTime, entry.duration, ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0))
  }).observe({ entryTypes: ['gc'] })
  if (isMainThread) process.on('exit', writeRecords)
}

/** The garbage collections recorded since the last take, as (start, duration, kind) triples. */
function takePauses(): number[] {
  const taken = pauses
  pauses = []
  return taken
}

// ---------------------------------------------------------------------------- broker thread

const completed: TraceRecord[] = []
const workerGc: number[] = []
const brokerGc: number[] = []
const workerBatches: number[] = []
const workerCheckpoints: number[] = []
const byId = new Map<number, TraceRecord>()
let unposted: TraceRecord[] = []
/** The record begun by the publish being handed over right now (the hand-off is synchronous up to the request id). */
let current: TraceRecord | null = null

/** A publish reached ingest; the record to pass to `traceAcked`. */
export function traceReceived(): TraceRecord | null {
  if (!tracing) return null
  current = { received: traceNow(), posted: 0, workerIn: 0, batchStart: 0, committed: 0, batchSize: 0, repliesPosted: 0, answered: 0, acked: 0 }
  return current
}

/** The current publish became worker request `id`. */
export function traceRequest(id: number) {
  if (!current) return
  byId.set(id, current)
  unposted.push(current)
  current = null
}

/** This turn's requests were posted to the worker. */
export function tracePosted() {
  const at = traceNow()
  for (const record of unposted) record.posted = at
  unposted = []
}

/**
 * The worker's stamps of replies just received (per reply id, workerIn, batchStart, committed,
 * batchSize, repliesPosted) and its garbage collections since its last message.
 */
export function traceAnswered({ stamps, gc, batches, checkpoints }: WorkerTrace) {
  const at = traceNow()
  for (const value of gc) workerGc.push(value)
  for (const value of batches) workerBatches.push(value)
  for (const value of checkpoints) workerCheckpoints.push(value)
  for (let i = 0; i < stamps.length; i += 6) {
    const record = byId.get(stamps[i])
    if (!record) continue
    byId.delete(stamps[i])
    record.workerIn = stamps[i + 1]
    record.batchStart = stamps[i + 2]
    record.committed = stamps[i + 3]
    record.batchSize = stamps[i + 4]
    record.repliesPosted = stamps[i + 5]
    record.answered = at
  }
}

/** The PUBACK of this record's publish was written. */
export function traceAcked(record: TraceRecord | null) {
  if (!record || !record.answered) return
  if (pauses.length > 3000) for (const value of takePauses()) brokerGc.push(value)
  record.acked = traceNow()
  completed.push(record)
}

/** Writes the completed records to the trace file (on exit: the worker thread holds no completed records). */
function writeRecords() {
  for (const value of takePauses()) brokerGc.push(value)
  const tuples = (values: number[], n: number) => Array.from({ length: values.length / n }, (_, i) => values.slice(i * n, i * n + n))
  if (!file || !completed.length) return
  const gc = { broker: tuples(brokerGc, 3), worker: tuples(workerGc, 3) }
  fs.writeFileSync(file, JSON.stringify({ records: completed, gc, batches: tuples(workerBatches, 5), checkpoints: tuples(workerCheckpoints, 4) }))
}

// ---------------------------------------------------------------------------- worker thread

let lastBatch = { start: 0, committed: 0, size: 0 }
let replyStamps: number[] = []
/** (start, committed, size, WAL frames checkpointed inside it, WAL frames after it) per batch */
let batchStamps: number[] = []
/** (start, duration, WAL frames copied, WAL frames) per checkpoint run between batches (checkpoints.server.ts) */
let checkpointStamps: number[] = []

/** Reads the WAL's frame count and how many are copied into the database (checkpoints.server.ts): a rise of the latter across a commit means that commit ran a checkpoint. */
let walIndex: (() => { frames: number; backfilled: number } | null) | null = null
let lastBackfilled = 0
export function traceWalOf(reader: typeof walIndex) {
  if (tracing) walIndex = reader
}

/** A batch of `size` messages ran from `start` to its commit (pipeline.server.ts). */
export function traceBatch(start: number, size: number) {
  lastBatch = { start, committed: traceNow(), size }
  const wal = walIndex?.() ?? { frames: 0, backfilled: 0 }
  // nBackfill falls to 0 when a writer restarts the WAL, and rises only by a checkpoint
  const checkpointed = wal.backfilled > lastBackfilled ? wal.backfilled - lastBackfilled : 0
  lastBackfilled = wal.backfilled
  batchStamps.push(start, lastBatch.committed, size, checkpointed, wal.frames)
}

/** A checkpoint between batches ran from `start` (epoch ms) for `duration` ms, copying `copied` of the WAL's `frames`. */
export function traceCheckpoint(start: number, duration: number, copied: number, frames: number) {
  checkpointStamps.push(start, duration, copied, frames)
  lastBackfilled = walIndex?.()?.backfilled ?? lastBackfilled
}

/** Request `id` (taken off the port at `workerIn`) settled with the last batch. */
export function traceSettled(id: number, workerIn: number) {
  replyStamps.push(id, workerIn, lastBatch.start, lastBatch.committed, lastBatch.size, 0)
}

export type WorkerTrace = { stamps: Float64Array; gc: number[]; batches: number[]; checkpoints: number[] }

/** The stamps of the replies being posted now, the batches and checkpoints run and the worker's collections since the last post. */
export function takeReplyStamps(): WorkerTrace {
  const stamps = Float64Array.from(replyStamps)
  const at = traceNow()
  for (let i = 5; i < stamps.length; i += 6) stamps[i] = at
  replyStamps = []
  const taken = { stamps, gc: takePauses(), batches: batchStamps, checkpoints: checkpointStamps }
  batchStamps = []
  checkpointStamps = []
  return taken
}
