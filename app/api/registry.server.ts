import { type z } from 'zod'
import { type UserActor } from '~/domain/actor'
import { type RequestInfo } from '~/domain/auth/session.server'
import { closed } from './closed-schema.server'

/** Context of one /client/v1 call. `actor` is present for signed-in callers (cookie or bearer). */
export type ApiContext = { actor: UserActor | null; info: RequestInfo; request: Request; token: string | null }

export type ApiCall<S extends z.ZodTypeAny = z.ZodTypeAny> = {
  /** public calls need no sign-in (public/auth/...) */
  public?: boolean
  input: S
  /** What the call answers, as JSON (app/api/outputs/): documented in openapi.json, checked in tests. */
  output: z.ZodTypeAny
  handler: (ctx: ApiContext & { actor: UserActor }, input: z.output<S>) => Promise<object>
  publicHandler?: never
  /**
   * The field holding one object the domain checks as a unit (a window, a project's doc): its
   * issues are reported relative to it, as the domain always did and the web forms expect.
   */
  payloadField?: string
}
export type PublicApiCall<S extends z.ZodTypeAny = z.ZodTypeAny> = {
  public: true
  input: S
  output: z.ZodTypeAny
  handler: (ctx: ApiContext, input: z.output<S>) => Promise<object>
  payloadField?: string
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each call keeps its own schema type
export type ApiCalls = Record<string, ApiCall<any> | PublicApiCall<any>>

/** A signed-in call; its input is closed (unknown keys refused at every level, closed-schema.server.ts). */
export const defineCall = <S extends z.ZodTypeAny>(call: ApiCall<S>): ApiCall<S> => ({ ...call, input: closed(call.input) })
export const definePublicCall = <S extends z.ZodTypeAny>(call: Omit<PublicApiCall<S>, 'public'>): PublicApiCall<S> => ({
  ...call,
  input: closed(call.input),
  public: true,
})

/** Zod issues of a call's input as the API reports them (see payloadField). */
export function inputIssues(call: Pick<ApiCall, 'payloadField'>, issues: z.ZodIssue[]): z.ZodIssue[] {
  const field = call.payloadField
  if (!field) return issues
  return issues.map((issue) => (issue.path[0] === field && issue.path.length > 1 ? { ...issue, path: issue.path.slice(1) } : issue))
}

/**
 * The answer as it leaves the server (JSON), checked against the call's output schema: null when
 * it fits, else the problems. Used where API_CHECK_OUTPUT is on (tests), so the documented schemas
 * cannot drift from what the calls return without a test failing; production skips the cost.
 */
export function outputDrift(call: Pick<ApiCall, 'output'>, result: object): string | null {
  const parsed = call.output.safeParse(JSON.parse(JSON.stringify(result)))
  if (parsed.success) return null
  return parsed.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ')
}
