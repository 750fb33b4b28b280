// node --import tsx bench/ingest-cpu.ts [--agents 500] [--rounds 40] [--batch 250] [--profile file.cpuprofile] [--checkpoints between|commit] [--idle-pages 2000]
// The ingest worker's work alone, in this thread, without MQTT or a scheduler race: raw
// updateClientState payloads (the same ~2.4 KB reports as bench/ingest.ts) go through ingestRaw
// (size check, JSON parse, validation, the batch transaction, the response) in batches like the
// worker receives them. Prints CPU time per message (user + system of this process), which barely
// depends on the machine's load, and the time spent in garbage collection. `--checkpoints between`
// (default) checkpoints the WAL between batches like the worker (ingest/checkpoints.server.ts),
// `commit` in the commit that crosses wal_autocheckpoint (before decision 090); batches are 2 ms
// apart (the round trip to the broker), so the worker is idle between them.
import fs from 'node:fs'
import path from 'node:path'
import { Session } from 'node:inspector/promises'
import { PerformanceObserver } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { agentCallSchemas } from '../protocol'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, prisma } from '../app/utils/db.server'
import { ingestBusy, writeIngestOn } from '../ingest/pipeline.server'
import { CHECKPOINT_HARD_PAGES, CHECKPOINT_IDLE_PAGES, WalCheckpoints, walIndexReader } from '../ingest/checkpoints.server'
import { ingestRaw } from '../ingest/raw.server'
import { openIngestDatabase } from '../ingest/sql-sqlite.server'
import { stateOf } from './state-report'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    agents: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '40' },
    batch: { type: 'string', default: '250' },
    profile: { type: 'string', default: '' },
    checkpoints: { type: 'string', default: 'between' },
    // the idle threshold of `between` (CHECKPOINT_IDLE_PAGES), to compare others
    'idle-pages': { type: 'string', default: String(CHECKPOINT_IDLE_PAGES) },
  },
})
if (!['between', 'commit'].includes(values.checkpoints!)) throw new Error('--checkpoints must be between or commit')
const AGENTS = Number(values.agents)
const ROUNDS = Number(values.rounds)
const BATCH = Number(values.batch)
const file = `/tmp/pixelfleet-ingest-cpu-${process.pid}.db`
const databaseUrl = `file:${file}`

async function main() {
  fs.rmSync(file, { force: true })
  await migrateDatabase(databaseUrl, root)
  setConfig(loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', SEED_DEMO: 'false' }))
  const ids = Array.from({ length: AGENTS }, (_, i) => `cpu-agent-${String(i).padStart(6, '0')}`)
  await prisma.agent.createMany({ data: ids.map((id) => ({ id, secretHash: 'x', product: 'Bench', serial: id })) })
  await disconnectDatabase()
  const db = openIngestDatabase(databaseUrl)
  const walIndex = walIndexReader(file)!
  const checkpoints = values.checkpoints === 'between' ? new WalCheckpoints(db, walIndex, ingestBusy, { idlePages: Number(values['idle-pages']), hardPages: CHECKPOINT_HARD_PAGES }) : null
  writeIngestOn(db, () => {}, checkpoints && (() => checkpoints.afterBatch()))
  const now = Date.now()
  const minute = now - (now % 60_000)
  // like real agents: a requestId of their own on every request
  let requestNo = 0
  const payload = (agent: number, count: number) => new Uint8Array(Buffer.from(JSON.stringify({ ...stateOf(agent, minute, count), requestId: String(++requestNo) })))
  const meta = { ip: '127.0.0.1', receivedAt: new Date() }
  const send = async (from: number, round: number) => {
    const jobs = []
    for (let i = 0; i < BATCH; i++) {
      const agent = (from + i) % AGENTS
      jobs.push(ingestRaw(ids[agent], 'updateClientState', payload(agent, round % 20 < 10 ? 1 : 0), { ...meta, receivedAt: new Date() }))
    }
    const outcomes = await Promise.all(jobs)
    const bad = outcomes.find((o) => o.refusal || o.failed)
    if (bad) throw new Error(bad.refusal ?? bad.failed)
  }
  for (let a = 0; a < AGENTS; a += BATCH) await send(a, 0) // first reports create the rows
  let gcMs = 0
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration
  })
  observer.observe({ entryTypes: ['gc'] })
  // payload building is measured apart and subtracted
  const build = process.cpuUsage()
  for (let r = 0; r < ROUNDS * BATCH; r++) payload(r % AGENTS, r)
  const buildUs = process.cpuUsage(build)
  const session = values.profile ? new Session() : null
  if (session) {
    session.connect()
    await session.post('Profiler.enable')
    await session.post('Profiler.start')
  }
  const start = process.cpuUsage()
  const started = performance.now()
  // wall time per batch: a commit that checkpoints the WAL stands out
  const batchMs: number[] = []
  // the gaps between batches hold the checkpoints of `--checkpoints between` (a gap of 2 ms without one)
  const gapMs: number[] = []
  // the batches whose commit ran a checkpoint, and the gaps that did (the wal-index's copied frames rose)
  const checkpointBatchMs: number[] = []
  const checkpointGapMs: number[] = []
  for (let r = 1; r <= ROUNDS; r++) {
    const before = walIndex()?.backfilled ?? 0
    const batchStarted = performance.now()
    await send((r * BATCH) % AGENTS, r)
    batchMs.push(performance.now() - batchStarted)
    const afterBatch = walIndex()?.backfilled ?? 0
    if (afterBatch > before) checkpointBatchMs.push(batchMs.at(-1)!)
    const gapStarted = performance.now()
    await new Promise((resolve) => setTimeout(resolve, 2))
    gapMs.push(performance.now() - gapStarted)
    if ((walIndex()?.backfilled ?? 0) > afterBatch) checkpointGapMs.push(gapMs.at(-1)!)
  }
  const used = process.cpuUsage(start)
  const wall = performance.now() - started - gapMs.reduce((sum, g) => sum + g, 0)
  observer.disconnect()
  if (session) {
    const { profile } = await session.post('Profiler.stop')
    fs.writeFileSync(values.profile!, JSON.stringify(profile))
    session.disconnect()
  }
  const messages = ROUNDS * BATCH
  const cpuMs = (used.user + used.system - buildUs.user - buildUs.system) / 1000

  console.log(
    `${messages} messages in batches of ${BATCH}: ${(cpuMs / messages).toFixed(3)} ms CPU per message (${(wall / messages).toFixed(3)} ms wall), GC ${(gcMs / messages).toFixed(3)} ms per message`,
  )
  batchMs.sort((a, b) => a - b)
  const at = (p: number) => batchMs[Math.min(batchMs.length - 1, Math.floor((batchMs.length * p) / 100))].toFixed(1)
  const list = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ') || '-'
  console.log(`wall per batch (payload building included): p50 ${at(50)} ms, p90 ${at(90)} ms, max ${batchMs.at(-1)!.toFixed(1)} ms; with a checkpoint in the commit: ${list(checkpointBatchMs)} ms`)
  gapMs.sort((a, b) => a - b)
  console.log(`gaps between batches (a 2 ms timer): p50 ${gapMs[gapMs.length >> 1].toFixed(1)} ms, max ${gapMs.at(-1)!.toFixed(1)} ms; with a checkpoint: ${list(checkpointGapMs)} ms`)
  void agentCallSchemas
  // the WAL and its index too (the connection is still open: SQLite would leave them behind)
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true })
}

await main()
