/**
 * The one interface the MQTT broker has to the domain (like ThingsBoard's TransportService):
 * check credentials, register new agents, run calls, report presence, read the configuration to
 * push. The broker knows topics; everything about rows lives behind here.
 *
 * Entry points for transports: `handleCall` (a validated payload; any transport, e.g. AMQP
 * consumers) and `handleReceivedCall` (raw payload bytes: parsed, validated and committed in the
 * ingest worker, which also serializes the response). Both settle after the commit; calls are
 * queued and batched behind them (worker.server.ts).
 */
import { timingSafeEqual } from 'node:crypto'
import { type AgentCall, type AgentCallPayload, type AgentCallResult, type ClientConfigResult, type RegisterResult, type registerRequestSchema } from '../protocol'
import { randomToken, sha256 } from '../app/domain/auth/crypto.server'
import { emitChange, onChange } from '../app/domain/events/bus.server'
import { getConfig } from '~/utils/env.server'
import { prisma } from '~/utils/db.server'
import { type z } from 'zod'
import { selfEnroll } from '../app/domain/agents/enrollment.server'
import { agentCredentials } from './pipeline.server'
import { type CallMeta } from './batch.server'
import { isIngestChange } from '../app/domain/events/ingest-origin.server'
import { forgetAgents } from './cache.server'
import { clientConfigOf, type IngestCall } from './calls.server'
import { drainIngestService, ingest, ingestAgentPresence, ingestReceived, ingestServed, ingestWorkerEnabled, runningIngestWorker, startIngestWorker } from './worker.server'
import { type RawOutcome } from './raw.server'

export type { CallMeta } from './batch.server'

const sameText = (a: string, b: string) => {
  const left = Buffer.from(sha256(a))
  const right = Buffer.from(sha256(b))
  return timingSafeEqual(left, right)
}

export function isProvisioningKey(password: string): boolean {
  return sameText(password, getConfig().PROVISIONING_KEY)
}

export type AgentAuthentication = { ok: true } | { ok: false; reason: 'unknown-agent' | 'bad-secret' | 'disabled' }

/**
 * Agent secrets are 32 random bytes kept as SHA-256: a fast hash is safe for a random 256-bit
 * secret (nothing to guess from a dictionary) and affordable for a fleet reconnecting at once.
 */
export async function authenticateAgent(agentId: string, secret: string): Promise<AgentAuthentication> {
  // A prepared statement rather than a Prisma query: a fleet reconnecting after a restart authenticates thousands at once.
  const agent = await agentCredentials(agentId)
  if (!agent) return { ok: false, reason: 'unknown-agent' }
  if (!timingSafeEqual(Buffer.from(agent.secretHash), Buffer.from(sha256(secret)))) return { ok: false, reason: 'bad-secret' }
  if (!agent.enabled) return { ok: false, reason: 'disabled' }
  return { ok: true }
}

/** register: a new, not yet enrolled agent with a fresh secret (returned once, stored hashed). */
export async function registerAgent(input: z.output<typeof registerRequestSchema>, meta: CallMeta): Promise<RegisterResult> {
  const secret = randomToken(32)
  const agent = await prisma.$transaction(async (tx) => {
    const created = await tx.agent.create({
      data: { product: input.product, serial: input.serial, version: input.version, clientName: input.name, secretHash: sha256(secret), lastIp: meta.ip },
    })
    const hour = new Date(Math.floor(meta.receivedAt.getTime() / 3_600_000) * 3_600_000)
    await tx.usageCounter.create({ data: { agentId: created.id, hour, call: 'register', count: 1 } })
    await tx.agentEvent.create({ data: { agentId: created.id, type: 'register' } })
    return created
  })
  return { agentId: agent.id, secret }
}

/** Runs one validated call of an authenticated agent; resolves after its effect is committed. */
export async function handleCall<C extends AgentCall>(agentId: string, call: C, payload: AgentCallPayload<C>, meta: CallMeta): Promise<AgentCallResult<C>> {
  if (call === 'selfEnroll') {
    const { organizationId, projectId } = payload as AgentCallPayload<'selfEnroll'>
    // Served by the enrollment domain (its own transaction and audit record), counted like every call.
    const result = await selfEnroll({ kind: 'agent', agentId, ip: meta.ip ?? '' }, { organizationId, projectId })
    await ingestServed(agentId, 'selfEnroll')
    return result as AgentCallResult<C>
  }
  return ingest(agentId, call as Exclude<C, 'selfEnroll'>, payload as AgentCallPayload<Exclude<C, 'selfEnroll'>>, meta) as Promise<AgentCallResult<C>>
}

/**
 * One ingest call as received: the raw payload is parsed, validated and committed off the
 * broker thread; resolves with the serialized response to publish (refusals included) and
 * `failed` when the commit failed (no PUBACK then).
 */
export function handleReceivedCall(agentId: string, call: IngestCall, payload: Buffer, meta: CallMeta): Promise<RawOutcome> {
  return ingestReceived(agentId, call, payload, meta)
}

/** The agent's MQTT session opened or closed (`will` = closed without DISCONNECT). */
export function agentPresence(agentId: string, online: boolean, meta: { will?: boolean } = {}): Promise<void> {
  return ingestAgentPresence(agentId, online, meta)
}

/** The retained config payloads of these agents (missing agents are left out). */
export async function agentConfigs(agentIds: string[]): Promise<Map<string, ClientConfigResult>> {
  const rows = await prisma.agent.findMany({ where: { id: { in: agentIds } }, select: { id: true, config: true, organizationId: true } })
  return new Map(rows.map((row) => [row.id, clientConfigOf(row)]))
}

/**
 * Calls back with agent ids whose configuration may have changed outside ingest (enrollment,
 * removal, settings), so the broker republishes their retained config topic. Also keeps ingest's
 * caches honest.
 */
export function onAgentConfigChange(listener: (agentIds: string[] | 'all') => void): () => void {
  return onChange((event) => {
    if (isIngestChange()) return
    forgetAgents(event)
    if (event.kind === 'agent') listener(event.ids?.length ? event.ids : 'all')
    else if (event.kind === 'organization') listener('all')
  })
}

/** Announces agents the broker marked offline in bulk (shutdown), without per-agent writes. */
export async function markAllOffline() {
  await drainIngestService()
  const { count } = await prisma.agent.updateMany({ where: { online: true }, data: { online: false } })
  if (count) emitChange({ organizationId: null, kind: 'agent' })
}

export { drainIngestService as drainIngest, startIngestWorker as startIngest }
export { isPermanentFailure } from './failures.server'
/** Per-message stage timing for the ingest benchmark (INGEST_TRACE; off otherwise). */
export { traceAcked, traceReceived } from './trace'

/** Readiness (/readyz): null when ingest can take messages, else why not. */
export function ingestProblem(): string | null {
  const worker = runningIngestWorker()
  return ingestWorkerEnabled() && worker && !worker.running ? 'the ingest worker thread is restarting' : null
}
/** Agents currently marked online (external broker mode pushes their config after organization-wide changes). */
export async function onlineAgentIds(): Promise<string[]> {
  const rows = await prisma.agent.findMany({ where: { online: true }, select: { id: true } })
  return rows.map((row) => row.id)
}
