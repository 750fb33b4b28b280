import { redirect } from '@remix-run/node'
import { type User } from '@prisma/client'
import { type UserActor } from '~/domain/actor'
import { resolveToken, userActor, type RequestInfo } from '~/domain/auth/session.server'
import { getConfig } from './env.server'
import { hostCookie } from './host-cookie.server'
import { isReadRequest, markRequestScoped, memoOn, requestOwner } from './request-scope.server'

/** The server sets this header from the socket address (any inbound value is discarded). */
export const CLIENT_IP_HEADER = 'x-pixelfleet-client-ip'

/** `__Host-pf_session` over HTTPS, `pf_session` over http (app/utils/host-cookie.server.ts decides). */
export const sessionCookie = hostCookie('pf_session', { httpOnly: true, sameSite: 'lax' })

export function requestInfo(request: Request): RequestInfo {
  return { ip: request.headers.get(CLIENT_IP_HEADER) ?? '', userAgent: request.headers.get('user-agent') ?? '' }
}

export async function readSessionToken(request: Request): Promise<string | null> {
  const bearer = request.headers.get('authorization')?.match(/^Bearer\s+(.+)$/i)?.[1]
  if (bearer) return bearer
  const value = await sessionCookie.parse(request.headers.get('cookie'))
  return typeof value === 'string' ? value : null
}

/** Set by the server (request-guards.ts): the scheme the browser used, through trusted proxies only. */
export const CLIENT_PROTO_HEADER = 'x-pixelfleet-client-proto'

/** Secure cookies when PUBLIC_URL is https or the browser reached us over TLS (TRUST_PROXY). */
const secureFor = (request?: Request) => getConfig().publicUrl.startsWith('https:') || request?.headers.get(CLIENT_PROTO_HEADER) === 'https'

export async function commitSessionCookie(token: string, expires: Date, request?: Request) {
  return sessionCookie.serialize(token, { expires, secure: secureFor(request) })
}

export async function clearSessionCookie(request?: Request) {
  return sessionCookie.serialize('', { maxAge: 0, secure: secureFor(request) })
}

export type CurrentUser = { user: User; actor: UserActor }

/** The signed-in user, or null. A disabled account is signed out with its error. */
export async function getCurrentUser(request: Request): Promise<CurrentUser | null> {
  // every loader of one page asks (each with a copy of the request); a read request looks the session up once
  if (isReadRequest(request)) return memoOn(requestOwner(request), 'current-user', () => loadCurrentUser(request, true))
  return loadCurrentUser(request, false)
}

async function loadCurrentUser(request: Request, scoped: boolean): Promise<CurrentUser | null> {
  const identity = await resolveToken(await readSessionToken(request))
  if (identity.status === 'disabled') {
    // The session cookie is kept (its session is ended for good): the sign-in page says why for as
    // long as the browser holds it, so a request racing this one (live updates, a second tab) cannot
    // clear it and leave the person on a bare sign-in form.
    if (isSignInPath(request)) return null
    throw redirect('/login?error=mvr-auth/disabled')
  }
  if (identity.status !== 'ok') return null
  const actor = userActor(identity.user, requestInfo(request), identity.grant)
  if (scoped) markRequestScoped(actor)
  return { user: identity.user, actor }
}

const isSignInPath = (request: Request) => /^\/login(\/|\.data|$)/.test(new URL(request.url).pathname)

/** True when the browser's session was ended because an admin disabled the account. */
export async function sessionEndedByDisable(request: Request): Promise<boolean> {
  const token = await readSessionToken(request)
  return token ? (await resolveToken(token)).status === 'disabled' : false
}

/** Route guard: no signed-in user -> /login with a redirect query holding the full path. */
export async function requireUser(request: Request): Promise<CurrentUser> {
  const current = await getCurrentUser(request)
  if (!current) {
    const url = new URL(request.url)
    const target = url.pathname + url.search
    throw redirect(`/login?redirect=${encodeURIComponent(target)}`)
  }
  return current
}

/** Admin routes: a user without the admin claim goes to /. */
export async function requireSiteAdmin(request: Request): Promise<CurrentUser> {
  const current = await requireUser(request)
  if (!current.user.isAdmin) throw redirect('/')
  return current
}

/** Only same-origin relative paths are followed (no open redirects): see safe-redirect.ts. */
export { safeRedirect } from './safe-redirect'
