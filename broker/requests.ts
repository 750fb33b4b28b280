/**
 * What happens to an allowed publish, in both broker modes: a request is parsed, validated, run
 * through the domain (agent-gateway.server.ts) and answered on the matching res topic; a status
 * message reports presence. The embedded broker calls this from aedes' publish hook, the external
 * broker's ingest workers for each message taken from the broker's queue.
 */
import { DomainError } from '../app/domain/errors'
import { agentPresence, handleCall, handleReceivedCall, isPermanentFailure, registerAgent } from '../ingest/agent-gateway.server'
import { type Identity } from '../protocol'
import {
  PROVISION_CALL,
  agentCallSchemas,
  agentResponseTopic,
  isAgentCall,
  maxPayloadBytes,
  provisionResponseTopic,
  registerRequestSchema,
  statusMessageSchema,
  type ErrorResponse,
  type ParsedTopic,
} from '../protocol'

export type MessageContext = {
  /** who sent it, for log lines */
  clientId: string
  ip: string | null
  /** true while the sender's connection is closing (its Will) */
  closing: boolean
  /** publishes a response; `body` is already serialized when the ingest worker built it */
  respond: (topic: string, body: unknown) => Promise<void>
  refuse: (reason: string) => void
  /**
   * Whether a failed commit is answered ("it will be retried") before the failure is thrown. Both
   * brokers retry a failed message themselves and log an outage once (ingest-retry.ts): the
   * embedded broker answers the first attempt only (one answer per message, not per attempt), the
   * external broker's consumer none (the agent hears nothing until the message is stored).
   */
  answerFailures: boolean
}

/** Storing the message failed; `permanent`: because of the message itself (retrying will not help). */
export class IngestFailure extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message)
  }
}

/**
 * Handles one message the ACL allowed (broker/acl.ts publishAllowed). Resolves once its effect is
 * committed and the response published; rejects only when the commit itself failed, so the broker
 * withholds the acknowledgement and the message is delivered again.
 */
export async function dispatchMessage(identity: Identity, topic: ParsedTopic, payload: Buffer, ctx: MessageContext): Promise<void> {
  if (identity.kind === 'provision') {
    return runRequest(ctx, payload, PROVISION_CALL, provisionResponseTopic(identity.clientId), (json, meta) => registerAgent(registerRequestSchema.parse(json), meta))
  }
  if (topic.scope !== 'agent') return
  if (topic.kind === 'status') return handleStatus(identity.agentId, payload, ctx)
  if (topic.kind !== 'req') return
  const call = topic.call
  if (!isAgentCall(call)) {
    await ctx.respond(agentResponseTopic(identity.agentId, call as never), errorResponse(null, 'unknown-call', `Unknown call ${call}`))
    return ctx.refuse(`unknown call ${call}`)
  }
  const responseTopic = agentResponseTopic(identity.agentId, call)
  if (call !== 'selfEnroll') {
    // parsed, validated and committed off this thread by the ingest worker (raw bytes in, response text out)
    const outcome = await handleReceivedCall(identity.agentId, call, payload, { ip: ctx.ip, receivedAt: new Date() })
    if (outcome.refusal) ctx.refuse(outcome.refusal)
    // The write failed: no acknowledgement; the broker retries it (and the client resends it after a reconnect).
    if (outcome.failed && !ctx.answerFailures) throw new IngestFailure(outcome.failed, outcome.permanent === true)
    await ctx.respond(responseTopic, outcome.response)
    if (outcome.failed) throw new IngestFailure(outcome.failed, outcome.permanent === true)
    return
  }
  return runRequest(ctx, payload, call, responseTopic, (json, meta) => handleCall(identity.agentId, call, agentCallSchemas[call].request.parse(json) as never, meta))
}

/** Parses, validates and runs one request, then publishes the response; rejects only when the commit itself failed. */
async function runRequest(ctx: MessageContext, payload: Buffer, call: string, responseTopic: string, run: (json: unknown, meta: { ip: string | null; receivedAt: Date }) => Promise<unknown>) {
  const receivedAt = new Date()
  let requestId: string | null = null
  const reject = (code: string, message: string, issues?: { path: string; message: string }[]) => {
    ctx.refuse(`${call}: ${code}: ${message}`)
    return ctx.respond(responseTopic, errorResponse(requestId, code, message, issues))
  }
  if (payload.length > maxPayloadBytes(call)) return reject('payload-too-large', `${call} payload of ${payload.length} bytes exceeds ${maxPayloadBytes(call)} bytes`)
  let json: unknown
  try {
    json = JSON.parse(payload.toString('utf8'))
  } catch {
    return reject('invalid-json', 'Payload is not valid JSON')
  }
  if (json && typeof json === 'object' && typeof (json as { requestId?: unknown }).requestId === 'string') requestId = (json as { requestId: string }).requestId.slice(0, 64)
  try {
    const result = await run(json, { ip: ctx.ip, receivedAt })
    await ctx.respond(responseTopic, { requestId, ok: true, result })
  } catch (error) {
    if (error instanceof Error && error.name === 'ZodError') {
      const issues = (error as unknown as { issues: { path: (string | number)[]; message: string }[] }).issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
      return reject('invalid-payload', issues[0] ? `${issues[0].path || 'payload'}: ${issues[0].message}` : 'Invalid payload', issues)
    }
    if (error instanceof DomainError) return reject(error.code, error.message)
    const failure = new IngestFailure(error instanceof Error ? error.message : String(error), isPermanentFailure(error))
    if (!ctx.answerFailures) throw failure
    await ctx.respond(responseTopic, errorResponse(requestId, 'internal', 'The request could not be stored; it will be retried'))
    throw failure
  }
}

async function handleStatus(agentId: string, payload: Buffer, ctx: MessageContext) {
  const parsed = statusMessageSchema.safeParse(safeJson(payload))
  if (!parsed.success) return ctx.refuse(`status message of ${agentId} is not {online: boolean}`)
  // A Will arrives while the client is closing; an explicit status while it is connected.
  const will = ctx.closing || !parsed.data.online
  await agentPresence(agentId, parsed.data.online, { will }).catch((error: Error) => {
    // an agent that no longer exists has no presence to store; anything else is retried like a report
    if (error instanceof DomainError) return ctx.refuse(`status of ${agentId}: ${error.message}`)
    throw new IngestFailure(error.message, isPermanentFailure(error))
  })
}

export function errorResponse(requestId: string | null, code: string, message: string, issues?: { path: string; message: string }[]): ErrorResponse {
  return { requestId, ok: false, error: { code, message, ...(issues ? { issues } : {}) } }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'))
  } catch {
    return null
  }
}
