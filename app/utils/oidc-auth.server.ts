import { redirect } from '@remix-run/node'
import { z } from 'zod'
import { finishOidcSignIn, OidcProviderError, type PendingOidcSignIn } from '~/domain/auth/oidc.server'
import { DomainError } from '~/domain/errors'
import { commitSessionCookie, requestInfo, safeRedirect } from './auth.server'
import { hostCookie } from './host-cookie.server'

/**
 * State, PKCE verifier and nonce of an OpenID Connect sign-in in progress. httpOnly, 10 minutes,
 * SameSite=Lax so it comes back on the provider's top-level redirect to the callback; `__Host-`
 * prefixed over HTTPS.
 */
export const oidcSignInCookie = hostCookie('pf_oidc', { httpOnly: true, sameSite: 'lax', maxAge: 600 })

const pendingSchema = z.object({ state: z.string(), verifier: z.string(), nonce: z.string(), redirectTo: z.string() })

export async function readPendingOidcSignIn(request: Request): Promise<PendingOidcSignIn | null> {
  const parsed = pendingSchema.safeParse(await oidcSignInCookie.parse(request.headers.get('cookie')))
  return parsed.success ? parsed.data : null
}

/** The provider sends the browser back here (auth/google/callback or auth/oidc/callback); on success a session starts. */
export async function oidcCallbackLoader(request: Request) {
  const pending = await readPendingOidcSignIn(request)
  const headers = new Headers({ 'Set-Cookie': await oidcSignInCookie.serialize('', { maxAge: 0 }) })
  try {
    const { session, redirectTo } = await finishOidcSignIn(new URL(request.url).search, pending, requestInfo(request))
    headers.append('Set-Cookie', await commitSessionCookie(session.token, session.expiresAt, request))
    return redirect(safeRedirect(redirectTo), { headers })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    if (error.code === 'auth/oidc-failed') console.warn(`[auth] ${error.message}`)
    // Only the provider's OAuth error code travels in the URL (the login page words it); its free text stays in the log.
    const reason = error instanceof OidcProviderError ? `&reason=${error.providerCode}` : ''
    return redirect(`/login?error=${encodeURIComponent(error.code)}${reason}`, { headers })
  }
}
