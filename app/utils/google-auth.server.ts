import { z } from 'zod'
import { type PendingGoogleSignIn } from '~/domain/auth/google.server'
import { hostCookie } from './host-cookie.server'

/**
 * State, PKCE verifier and nonce of a Google sign-in in progress. httpOnly, 10 minutes, SameSite=Lax
 * so it comes back on Google's top-level redirect to the callback; `__Host-` prefixed over HTTPS.
 */
export const googleSignInCookie = hostCookie('pf_google', { httpOnly: true, sameSite: 'lax', maxAge: 600 })

const pendingSchema = z.object({ state: z.string(), verifier: z.string(), nonce: z.string(), redirectTo: z.string() })

export async function readPendingGoogleSignIn(request: Request): Promise<PendingGoogleSignIn | null> {
  const parsed = pendingSchema.safeParse(await googleSignInCookie.parse(request.headers.get('cookie')))
  return parsed.success ? parsed.data : null
}
