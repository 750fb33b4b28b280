import { type ActionFunctionArgs } from '@remix-run/node'
import { apiCalls } from '~/api/index.server'
import { inputIssues, outputDrift, type ApiContext } from '~/api/registry.server'
import { DomainError, fromZodIssues } from '~/domain/errors'
import { recordTokenCall } from '~/domain/audit/api-calls.server'
import { resolveToken, userActor } from '~/domain/auth/session.server'
import { readSessionToken, requestInfo } from '~/utils/auth.server'
import { getConfig } from '~/utils/env.server'
import { isUnavailableError, unavailableApiResponse } from '~/utils/errors.server'
import { componentLogger } from '~/utils/logger.server'

const log = componentLogger('api')

const json = (body: object, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' } })

const error = (code: string, message: string, status: number, issues?: unknown[]) =>
  json({ code, message, ...(issues && issues.length ? { issues } : {}) }, status)

export const loader = () => error('method-not-allowed', 'Use POST with a JSON body', 405)

/**
 * POST /client/v1/{name}?time=...: JSON in, always a JSON object out; errors as { code, message }:
 * 503 `unavailable` with Retry-After while the database or broker is briefly unavailable, 500
 * `internal` for anything unexpected (never Remix's text/plain error).
 */
export async function action(args: ActionFunctionArgs) {
  try {
    return await answer(args)
  } catch (e) {
    if (isUnavailableError(e)) return unavailableApiResponse()
    log.error(`${args.params['*'] ?? ''} failed: ${(e as Error)?.stack ?? e}`, { call: args.params['*'] ?? '' })
    return error('internal', 'An unrecognized error has occurred', 500)
  }
}

async function answer({ request, params }: ActionFunctionArgs) {
  if (request.method !== 'POST') return error('method-not-allowed', 'Use POST with a JSON body', 405)
  const name = params['*'] ?? ''
  const call = Object.hasOwn(apiCalls, name) ? apiCalls[name] : undefined
  if (!call) return error('not-found', `Unknown call '${name}'`, 404)

  let body: unknown = {}
  let text: string
  try {
    text = await request.text()
  } catch {
    // Unreadable (an aborted upload, or one cut off by the server's body cap with its own 413).
    return error('invalid-argument', 'The request body could not be read', 400)
  }
  if (text.trim().length > 0) {
    try {
      body = JSON.parse(text)
    } catch {
      return error('invalid-argument', 'The request body is not valid JSON', 400)
    }
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return error('invalid-argument', 'The request body must be a JSON object', 400)
  }

  const info = requestInfo(request)
  const token = await readSessionToken(request)
  const identity = await resolveToken(token)
  if (identity.status === 'disabled') {
    // The browser keeps its (ended) session cookie: its next page load lands on the login page with
    // this message (app/utils/auth.server.ts), however many requests race to get there.
    return error('mvr-auth/disabled', 'Account was administratively disabled', 403)
  }
  if (identity.status === 'expired') {
    return error('mvr-auth/token-expired', `The API token "${identity.tokenName}" expired on ${identity.expiredAt.toISOString().slice(0, 10)}. Create a new one under Settings > API Tokens.`, 401)
  }
  const actor = identity.status === 'ok' ? userActor(identity.user, info, identity.grant) : null
  // Site-admin calls answer 403 to everyone who is not a site admin, signed in or not (issue 9),
  // before the body is checked: validation errors give outsiders no hints. The domain checks again.
  if (!call.public && !actor?.isSiteAdmin && name.startsWith('admin/')) return error('permission-denied', 'Only site administrators may do this', 403)
  if (!call.public && !actor) return error('mvr-auth/notloggedin', 'Not logged in', 401)

  const parsed = call.input.safeParse(body)
  if (!parsed.success) {
    const e = fromZodIssues(inputIssues(call, parsed.error.issues))
    return error(e.code, e.message, e.status, e.issues)
  }
  const response = await run(call, name, { actor, info, request, token }, parsed.data)
  await recordTokenCall(actor, name, response.status)
  return response
}

async function run(call: (typeof apiCalls)[string], name: string, ctx: ApiContext, input: unknown): Promise<Response> {
  try {
    const result = (await (call.handler as (c: ApiContext, i: unknown) => Promise<object>)(ctx, input)) ?? {}
    const config = getConfig()
    if (config.API_CHECK_OUTPUT ?? config.NODE_ENV !== 'production') {
      const drift = outputDrift(call, result)
      if (drift) {
        log.error(`${name} answered outside its output schema: ${drift}`, { call: name })
        return error('internal', `${name} answered outside its output schema (app/api/outputs): ${drift}`, 500)
      }
    }
    return json(result)
  } catch (e) {
    if (e instanceof DomainError) return error(e.code, e.message, e.status, e.issues)
    if (isUnavailableError(e)) return unavailableApiResponse()
    log.error(`${name} failed: ${(e as Error)?.stack ?? e}`, { call: name })
    return error('internal', 'An unrecognized error has occurred', 500)
  }
}
