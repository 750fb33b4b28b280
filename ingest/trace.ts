/**
 * Per-message timing through ingest's stages, for `npm run bench:ingest -- --trace` only: off
 * unless INGEST_TRACE names a file, and then each stage costs a clock reading. Stamps, in epoch
 * milliseconds (both threads' `performance` clocks mapped to one time line):
 *   received      the broker thread hands the request to ingest (broker.server.ts)
 *   posted        the turn's requests were posted to the worker (worker.server.ts)
 *   workerIn      the worker took that message off its port (thread.server.ts)
 *   batchStart    its batch began (pipeline.server.ts), `batchSize` messages in it
 *   committed     that batch committed
 *   repliesPosted the worker posted the replies
 *   answered      the broker thread received the reply
 *   acked         the broker thread wrote the PUBACK (after publishing the response)
 * The broker thread writes every completed record to the file when the process exits; the bench
 * reads it (bench/ingest.ts summarizes stage times, batch sizes and the slowest messages).
 */
import fs from 'node:fs'
import { PerformanceObserver } from 'node:perf_hooks'

const file = process.env.INGEST_TRACE || null
/** Whether stages are stamped in this process (both threads read the same variable). */
export const tracing = file !== null

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

/** One garbage collection: start (epoch ms), duration (ms), V8's kind (1 scavenge, 4 mark-compact, 8 incremental, 16 weak callbacks). */
export type TraceGc = [start: number, duration: number, kind: number]

let pauses: number[] = []
if (tracing) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(performance.timeOrigin + entry.startTime, entry.duration, ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0))
  }).observe({ entryTypes: ['gc'] })
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
export function traceAnswered({ stamps, gc }: WorkerTrace) {
  const at = traceNow()
  for (const value of gc) workerGc.push(value)
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

if (tracing && file) {
  process.on('exit', () => {
    // the worker thread has no exit of its own to write (and holds no completed records)
    for (const value of takePauses()) brokerGc.push(value)
    const triples = (values: number[]) => Array.from({ length: values.length / 3 }, (_, i) => values.slice(i * 3, i * 3 + 3))
    if (completed.length) fs.writeFileSync(file, JSON.stringify({ records: completed, gc: { broker: triples(brokerGc), worker: triples(workerGc) } }))
  })
}

// ---------------------------------------------------------------------------- worker thread

let lastBatch = { start: 0, committed: 0, size: 0 }
let replyStamps: number[] = []

/** A batch of `size` messages ran from `start` to its commit (pipeline.server.ts). */
export function traceBatch(start: number, size: number) {
  lastBatch = { start, committed: traceNow(), size }
}

/** Request `id` (taken off the port at `workerIn`) settled with the last batch. */
export function traceSettled(id: number, workerIn: number) {
  replyStamps.push(id, workerIn, lastBatch.start, lastBatch.committed, lastBatch.size, 0)
}

export type WorkerTrace = { stamps: Float64Array; gc: number[] }

/** The stamps of the replies being posted now and the worker's collections since the last post. */
export function takeReplyStamps(): WorkerTrace {
  const stamps = Float64Array.from(replyStamps)
  const at = traceNow()
  for (let i = 5; i < stamps.length; i += 6) stamps[i] = at
  replyStamps = []
  return { stamps, gc: takePauses() }
}
