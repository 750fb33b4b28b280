/**
 * Ingest as the rest of the process sees it: one service whose calls settle after their commit.
 * By default it runs in a worker thread (thread.server.ts) that parses, validates and
 * commits on its own SQLite connection, so the broker thread only speaks MQTT; INGEST_WORKER=0
 * runs the same engine (pipeline.server.ts) in this thread on Prisma's connection instead.
 *
 * Requests are posted to the worker once per turn of the event loop (one message for everything
 * the broker read in that I/O phase); raw requests are packed into one buffer of that turn that is
 * then transferred, not cloned (handoff.ts). The worker posts back replies and the change events of each committed
 * batch, which are emitted here so the main thread's subscribers (live views, notifications,
 * config push) see them as ingest's own. Change events others emit here go to the worker so its
 * caches forget what changed.
 *
 * A worker that dies is restarted; what it had not replied to is rejected, so the broker sends no
 * PUBACK and the agent resends (nothing acknowledged is lost: the PUBACK follows the commit).
 */
import { Worker } from 'node:worker_threads'
import { type AgentCall, type AgentCallPayload, type AgentCallResult } from '../protocol'
import { getConfig, onConfigChange } from '~/utils/env.server'
import { onChange } from '../app/domain/events/bus.server'
import { DomainError } from '../app/domain/errors'
import { countServedCall, drainIngest, ingestCall, ingestPresence } from './pipeline.server'
import { type CallMeta } from './batch.server'
import { announceIngestChanges, isIngestChange } from '../app/domain/events/ingest-origin.server'
import { type IngestCall } from './calls.server'
import { ingestRaw, type RawOutcome } from './raw.server'
import { addIngestStats } from './stats'
import { componentLogger } from '~/utils/logger.server'
import type { FromWorker, SerializedError, ToWorker, WorkerRequest } from './thread.server'
import { RequestPacker, unpackResponses } from './handoff'
import { startTracing, traceAnswered, tracePosted, traceRequest, tracing } from './trace'

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void }
type NewRequest = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never

const log = componentLogger('ingest')

/** The worker runs unless INGEST_WORKER is 0/false (e.g. to profile ingest in one thread). */
export const ingestWorkerEnabled = () => !['0', 'false', 'off', 'no'].includes((process.env.INGEST_WORKER ?? '').toLowerCase())

/** A restart after a crash waits this long when the previous worker lived less than a second (a worker that cannot start). */
const RESTART_BACKOFF_MS = 1000

/**
 * Each batch keeps its parsed reports alive until its commit, so with V8's default young
 * generation many survive a scavenge and are copied (profiles: 18-30 % of the worker's time in
 * GC). A larger nursery lets more of them die young; bounded so the worker's RSS stays modest.
 */
const YOUNG_GENERATION_MB = Number(process.env.INGEST_WORKER_YOUNG_MB ?? 32)

class IngestWorker {
  private worker: Worker | null = null
  private startedAt = 0
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  /** this turn's requests, sent to the worker in one message at its end */
  private outbox = new RequestPacker<WorkerRequest>()
  private scheduled = false
  private stopped = false
  private restarts = 0
  private readonly unsubscribe: () => void
  private readonly unsubscribeConfig: () => void

  constructor() {
    startTracing(getConfig().INGEST_TRACE)
    // Someone else changed agents or systems: the worker's caches must forget them.
    this.unsubscribe = onChange((event) => {
      if (!isIngestChange()) this.post({ type: 'forget', event })
    })
    // The worker's copy of the configuration follows the main thread's (relay address bound after start).
    this.unsubscribeConfig = onConfigChange((config) => this.post({ type: 'config', config }))
    this.start()
  }

  /** Whether a worker thread is up now (readiness: false between a crash and its restart). */
  get running() {
    return this.worker !== null
  }

  /** How many times the worker was restarted after dying (tests, logs). */
  get restartCount() {
    return this.restarts
  }

  private start() {
    const url = new URL('./thread.boot.mjs', import.meta.url)
    // The loader is registered by the boot file; CPU profiling flags carry over (bench --profile).
    const execArgv = process.execArgv.filter((flag) => flag.startsWith('--cpu-prof'))
    const worker = new Worker(url, { workerData: { config: getConfig() }, execArgv, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } })
    worker.unref()
    worker.on('message', (message: FromWorker) => this.receive(message))
    worker.on('error', (error) => log.error(`ingest worker failed: ${error.stack ?? error.message}`))
    worker.on('exit', () => this.exited(worker))
    this.worker = worker
    this.startedAt = Date.now()
  }

  private exited(worker: Worker) {
    if (this.worker !== worker) return
    this.worker = null
    const lost = [...this.pending.values()]
    this.pending.clear()
    // requests not yet posted were among those rejected: posting them to the next worker would
    // store what their callers were told to retry (a second copy)
    if (this.outbox.count) this.outbox.take()
    for (const p of lost) p.reject(new Error('The ingest worker stopped before committing; the request will be retried'))
    if (this.stopped) return
    this.restarts++
    const delay = Date.now() - this.startedAt < 1000 ? RESTART_BACKOFF_MS : 0
    setTimeout(() => {
      if (!this.stopped) this.start()
      this.scheduleSend()
    }, delay).unref()
  }

  private receive(message: FromWorker) {
    if (message.stats) addIngestStats(message.stats)
    if (message.changes.length) announceIngestChanges(message.changes)
    if (message.trace) traceAnswered(message.trace)
    if (message.responses) unpackResponses(message.responses, this.answer)
    for (const reply of message.replies) {
      const pending = this.pending.get(reply.id)
      if (!pending) continue
      this.pending.delete(reply.id)
      if (reply.ok) pending.resolve(reply.value)
      else pending.reject(deserialize(reply.error))
    }
  }

  /** A raw request answered with its response text alone (stored, or refused with nothing to log). */
  private readonly answer = (id: number, response: string) => {
    const pending = this.pending.get(id)
    if (!pending) return
    this.pending.delete(id)
    pending.resolve({ response } satisfies RawOutcome)
  }

  private post(message: ToWorker) {
    this.worker?.postMessage(message)
  }

  request<T>(request: NewRequest): Promise<T> {
    if (this.stopped) return Promise.reject(new Error('Ingest is stopped'))
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      // the caller's fresh object takes the id (no copy of every request)
      const queued = request as WorkerRequest
      queued.id = id
      this.outbox.object(queued)
      this.scheduleSend()
    })
  }

  /** One request as received: packed into this turn's buffer (the payload, a view into the socket's read buffer, copied there). */
  requestRaw(agentId: string, call: IngestCall, payload: Uint8Array, meta: CallMeta): Promise<RawOutcome> {
    if (this.stopped) return Promise.reject(new Error('Ingest is stopped'))
    const id = this.nextId++
    return new Promise<RawOutcome>((resolve, reject) => {
      this.outbox.raw(id, call, agentId, meta.ip, meta.receivedAt, payload)
      if (tracing) traceRequest(id)
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.scheduleSend()
    })
  }

  /** Everything requested during one I/O phase goes to the worker in one message. */
  private scheduleSend() {
    if (this.scheduled || !this.outbox.count) return
    this.scheduled = true
    setImmediate(() => {
      this.scheduled = false
      if (!this.worker) return
      const { packed, bytes, objects } = this.outbox.take()
      const message: ToWorker = { type: 'requests', packed, bytes, requests: objects }
      this.worker.postMessage(message, [packed])
      if (tracing) tracePosted()
    })
  }

  /** Tests only: the worker dies as in a crash, with whatever it holds in flight. */
  crash() {
    this.post({ type: 'crash' })
  }

  async stop() {
    this.stopped = true
    this.unsubscribe()
    this.unsubscribeConfig()
    const worker = this.worker
    this.worker = null
    for (const p of this.pending.values()) p.reject(new Error('Ingest is stopped'))
    this.pending.clear()
    await worker?.terminate()
  }
}

function deserialize(error: SerializedError): Error {
  if (error.code !== undefined) return new DomainError(error.code, error.message, error.status, error.issues)
  const result = new Error(error.message)
  result.name = error.name
  return result
}

let instance: IngestWorker | null = null
const worker = () => (instance ??= new IngestWorker())

/** The ingest worker of this process, if one runs (tests). */
export const runningIngestWorker = () => instance

/** Starts the worker now rather than on the first call (broker start: no first-message delay, idle memory measured with it). */
export function startIngestWorker() {
  if (ingestWorkerEnabled()) worker()
}

/** Stops the worker (tests, shutdown after drain); the next ingest call starts a new one. */
export async function stopIngestWorker() {
  const current = instance
  instance = null
  await current?.stop()
}

// ------------------------------------------------------------------------- the service

/** One validated agent call; settles after its commit. */
export function ingest<C extends IngestCall>(agentId: string, call: C, payload: AgentCallPayload<C>, meta: CallMeta): Promise<AgentCallResult<C>> {
  if (!ingestWorkerEnabled()) return ingestCall(agentId, call, payload, meta)
  return worker().request({ kind: 'call', agentId, call, payload, meta })
}

/** One request as received (raw payload bytes): parsed, validated and committed off this thread. */
export function ingestReceived(agentId: string, call: IngestCall, payload: Buffer, meta: CallMeta): Promise<RawOutcome> {
  if (!ingestWorkerEnabled()) return ingestRaw(agentId, call, payload, meta)
  return worker().requestRaw(agentId, call, payload, meta)
}

export function ingestServed(agentId: string, call: AgentCall): Promise<void> {
  if (!ingestWorkerEnabled()) return countServedCall(agentId, call)
  return worker().request({ kind: 'served', agentId, call })
}

export function ingestAgentPresence(agentId: string, online: boolean, meta: { will?: boolean }): Promise<void> {
  if (!ingestWorkerEnabled()) return ingestPresence(agentId, online, meta)
  return worker().request({ kind: 'presence', agentId, online, will: meta.will ?? false })
}

/** Waits until everything requested so far is committed. */
export async function drainIngestService(): Promise<void> {
  await drainIngest()
  if (instance) await instance.request({ kind: 'drain' }).catch(() => undefined)
}
