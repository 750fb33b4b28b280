/**
 * Counts of ingest's work for /metrics (server/metrics.ts). Ingest usually runs in a worker thread
 * whose prom-client registry nobody scrapes, so the counts are kept here as plain numbers: the
 * worker takes them with every message it posts to the main thread (thread.server.ts), which adds
 * them to its own copy (worker.server.ts); in one thread (INGEST_WORKER=0) they stay in this copy.
 */
export type IngestStats = { stored: number; failed: number; batchSeconds: number[] }

/** Batch durations kept between two takes at most (a scrape or a message to the main thread). */
const MAX_DURATIONS = 1000

let pending: IngestStats = { stored: 0, failed: 0, batchSeconds: [] }
let sink: ((stats: IngestStats) => void) | null = null

/** One committed batch: how many messages it stored and failed, and how long it took. */
export function noteIngestBatch(stored: number, failed: number, seconds: number) {
  addIngestStats({ stored, failed, batchSeconds: [seconds] })
}

/** Counts made elsewhere (the worker thread) or here. */
export function addIngestStats(stats: IngestStats) {
  if (sink) return sink(stats)
  pending.stored += stats.stored
  pending.failed += stats.failed
  for (const seconds of stats.batchSeconds) if (pending.batchSeconds.length < MAX_DURATIONS) pending.batchSeconds.push(seconds)
}

/** The counts since the last take (the worker thread posts them), or null when there are none. */
export function takeIngestStats(): IngestStats | null {
  if (!pending.stored && !pending.failed && !pending.batchSeconds.length) return null
  const taken = pending
  pending = { stored: 0, failed: 0, batchSeconds: [] }
  return taken
}

/** The main thread's metrics receive every count from now on (and what was counted before). */
export function sendIngestStatsTo(receiver: (stats: IngestStats) => void) {
  const before = takeIngestStats()
  sink = receiver
  if (before) receiver(before)
}
