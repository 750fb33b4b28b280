/**
 * The agent protocol, version 1: the zod schema of every payload and response envelope, with the
 * error codes an agent can be answered. Additive changes only (see topics.ts).
 */
import { z } from 'zod'
import { type AgentCall } from './topics'

// ---------------------------------------------------------------------------- envelopes

/**
 * Correlation: every request may carry `requestId` (any string up to 64 characters, e.g. a counter
 * or uuid); the response on the matching res topic echoes it. A field rather than MQTT 5
 * correlationData so MQTT 3.1.1 agents and log readers see it too.
 */
const requestId = z.string().min(1).max(64).optional()

export const errorResponseSchema = z.object({
  requestId: z.string().nullable(),
  ok: z.literal(false),
  error: z.object({
    /** invalid-json | invalid-payload | payload-too-large | unknown-call | not-enrolled | internal */
    code: z.string(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
})
export type ErrorResponse = z.infer<typeof errorResponseSchema>

/** Builds the schema of a successful response around a result schema. */
export const okResponseSchema = <T extends z.ZodTypeAny>(result: T) =>
  z.object({ requestId: z.string().nullable(), ok: z.literal(true), result })

/** A response is either `{ok: true, result}` or `{ok: false, error}`. */
export const responseSchema = <T extends z.ZodTypeAny>(result: T) => z.union([okResponseSchema(result), errorResponseSchema])

// --------------------------------------------------------------------------- shared parts

/** Severity levels (spec 01/02 section 3): critical 2, error 3, warning 4, notice 5, info 6, invalid -1. */
export const SEVERITY_VALUES = [-1, 2, 3, 4, 5, 6] as const
export const severitySchema = z
  .number()
  .int()
  .refine((v) => (SEVERITY_VALUES as readonly number[]).includes(v), 'severity must be one of -1, 2, 3, 4, 5, 6')

export const COMPONENTS = ['display', 'matrix', 'other', 'pdu', 'processor', 'projector', 'receiver', 'switch', 'system'] as const
export const componentSchema = z.enum(COMPONENTS)
export type Component = z.infer<typeof componentSchema>

/** ISO 8601 with offset (e.g. 2025-03-01T12:00:00.000Z) or epoch milliseconds. */
export const timestampSchema = z.union([z.string().datetime({ offset: true }), z.number().int().nonnegative()])

const text = (max: number) => z.string().max(max)
const id = z.string().min(1).max(128)

// ------------------------------------------------------------------------------- register

export const registerRequestSchema = z.object({
  requestId,
  product: text(100).min(1),
  serial: text(100).min(1),
  version: text(50).default(''),
  name: text(200).default(''),
})
export const registerResultSchema = z.object({ agentId: z.string(), secret: z.string() })

// ---------------------------------------------------------------------- createApplication

export const createApplicationRequestSchema = z.object({ requestId })
export const createApplicationResultSchema = z.object({
  /** display form XXX-XX-XXX */
  applicationCode: z.string(),
  created: z.string(),
  expires: z.string(),
})

// ----------------------------------------------------------------------------------- ping

export const tcpMetricsSchema = z.object({
  dataSegsOut: z.number().int().nonnegative(),
  dsackDups: z.number().int().nonnegative(),
  totalRetrans: z.number().int().nonnegative(),
})
export type TcpMetrics = z.infer<typeof tcpMetricsSchema>

/**
 * Tunnel state as the agent sees it (spec 01 section 4): true connected, false remote connect
 * disabled on the agent, null unable to establish the tunnel, a string = unavailable with that message.
 */
export const tunnelStatusSchema = z.union([z.boolean(), z.null(), z.string().max(500)])

export const pingRequestSchema = z.object({ requestId, metrics: tcpMetricsSchema, tunnel: tunnelStatusSchema.optional() })
export const pingResultSchema = z.object({ lastSeen: z.string(), lastIp: z.string().nullable(), metrics: tcpMetricsSchema })

// ---------------------------------------------------------------------- updateClientState

export const deviceSchema = z.object({
  /** stable within the system */
  id,
  component: componentSchema,
  product: text(100).default(''),
  serial: text(100).default(''),
  name: text(200).default(''),
  /** id of the parent device in the same system */
  parent: id.nullable().optional(),
  versionSoftware: text(100).nullable().optional(),
  versionFirmware: text(100).nullable().optional(),
  /** genlockFrequency, inputSource, inputFormat, tilesInfo and any further device-specific values */
  properties: z
    .object({
      genlockFrequency: z.union([z.number(), z.string().max(50)]).nullable().optional(),
      inputSource: text(100).nullable().optional(),
      inputFormat: text(100).nullable().optional(),
      tilesInfo: z.unknown().optional(),
    })
    .passthrough()
    .default({}),
  /** how many identical units this entry stands for (e.g. 24 tiles) */
  count: z.number().int().min(0).default(1),
})
export type DeviceReport = z.input<typeof deviceSchema>

export const historyEntrySchema = z.object({ timestamp: timestampSchema, count: z.number().int().min(0) })

/** An alert or a deviation; `key` is stable across reports (e.g. recv.tempHigh). */
export const issueReportSchema = z.object({
  key: id,
  component: componentSchema,
  /** id of the device concerned, when it is one device */
  device: id.nullable().optional(),
  message: text(1000).default(''),
  severity: severitySchema,
  /** oldest first; the last entry decides whether the issue is active */
  history: z.array(historyEntrySchema).max(500).default([]),
})
export type IssueReport = z.input<typeof issueReportSchema>

export const systemReportSchema = z.object({
  id,
  name: text(200).default(''),
  devices: z.array(deviceSchema).max(5000).default([]),
  alerts: z.array(issueReportSchema).max(2000).default([]),
  deviations: z.array(issueReportSchema).max(2000).default([]),
})
export type SystemReport = z.input<typeof systemReportSchema>

export const updateClientStateRequestSchema = z.object({ requestId, systems: z.array(systemReportSchema).max(100) })
export type UpdateClientStateRequest = z.input<typeof updateClientStateRequestSchema>
export const updateClientStateResultSchema = z.object({ systems: z.number(), devices: z.number(), alerts: z.number(), deviations: z.number() })

// ------------------------------------------------------------------- client/tunnel config

/** Free-form agent configuration (JSON object) kept by the portal. */
export const clientConfigSchema = z.record(z.unknown())

export const getClientConfigRequestSchema = z.object({ requestId })
/** Also the retained payload on the config topic. */
export const clientConfigResultSchema = z.object({
  config: clientConfigSchema,
  organizationId: z.string().nullable(),
  enrolled: z.boolean(),
})
export type ClientConfigResult = z.infer<typeof clientConfigResultSchema>

export const setClientConfigRequestSchema = z.object({ requestId, config: clientConfigSchema })

export const getTunnelConfigRequestSchema = z.object({ requestId })
export const tunnelConfigResultSchema = z.object({
  /** false until the agent is enrolled and the relay is available */
  enabled: z.boolean(),
  /** the relay's public base address, no trailing slash */
  relayUrl: z.string(),
})

/** Last Will (and optional explicit) status message. */
export const statusMessageSchema = z.object({ online: z.boolean() })

// ------------------------------------------------------------------------------ selfEnroll

/**
 * selfEnroll: an agent that is not enrolled yet asks to join an organization/project pair that
 * site admins allowed (Admin > Utility, 'Agent Self-Enroll'). Served by selfEnroll() in
 * app/domain/agents/enrollment.server.ts; refused (permission-denied) for any other pair and
 * (failed-precondition) for an agent that is already enrolled. The new config follows on the
 * retained config topic, as after a person enrolls the agent.
 */
export const selfEnrollRequestSchema = z.object({ requestId, organizationId: id, projectId: id })
export const selfEnrollResultSchema = z.object({ organizationId: z.string(), projectId: z.string() })

// --------------------------------------------------------------------------- call table

/** Request and result schemas per agent call: the broker validates with these, agents type with them. */
export const agentCallSchemas = {
  createApplication: { request: createApplicationRequestSchema, result: createApplicationResultSchema },
  ping: { request: pingRequestSchema, result: pingResultSchema },
  updateClientState: { request: updateClientStateRequestSchema, result: updateClientStateResultSchema },
  getClientConfig: { request: getClientConfigRequestSchema, result: clientConfigResultSchema },
  setClientConfig: { request: setClientConfigRequestSchema, result: clientConfigResultSchema },
  getTunnelConfig: { request: getTunnelConfigRequestSchema, result: tunnelConfigResultSchema },
  selfEnroll: { request: selfEnrollRequestSchema, result: selfEnrollResultSchema },
} as const satisfies Record<AgentCall, { request: z.ZodTypeAny; result: z.ZodTypeAny }>

export type AgentCallRequest<C extends AgentCall> = z.input<(typeof agentCallSchemas)[C]['request']>
export type AgentCallPayload<C extends AgentCall> = z.output<(typeof agentCallSchemas)[C]['request']>
export type AgentCallResult<C extends AgentCall> = z.infer<(typeof agentCallSchemas)[C]['result']>
export type RegisterRequest = z.input<typeof registerRequestSchema>
export type RegisterResult = z.infer<typeof registerResultSchema>
