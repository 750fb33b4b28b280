import { z } from 'zod'
import { DEFAULT_PROVISIONING_KEY } from '../protocol'
import { SCENARIO_NAMES } from './scenarios'

const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** '5s', '500ms', '2m', '1h' or plain seconds ('5') to milliseconds; null when unreadable. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(text)
  if (!match) return null
  return Math.round(Number(match[1]) * UNITS_MS[(match[2] ?? 's').toLowerCase()])
}

const duration = (name: string, minMs: number) =>
  z
    .union([z.number(), z.string()])
    .transform((value, ctx) => {
      const ms = typeof value === 'number' ? value : parseDuration(value)
      if (ms === null || !Number.isFinite(ms)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a duration such as 5s, 500ms or 2m` })
        return z.NEVER
      }
      if (ms < minMs) ctx.addIssue({ code: 'custom', message: `${name} must be at least ${minMs} ms` })
      return ms
    })

export const brokerUrlSchema = z
  .string()
  .url('the broker address must look like mqtt://localhost:1883 or ws://localhost:3000/mqtt')
  .refine((u) => /^(mqtts?|wss?|tcp):\/\//i.test(u), 'the broker address must start with mqtt://, mqtts://, ws:// or wss://')

/** Options of a simulated fleet, validated at every entry (CLI, npm start, tests). */
export const fleetOptionsSchema = z
  .object({
    agents: z.coerce.number().int('agents must be a whole number').min(1, 'agents must be at least 1').max(100_000, 'agents must be at most 100000').default(10),
    /** how often each agent reports its state (number = milliseconds) */
    interval: duration('interval', 200).default('10s'),
    scenario: z.enum(SCENARIO_NAMES, { errorMap: () => ({ message: `scenario must be one of ${SCENARIO_NAMES.join(', ')}` }) }).default('mixed'),
    /** same seed, same agents (serials, names, devices) and the same faults */
    seed: z.union([z.number().int(), z.string().min(1)]).default(1),
    /** index of the first agent, so several fleets with one seed do not overlap */
    firstIndex: z.coerce.number().int().min(0).default(0),
    url: brokerUrlSchema.default('mqtt://localhost:1883'),
    provisioningKey: z.string().min(1).default(DEFAULT_PROVISIONING_KEY),
    /** where agent ids and secrets are kept between runs; null keeps nothing (new agents every run) */
    stateDir: z.string().min(1).nullable().default('./data/simulator'),
    /** 'minimal' = one small wall per agent (large fleets, benchmarks) */
    profile: z.enum(['standard', 'minimal']).default('standard'),
    /** agents connecting at the same time */
    concurrency: z.coerce.number().int().min(1, 'concurrency must be at least 1').max(1000, 'concurrency must be at most 1000').default(20),
    organizationId: z.string().min(1).optional(),
    /** agents are spread over these projects in turn */
    projectIds: z.array(z.string().min(1)).default([]),
  })
  .superRefine((o, ctx) => {
    if (o.organizationId && o.projectIds.length === 0) ctx.addIssue({ code: 'custom', path: ['projectIds'], message: 'auto-enroll needs a project as well as the organization' })
    if (!o.organizationId && o.projectIds.length) ctx.addIssue({ code: 'custom', path: ['organizationId'], message: 'auto-enroll needs the organization of the project' })
  })

export type FleetOptionsInput = z.input<typeof fleetOptionsSchema>
export type FleetSettings = z.output<typeof fleetOptionsSchema>

/** Problems of a zod result as one readable line per option. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('\n')
}
