// The summary `npm run bench:ingest -- --trace` prints: per-message stage times written by the
// broker (ingest/trace.ts, INGEST_TRACE) for the messages received in the timed window, the
// sizes and durations of the worker's batches, how many batches a message waited behind, and
// where the slowest 1 % of messages spent their time.
import fs from 'node:fs'
import { type TraceBatch, type TraceCheckpoint, type TraceGc, type TraceRecord } from '../ingest/trace'

const STAGES: [string, (r: TraceRecord) => number][] = [
  ['broker turn (received -> posted)', (r) => r.posted - r.received],
  ['to the worker (posted -> taken off its port)', (r) => r.workerIn - r.posted],
  ['queued in the worker (-> its batch starts)', (r) => r.batchStart - r.workerIn],
  ['its batch (start -> commit)', (r) => r.committed - r.batchStart],
  ['commit -> replies posted', (r) => r.repliesPosted - r.committed],
  ['back to the broker thread', (r) => r.answered - r.repliesPosted],
  ['response publish + PUBACK', (r) => r.acked - r.answered],
  ['total in the broker (received -> PUBACK)', (r) => r.acked - r.received],
]

const quantile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0
const ms = (value: number) => value.toFixed(1).padStart(7)

/** Prints the summary of the trace file for messages received between `from` and `to` (epoch ms); removes the file. */
export function summarizeTrace(file: string, from: number, to: number) {
  if (!fs.existsSync(file)) return console.log('trace: no records written (did the broker exit normally?)')
  const { records: all, gc, batches: batchList = [], checkpoints = [] } = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    records: TraceRecord[]
    gc: { broker: TraceGc[]; worker: TraceGc[] }
    batches?: TraceBatch[]
    checkpoints?: TraceCheckpoint[]
  }
  fs.rmSync(file, { force: true })
  const records = all.filter((r) => r.received >= from && r.received <= to)
  if (!records.length) return console.log('trace: no message received in the timed window')
  console.log(`\ntrace: ${records.length} messages received in the timed window (stage times in ms)`)
  console.log(`  ${'stage'.padEnd(46)}     p50     p95     p99     max    mean`)
  for (const [name, of] of STAGES) {
    const values = records.map(of).sort((a, b) => a - b)
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length
    console.log(`  ${name.padEnd(46)} ${ms(quantile(values, 50))} ${ms(quantile(values, 95))} ${ms(quantile(values, 99))} ${ms(values.at(-1)!)} ${ms(mean)}`)
  }

  // the batches these messages ran in, and every batch of the window (to count the ones waited behind)
  const batches = new Map<number, { size: number; ms: number }>()
  for (const r of all) batches.set(r.batchStart, { size: r.batchSize, ms: r.committed - r.batchStart })
  const starts = [...batches.keys()].sort((a, b) => a - b)
  const inWindow = starts.filter((s) => s >= from && s <= to)
  const sizes = inWindow.map((s) => batches.get(s)!.size).sort((a, b) => a - b)
  const durations = inWindow.map((s) => batches.get(s)!.ms).sort((a, b) => a - b)
  const busy = durations.reduce((sum, d) => sum + d, 0) / (to - from)
  console.log(
    `  batches in the window: ${inWindow.length}, size p50 ${quantile(sizes, 50)} p90 ${quantile(sizes, 90)} max ${sizes.at(-1)}; ` +
      `duration p50 ${quantile(durations, 50).toFixed(1)} ms p95 ${quantile(durations, 95).toFixed(1)} ms; worker in batches ${(busy * 100).toFixed(0)} % of the window`,
  )
  const buckets = [50, 100, 200, 300, 400, 500, 750, 1000, Infinity]
  const counts = buckets.map((limit, i) => sizes.filter((s) => s <= limit && s > (buckets[i - 1] ?? 0)).length)
  console.log(`  batch sizes: ${buckets.map((limit, i) => `<=${limit === Infinity ? 'more' : limit}: ${counts[i]}`).join(', ')}`)

  // batches that started after a message was taken off the port and before its own batch
  const firstAfter = (t: number) => {
    let lo = 0
    let hi = starts.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (starts[mid] <= t) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const firstAtOrAfter = (t: number) => {
    let lo = 0
    let hi = starts.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (starts[mid] < t) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  const waited = records.map((r) => Math.max(0, firstAtOrAfter(r.batchStart) - firstAfter(r.workerIn)))
  const waitedCounts = [0, 1, 2, 3].map((n) => waited.filter((w) => (n === 3 ? w >= 3 : w === n)).length)
  console.log(`  batches waited behind in the worker: 0: ${waitedCounts[0]}, 1: ${waitedCounts[1]}, 2: ${waitedCounts[2]}, 3+: ${waitedCounts[3]}`)

  const kinds: Record<number, string> = { 1: 'scavenge', 2: 'minor mark-sweep', 4: 'mark-compact', 8: 'incremental', 16: 'weak callbacks' }
  for (const [thread, pauses] of Object.entries(gc)) {
    const inWindowGc = pauses.filter(([start]) => start >= from && start <= to)
    const byKind = new Map<string, { count: number; ms: number; max: number }>()
    for (const [, duration, kind] of inWindowGc) {
      const entry = byKind.get(kinds[kind] ?? String(kind)) ?? { count: 0, ms: 0, max: 0 }
      entry.count++
      entry.ms += duration
      entry.max = Math.max(entry.max, duration)
      byKind.set(kinds[kind] ?? String(kind), entry)
    }
    const total = inWindowGc.reduce((sum, [, duration]) => sum + duration, 0)
    console.log(
      `  gc, ${thread} thread: ${(total / (to - from) * 100).toFixed(1)} % of the window; ` +
        [...byKind].map(([kind, e]) => `${kind} ${e.count}x, ${e.ms.toFixed(0)} ms, max ${e.max.toFixed(1)} ms`).join('; '),
    )
  }
  const long = [...gc.broker, ...gc.worker].filter(([, duration]) => duration >= 10)

  const slowest = [...records].sort((a, b) => b.acked - b.received - (a.acked - a.received)).slice(0, Math.max(1, Math.ceil(records.length / 100)))
  const paused = slowest.filter((r) => long.some(([start, duration]) => start < r.acked && start + duration > r.received)).length
  const pausedAll = records.filter((r) => long.some(([start, duration]) => start < r.acked && start + duration > r.received)).length
  console.log(`  messages overlapping a pause >= 10 ms: slowest 1 % ${paused} of ${slowest.length}, all ${pausedAll} of ${records.length}`)
  console.log(`  the slowest 1 % (${slowest.length}), mean per stage: ${STAGES.map(([name, of]) => `${name.split(' (')[0]} ${(slowest.reduce((sum, r) => sum + of(r), 0) / slowest.length).toFixed(1)}`).join(', ')}`)
  summarizeStalls(batchList, checkpoints, gc.worker, records, slowest, from, to)
}

/** The worker's time in garbage collection between `start` and `end` (epoch ms). */
function gcWithin(pauses: TraceGc[], start: number, end: number) {
  return pauses.reduce((sum, [at, duration]) => sum + Math.max(0, Math.min(end, at + duration) - Math.max(start, at)), 0)
}

/**
 * What made the slow batches slow: a WAL checkpoint inside their commit (the worker's stamps mark
 * it), garbage collection in their window, or neither; and how the slowest 1 % of messages met the
 * checkpoints (in their batch, or one ran while they were queued).
 */
function summarizeStalls(batchList: TraceBatch[], checkpoints: TraceCheckpoint[], workerGc: TraceGc[], records: TraceRecord[], slowest: TraceRecord[], from: number, to: number) {
  const batches = batchList.filter(([start]) => start >= from && start <= to)
  if (!batches.length) return
  const durations = batches.map(([start, committed]) => committed - start).sort((a, b) => a - b)
  const median = quantile(durations, 50)
  const describe = (group: TraceBatch[]) => {
    if (!group.length) return '0'
    const mean = group.reduce((sum, [start, committed]) => sum + committed - start, 0) / group.length
    const gcMean = group.reduce((sum, [start, committed]) => sum + gcWithin(workerGc, start, committed), 0) / group.length
    return `${group.length} (mean ${mean.toFixed(1)} ms, gc in them ${gcMean.toFixed(1)} ms)`
  }
  const slow = batches.filter(([start, committed]) => committed - start > 2 * median)
  const withCheckpoint = batches.filter(([, , , copied]) => copied > 0)
  console.log(
    `  batches with a checkpoint in their commit: ${describe(withCheckpoint)}; ` +
      `batches over 2x the median (${median.toFixed(1)} ms): ${slow.length}, of them with a checkpoint ${describe(slow.filter(([, , , copied]) => copied > 0))}, ` +
      `without ${describe(slow.filter(([, , , copied]) => copied === 0))}; the rest ${describe(batches.filter(([start, committed, , copied]) => copied === 0 && committed - start <= 2 * median))}`,
  )
  const walFrames = batches.map(([, , , , frames]) => frames)
  console.log(`  WAL frames after a batch: max ${Math.max(...walFrames)}; frames copied per in-commit checkpoint: ${withCheckpoint.map(([, , , copied]) => copied).join(', ') || '-'}`)
  const between = checkpoints.filter(([start]) => start >= from && start <= to)
  if (between.length) {
    const took = between.map(([, duration]) => duration).sort((a, b) => a - b)
    console.log(
      `  checkpoints between batches: ${between.length}, ${quantile(took, 50).toFixed(1)} ms p50, ${took.at(-1)!.toFixed(1)} ms max, ` +
        `frames copied p50 ${quantile(between.map(([, , copied]) => copied).sort((a, b) => a - b), 50)}, WAL frames max ${Math.max(...between.map(([, , , frames]) => frames))}`,
    )
  }
  // a message met a checkpoint when one ran in its batch's commit, or between batches while it waited in the worker
  const checkpointBatchStarts = new Set(withCheckpoint.map(([start]) => start))
  const inCheckpointBatch = (r: TraceRecord) => checkpointBatchStarts.has(r.batchStart)
  const queuedBehind = (r: TraceRecord) =>
    withCheckpoint.some(([start, committed]) => committed > r.posted && start < r.batchStart) || between.some(([start, duration]) => start + duration > r.posted && start < r.batchStart)
  const share = (group: TraceRecord[], test: (r: TraceRecord) => boolean) => `${group.filter(test).length} of ${group.length}`
  const gcInBatch = slowest.reduce((sum, r) => sum + gcWithin(workerGc, r.batchStart, r.committed), 0) / slowest.length
  console.log(
    `  messages with a checkpoint in their batch: slowest 1 % ${share(slowest, inCheckpointBatch)}, all ${share(records, inCheckpointBatch)}; ` +
      `queued behind one: slowest 1 % ${share(slowest, queuedBehind)}, all ${share(records, queuedBehind)}; worker gc within the slowest 1 %'s batches ${gcInBatch.toFixed(1)} ms on average`,
  )
}
