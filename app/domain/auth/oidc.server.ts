import * as oidc from 'openid-client'
import { DomainError } from '../errors'
import { prisma } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { normalizeEmail, startSignedInSession } from './account.server'
import { oidcSettingsFrom, type OidcSettings } from './oidc-settings.server'
import { type RequestInfo } from './session.server'

/** What the browser keeps (in a short-lived httpOnly cookie) between the redirect and the callback. */
export type PendingOidcSignIn = { state: string; verifier: string; nonce: string; redirectTo: string }

export const oidcSettings = (): OidcSettings | null => oidcSettingsFrom(getConfig())

function requireSettings(): OidcSettings {
  const settings = oidcSettings()
  if (!settings) throw new DomainError('auth/oidc-disabled', 'Single sign-on is not configured', 404)
  return settings
}

const discovered = new Map<string, Promise<oidc.Configuration>>()

/** The issuer's /.well-known/openid-configuration, fetched once per issuer and client (a failure is retried next time). */
function providerConfiguration(settings: OidcSettings): Promise<oidc.Configuration> {
  const { issuer, clientId, clientSecret } = settings
  const key = `${issuer} ${clientId}`
  let pending = discovered.get(key)
  if (!pending) {
    // A plain-http issuer is only ever a local stand-in (tests, development).
    const execute: ((config: oidc.Configuration) => void)[] = issuer.startsWith('http:') ? [oidc.allowInsecureRequests] : []
    // openid-client checks an ID token's signature against the issuer's JWKS only when asked (it
    // trusts the TLS channel to the token endpoint otherwise); without this a token signed with
    // any key was accepted (issue #28).
    execute.push(oidc.enableNonRepudiationChecks)
    pending = oidc.discovery(new URL(issuer), clientId, clientSecret, undefined, { execute })
    pending.catch(() => discovered.delete(key))
    discovered.set(key, pending)
  }
  return pending.catch((error: Error) => {
    console.warn(`[auth] OpenID Connect discovery at ${issuer} failed: ${error.message}`)
    throw new DomainError('auth/oidc-unavailable', `${settings.displayName} is unavailable: ${error.message}`, 502)
  })
}

const callbackUrl = (settings: OidcSettings) => `${getConfig().publicUrl}${settings.callbackPath}`

/** Authorization-code flow with PKCE, state and nonce: the address to send the browser to, and what to remember. */
export async function startOidcSignIn(redirectTo: string): Promise<{ authorizationUrl: string; pending: PendingOidcSignIn }> {
  const settings = requireSettings()
  const config = await providerConfiguration(settings)
  const pending = { state: oidc.randomState(), verifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce(), redirectTo }
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(settings),
    scope: settings.scopes,
    code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: 'S256',
    state: pending.state,
    nonce: pending.nonce,
    ...(settings.prompt ? { prompt: settings.prompt } : {}),
  })
  return { authorizationUrl: url.href, pending }
}

/** An OAuth error code from the provider, safe to put in a URL and to name in a message. */
export class OidcProviderError extends DomainError {
  constructor(readonly providerCode: string, message: string) {
    super('auth/oidc-provider-error', message, 401)
  }
}

type Identity = { sub: string; email?: unknown; email_verified?: unknown; name?: unknown; picture?: unknown }

/**
 * The callback: checks state, exchanges the code (with the PKCE verifier), verifies the ID token
 * (signature, issuer, audience, nonce); the e-mail and its verification come from the ID token or,
 * when it lacks them (standard providers put them only in userinfo), from the userinfo endpoint.
 * Then finds or creates the user and opens a session.
 */
export async function finishOidcSignIn(search: string, pending: PendingOidcSignIn | null, info: RequestInfo) {
  const settings = requireSettings()
  if (!pending) {
    throw new DomainError('auth/oidc-expired', `The ${settings.displayName.toLowerCase()} took too long or was started in another browser. Please try again.`, 400)
  }
  const config = await providerConfiguration(settings)
  let identity: Identity
  try {
    const tokens = await oidc.authorizationCodeGrant(config, new URL(`${callbackUrl(settings)}${search}`), {
      pkceCodeVerifier: pending.verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    })
    const claims = tokens.claims()
    if (!claims) throw new Error('no ID token')
    identity = claims
    if (typeof claims.email !== 'string' || typeof claims.email_verified !== 'boolean') {
      // userinfo is bound to the ID token's subject (fetchUserInfo refuses another sub)
      identity = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...pickDefined(claims) }
    }
  } catch (error) {
    if (error instanceof oidc.AuthorizationResponseError) {
      // The provider said no (the user cancelled, a policy refused...): its own words go to the log.
      console.warn(`[auth] ${settings.displayName} refused at ${settings.issuer}: ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`)
      throw new OidcProviderError(/^[a-z_]{1,40}$/.test(error.error) ? error.error : 'server_error', `${settings.displayName} failed: ${error.error_description ?? error.error}`)
    }
    // openid-client wraps the specific reason (e.g. 'unexpected "state" response parameter value') as the cause.
    const { message, cause } = error as Error
    const detail = error instanceof oidc.ResponseBodyError ? `${error.error}: ${error.error_description ?? ''}` : cause instanceof Error ? cause.message : message
    throw new DomainError('auth/oidc-failed', `${settings.displayName} failed: ${detail}`, 401)
  }
  const user = await findOrCreateUser(settings, identity)
  if (user.isAgent) throw new DomainError('auth/invalid-credential', 'This account cannot sign in here', 403)
  if (user.disabled) throw new DomainError('mvr-auth/disabled', 'Account was administratively disabled', 403)
  if (!user.emailVerified) throw new DomainError('mvr-auth/unverified', 'Unverified email address', 403)
  return { session: await startSignedInSession(user.id, info, settings.kind), redirectTo: pending.redirectTo }
}

/** ID token claims win over userinfo, but an absent claim must not erase a userinfo value. */
const pickDefined = (claims: object) => Object.fromEntries(Object.entries(claims).filter(([, v]) => v !== undefined && v !== null))

/** The external account is remembered by its subject (User.googleSubject, named before providers were generic). */
async function findOrCreateUser(settings: OidcSettings, claims: Identity) {
  const linked = await prisma.user.findUnique({ where: { googleSubject: claims.sub } })
  if (linked) return linked
  const email = typeof claims.email === 'string' ? normalizeEmail(claims.email) : ''
  // Only an address the provider has verified may be matched or used for a new account.
  if (!email || claims.email_verified !== true) {
    console.warn(`[auth] ${settings.displayName}: subject ${claims.sub} has ${email ? 'an unverified' : 'no'} e-mail address`)
    throw new DomainError('mvr-auth/unverified', 'Unverified email address', 403)
  }
  const existing = await prisma.user.findUnique({ where: { email } })
  if (existing) {
    return prisma.user.update({
      where: { id: existing.id },
      // An unverified password account may have been registered by someone else with this address:
      // its password is dropped so only the mailbox owner (now proven by the provider) gets in.
      data: { googleSubject: claims.sub, emailVerified: true, ...(existing.emailVerified ? {} : { passwordHash: null }) },
    })
  }
  const name = typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 200) : email
  const photoUrl = typeof claims.picture === 'string' ? claims.picture : null
  return prisma.user.create({ data: { email, name, provider: settings.kind, googleSubject: claims.sub, emailVerified: true, photoUrl } })
}
