/**
 * One agent request as the broker received it (topic call + raw payload bytes) turned into the
 * response to publish: size check, JSON parse, zod validation, the ingest call (settles after its
 * commit), the response serialized. Runs in the ingest worker so none of it costs the broker
 * thread; the broker only publishes `response` and sends the PUBACK unless `failed` is set.
 */
import { agentCallSchemas, maxPayloadBytes, type ErrorResponse } from '../protocol'
import { DomainError } from '../app/domain/errors'
import { ingestCall } from './pipeline.server'
import { type CallMeta } from './batch.server'
import { type IngestCall } from './calls.server'
import { fastSafeParse } from './validate.server'
import { isPermanentFailure } from './failures.server'

export type RawOutcome = {
  /** the JSON response for the agent's res topic */
  response: string
  /** why the request was refused (invalid payload, unknown agent): logged by the broker, still acknowledged */
  refusal?: string
  /** the commit failed: no PUBACK, the agent resends (or the external broker's consumer retries) */
  failed?: string
  /** with `failed`: the message itself cannot be stored (a constraint, a value out of range), retrying will not help */
  permanent?: boolean
}

const errorResponse = (requestId: string | null, code: string, message: string, issues?: { path: string; message: string }[]): ErrorResponse => ({
  requestId,
  ok: false,
  error: { code, message, ...(issues ? { issues } : {}) },
})

/** A request refused while parsing or validating it (inside its batch): the outcome to answer with. */
class RefusedRequest extends Error {
  constructor(readonly outcome: RawOutcome) {
    super(outcome.refusal)
  }
}

function refusal(call: IngestCall, requestId: string | null, code: string, message: string, issues?: { path: string; message: string }[]): RawOutcome {
  return { response: JSON.stringify(errorResponse(requestId, code, message, issues)), refusal: `${call}: ${code}: ${message}` }
}

/** Decodes like Buffer#toString('utf8'): a byte order mark is kept (and refused by JSON.parse). */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** JSON parse and validation; `request.requestId` is set as soon as it is known (refusals carry it). */
function parseRequest(call: IngestCall, payload: Uint8Array, request: { requestId: string | null }) {
  let json: unknown
  try {
    json = JSON.parse(utf8.decode(payload))
  } catch {
    throw new RefusedRequest(refusal(call, null, 'invalid-json', 'Payload is not valid JSON'))
  }
  if (json && typeof json === 'object' && typeof (json as { requestId?: unknown }).requestId === 'string') request.requestId = (json as { requestId: string }).requestId.slice(0, 64)
  // zod's result, by a compiled fast path (validate.server.ts) unless the payload is invalid
  const parsed = fastSafeParse(agentCallSchemas[call].request, json)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))
    throw new RefusedRequest(refusal(call, request.requestId, 'invalid-payload', issues[0] ? `${issues[0].path || 'payload'}: ${issues[0].message}` : 'Invalid payload', issues))
  }
  return parsed.data as never
}

// No named closures per request here: under tsx (dev and production) each one costs a
// defineProperty of its name (esbuild keepNames), ~3 % of the worker's time per report.
export async function ingestRaw(agentId: string, call: IngestCall, payload: Uint8Array, meta: CallMeta): Promise<RawOutcome> {
  if (payload.byteLength > maxPayloadBytes(call)) return refusal(call, null, 'payload-too-large', `${call} payload of ${payload.byteLength} bytes exceeds ${maxPayloadBytes(call)} bytes`)
  const request = { requestId: null as string | null }
  try {
    // parsed and validated when its batch runs: until then the request holds only its bytes
    const result = await ingestCall(agentId, call, () => parseRequest(call, payload, request), meta)
    return { response: JSON.stringify({ requestId: request.requestId, ok: true, result }) }
  } catch (error) {
    if (error instanceof RefusedRequest) return error.outcome
    if (error instanceof DomainError) return refusal(call, request.requestId, error.code, error.message)
    return {
      response: JSON.stringify(errorResponse(request.requestId, 'internal', 'The request could not be stored; it will be retried')),
      failed: error instanceof Error ? error.message : String(error),
      permanent: isPermanentFailure(error),
    }
  }
}
