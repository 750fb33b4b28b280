import mqtt, { type IClientOptions, type MqttClient } from 'mqtt'
import { type z } from 'zod'
import { responseSchema } from '../protocol'

/** A call the portal answered with `{ok: false, error}`, or that got no answer in time. */
export class AgentCallError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
    this.name = 'AgentCallError'
  }
}

/**
 * CONNACK 'bad user name or password' (MQTT 3.1.1: 4, MQTT 5: 134): the broker does not know these
 * credentials. 'Not authorized' (5, 135, e.g. a disabled agent) is deliberately not included.
 */
const BAD_CREDENTIALS = new Set([4, 134])
export const isBadCredentials = (error: unknown) => BAD_CREDENTIALS.has((error as { code?: number }).code ?? -1)

/** Any CONNACK refusal (MQTT 3.1.1 return codes 1-5, MQTT 5 reason codes 128 and up). */
export const isConnackRefusal = (error: unknown) => {
  const code = (error as { code?: unknown }).code
  return typeof code === 'number' && code > 0 && /^Connection refused/.test((error as Error).message ?? '')
}

/** The wait before reconnect attempt `attempt` after refusals: 1 s doubling to 60 s, ±25 % jitter (a fleet must not return in step). */
export function refusalBackoffMs(attempt: number, random = Math.random): number {
  return Math.round(Math.min(60_000, 1000 * 2 ** Math.min(attempt - 1, 10)) * (0.75 + random() * 0.5))
}

/**
 * Keeps a connected client reconnecting after CONNACK refusals, with backoff: a broker whose auth
 * backend is unreachable (RabbitMQ with the portal down) refuses every agent as if its credentials
 * were wrong, and mqtt.js stops reconnecting after a refusal by default. The agent cannot tell
 * that from a real refusal, so it keeps trying, less and less often, until accepted.
 */
export function reconnectAfterRefusals(client: MqttClient) {
  const base = client.options.reconnectPeriod ?? 2000
  let refusals = 0
  client.options.reconnectOnConnackError = true
  // the refusal is emitted before mqtt.js schedules the reconnect with this period
  client.on('error', (error) => {
    if (isConnackRefusal(error)) client.options.reconnectPeriod = refusalBackoffMs(++refusals)
  })
  client.on('connect', () => {
    refusals = 0
    client.options.reconnectPeriod = base
  })
}

/**
 * Opens an MQTT connection and resolves once the broker accepted it. Refused credentials reject
 * at once; an unreachable broker is retried (mqtt.js reconnects) until `timeoutMs`.
 */
export function openConnection(url: string, options: IClientOptions, timeoutMs: number): Promise<MqttClient> {
  return new Promise((resolve, reject) => {
    const client = mqtt.connect(url, { reconnectPeriod: 2000, connectTimeout: 10_000, ...options })
    const finish = (error?: Error) => {
      clearTimeout(timer)
      client.off('connect', onConnect)
      client.off('error', onError)
      if (!error) return resolve(client)
      client.end(true)
      reject(error)
    }
    const onConnect = () => finish()
    const onError = (error: Error) => finish(error)
    const timer = setTimeout(() => finish(new Error(`Cannot reach the MQTT broker at ${url} (no connection within ${Math.round(timeoutMs / 1000)} s)`)), timeoutMs)
    client.on('connect', onConnect)
    client.on('error', onError)
  })
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void; schema: z.ZodTypeAny; timer: NodeJS.Timeout }

/**
 * Request/response over MQTT as protocol/ defines it: publish `{requestId, ...}` with
 * QoS 1 on a req topic, match the answer on the res topic by requestId.
 */
export class MqttRpc {
  private readonly pending = new Map<string, Pending>()
  private counter = 0

  constructor(
    private readonly client: MqttClient,
    private readonly timeoutMs: number,
  ) {}

  /** Feeds a received message; returns false when it was not an answer to one of our requests. */
  handle(payload: Buffer): boolean {
    let body: unknown
    try {
      body = JSON.parse(payload.toString('utf8'))
    } catch {
      return false
    }
    const requestId = (body as { requestId?: unknown })?.requestId
    const pending = typeof requestId === 'string' ? this.pending.get(requestId) : undefined
    if (!pending) return false
    this.settle(requestId as string)
    const parsed = responseSchema(pending.schema).safeParse(body)
    if (!parsed.success) pending.reject(new AgentCallError('invalid-response', `Unexpected answer: ${parsed.error.issues[0]?.message ?? 'invalid'}`))
    else if (parsed.data.ok) pending.resolve(parsed.data.result)
    else pending.reject(new AgentCallError(parsed.data.error.code, parsed.data.error.message))
    return true
  }

  call<S extends z.ZodTypeAny>(topic: string, params: object, resultSchema: S): Promise<z.infer<S>> {
    const requestId = String(++this.counter)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(requestId)
        reject(new AgentCallError('timeout', `No answer on ${topic} within ${Math.round(this.timeoutMs / 1000)} s`))
      }, this.timeoutMs)
      this.pending.set(requestId, { resolve, reject, schema: resultSchema, timer })
      this.client.publish(topic, JSON.stringify({ ...params, requestId }), { qos: 1 }, (error) => {
        if (!error) return
        this.settle(requestId)
        reject(error)
      })
    })
  }

  /** Fails every open request (connection closed for good). */
  rejectAll(error: Error) {
    for (const [requestId, pending] of this.pending) {
      this.settle(requestId)
      pending.reject(error)
    }
  }

  private settle(requestId: string) {
    const pending = this.pending.get(requestId)
    if (pending) clearTimeout(pending.timer)
    this.pending.delete(requestId)
  }
}
