import * as oidc from 'openid-client'
import { DomainError } from '../errors'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { normalizeEmail, startSignedInSession } from './account.server'
import { type RequestInfo } from './session.server'

/** What the browser keeps (in a short-lived httpOnly cookie) between the redirect and the callback. */
export type PendingGoogleSignIn = { state: string; verifier: string; nonce: string; redirectTo: string }

export const GOOGLE_CALLBACK_PATH = '/auth/google/callback'

export const googleSignInEnabled = () => Boolean(getConfig().GOOGLE_CLIENT_ID)

const discovered = new Map<string, Promise<oidc.Configuration>>()

/** The issuer's metadata, discovered once per issuer and client (a failed discovery is retried next time). */
function googleConfiguration(): Promise<oidc.Configuration> {
  const { GOOGLE_ISSUER: issuer, GOOGLE_CLIENT_ID: clientId, GOOGLE_CLIENT_SECRET: secret } = getConfig()
  if (!clientId) throw new DomainError('auth/google-disabled', 'Google sign-in is not configured', 404)
  const key = `${issuer} ${clientId}`
  let pending = discovered.get(key)
  if (!pending) {
    // A plain-http issuer is only ever a local stand-in (tests, development).
    const execute = issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : []
    pending = oidc.discovery(new URL(issuer), clientId, secret, undefined, { execute })
    pending.catch(() => discovered.delete(key))
    discovered.set(key, pending)
  }
  return pending.catch((error: Error) => {
    throw new DomainError('auth/google-unavailable', `Google sign-in is unavailable: ${error.message}`, 502)
  })
}

const callbackUrl = () => `${getConfig().publicUrl}${GOOGLE_CALLBACK_PATH}`

/** Authorization-code flow with PKCE: the address to send the browser to, and what to remember. */
export async function startGoogleSignIn(redirectTo: string): Promise<{ authorizationUrl: string; pending: PendingGoogleSignIn }> {
  const config = await googleConfiguration()
  const pending = { state: oidc.randomState(), verifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce(), redirectTo }
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(),
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
    prompt: 'select_account',
  })
  return { authorizationUrl: url.href, pending }
}

/**
 * The callback: checks state, exchanges the code (with the PKCE verifier), verifies the ID token
 * (signature, issuer, audience, nonce), then finds or creates the user and opens a session.
 */
export async function finishGoogleSignIn(search: string, pending: PendingGoogleSignIn | null, info: RequestInfo) {
  if (!pending) {
    throw new DomainError('auth/google-expired', 'The Google sign-in took too long or was started in another browser. Please try again.', 400)
  }
  const config = await googleConfiguration()
  let claims: oidc.IDToken | undefined
  try {
    const tokens = await oidc.authorizationCodeGrant(config, new URL(`${callbackUrl()}${search}`), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    })
    claims = tokens.claims()
  } catch (error) {
    // openid-client wraps the specific reason (e.g. 'unexpected "state" response parameter value') as the cause.
    const { message, cause } = error as Error
    throw new DomainError('auth/google-failed', `Google sign-in failed: ${cause instanceof Error ? cause.message : message}`, 401)
  }
  if (!claims) throw new DomainError('auth/google-failed', 'Google sign-in failed: no ID token', 401)
  const user = await findOrCreateGoogleUser(claims)
  if (user.isAgent) throw new DomainError('auth/invalid-credential', 'This account cannot sign in here', 403)
  if (user.disabled) throw new DomainError('mvr-auth/disabled', 'Account was administratively disabled', 403)
  if (!user.emailVerified) throw new DomainError('mvr-auth/unverified', 'Unverified email address', 403)
  return { session: await startSignedInSession(user.id, info, 'google'), redirectTo: pending.redirectTo }
}

async function findOrCreateGoogleUser(claims: oidc.IDToken) {
  const linked = await prisma.user.findUnique({ where: { googleSubject: claims.sub } })
  if (linked) return linked
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : ''
  // Only an address Google has verified may be matched or used for a new account.
  if (!email || claims.email_verified !== true) throw new DomainError('mvr-auth/unverified', 'Unverified email address', 403)
  const existing = await prisma.user.findUnique({ where: { email } })
  if (existing) {
    return prisma.user.update({
      where: { id: existing.id },
      // An unverified password account may have been registered by someone else with this address:
      // its password is dropped so only the mailbox owner (now proven by Google) gets in.
      data: { googleSubject: claims.sub, emailVerified: true, ...(existing.emailVerified ? {} : { passwordHash: null }) },
    })
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : email
  const photoUrl = typeof claims.picture === 'string' ? claims.picture : null
  return prisma.user.create({ data: { email, name, provider: 'google', googleSubject: claims.sub, emailVerified: true, photoUrl } })
}
