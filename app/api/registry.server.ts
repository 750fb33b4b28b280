import { type z } from 'zod'
import { type UserActor } from '~/domain/actor'
import { type RequestInfo } from '~/domain/auth/session.server'

/** Context of one /client/v1 call. `actor` is present for signed-in callers (cookie or bearer). */
export type ApiContext = { actor: UserActor | null; info: RequestInfo; request: Request; token: string | null }

export type ApiCall<S extends z.ZodTypeAny = z.ZodTypeAny> = {
  /** public calls need no sign-in (public/auth/...) */
  public?: boolean
  input: S
  handler: (ctx: ApiContext & { actor: UserActor }, input: z.output<S>) => Promise<object>
  publicHandler?: never
}
export type PublicApiCall<S extends z.ZodTypeAny = z.ZodTypeAny> = {
  public: true
  input: S
  handler: (ctx: ApiContext, input: z.output<S>) => Promise<object>
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each call keeps its own schema type
export type ApiCalls = Record<string, ApiCall<any> | PublicApiCall<any>>

export const defineCall = <S extends z.ZodTypeAny>(call: ApiCall<S>) => call
export const definePublicCall = <S extends z.ZodTypeAny>(call: Omit<PublicApiCall<S>, 'public'>): PublicApiCall<S> => ({
  ...call,
  public: true,
})
