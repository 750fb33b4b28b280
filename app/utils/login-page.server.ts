import { data, redirect } from '@remix-run/node'
import { z } from 'zod'
import { createAccount, signInWithPassword } from '~/domain/auth/account.server'
import { requestEmailVerification, requestPasswordReset } from '~/domain/auth/email-flows.server'
import { oidcSettings, startOidcSignIn } from '~/domain/auth/oidc.server'
import { DomainError } from '~/domain/errors'
import { LOGIN_NOTICES, type LoginNotice } from '~/utils/login-texts'
import { commitSessionCookie, getCurrentUser, requestInfo, sessionEndedByDisable } from '~/utils/auth.server'
import { formAction, type ActionFailure } from '~/utils/errors.server'
import { readForm } from '~/utils/form.server'
import { oidcSignInCookie } from '~/utils/oidc-auth.server'
import { safeRedirect } from '~/utils/safe-redirect'

/** Errors another page sends here as ?error=code; only known codes are shown (no text from the URL). */
const REDIRECTED_ERRORS: Record<string, string> = {
  'mvr-auth/disabled': 'Account was administratively disabled',
  'mvr-auth/unverified': 'Unverified email address',
  'mvr-auth/notloggedin': 'Not logged in',
}

/** OAuth error codes (RFC 6749, OpenID Connect) the provider may send back, in words. */
const PROVIDER_REASONS: Record<string, string> = {
  access_denied: 'The sign-in was cancelled or refused at the identity provider.',
  login_required: 'The identity provider asks you to sign in there first. Please try again.',
  consent_required: 'The identity provider needs your consent first. Please try again.',
  temporarily_unavailable: 'The identity provider is temporarily unavailable. Please try again later.',
}

/** Errors of the external sign-in, worded with its name ("Google sign-in", "Single sign-on"). */
function ssoErrors(name: string, reason: string | null): Record<string, string> {
  return {
    'auth/oidc-failed': `${name} failed. Please try again.`,
    'auth/oidc-expired': `The ${name.toLowerCase()} took too long or was started in another browser. Please try again.`,
    'auth/oidc-unavailable': `${name} is unavailable at the moment. Please try again later.`,
    'auth/oidc-disabled': `${name} is not configured.`,
    'auth/oidc-provider-error': PROVIDER_REASONS[reason ?? ''] ?? `${name} failed: the identity provider answered "${reason ?? 'error'}". Please try again or contact your administrator.`,
  }
}

/**
 * The login page's data: a signed-in user is sent on (spec 02 section 2), /login/google and
 * /login/oidc start the one configured external provider, and ?error / ?notice codes become texts.
 */
export async function loginPageData(request: Request, params: { provider?: string; username?: string }) {
  const { provider, username } = params
  if (provider && provider !== 'email' && provider !== 'google' && provider !== 'oidc') throw data({ message: 'Not found' }, { status: 404 })
  const settings = oidcSettings()
  const url = new URL(request.url)
  const redirectTo = url.searchParams.get('redirect')
  const current = await getCurrentUser(request)
  // Route guard (spec 02 section 2): a signed-in user goes to the redirect target if present, else '/'.
  if (current) throw redirect(redirectTo ? safeRedirect(redirectTo) : '/')
  let error: { code: string; message: string } | null = null
  if (provider === 'google' || provider === 'oidc') {
    try {
      const { authorizationUrl, pending } = await startOidcSignIn(safeRedirect(redirectTo))
      throw redirect(authorizationUrl, { headers: { 'Set-Cookie': await oidcSignInCookie.serialize(pending) } })
    } catch (e) {
      if (!(e instanceof DomainError)) throw e
      error = { code: e.code, message: e.message }
    }
  }
  const errorCode = (await sessionEndedByDisable(request)) ? 'mvr-auth/disabled' : url.searchParams.get('error')
  const known = { ...REDIRECTED_ERRORS, ...ssoErrors(settings?.displayName ?? 'Single sign-on', url.searchParams.get('reason')) }
  if (!error && errorCode) error = { code: errorCode, message: known[errorCode] ?? 'An unrecognized error has occurred' }
  const notice = url.searchParams.get('notice')
  return {
    prefillEmail: provider === 'email' && username ? username : '',
    redirectTo: redirectTo ? safeRedirect(redirectTo) : '',
    error,
    notice: notice && notice in LOGIN_NOTICES ? (notice as LoginNotice) : null,
    sso: settings ? { kind: settings.kind, label: settings.buttonLabel } : null,
  }
}

const email = z.string().default('')
const loginInput = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('login'), email, password: z.string().default(''), redirect: z.string().optional() }),
  z.object({ intent: z.literal('create'), email, name: z.string().default(''), password: z.string().default(''), confirmation: z.string().default('') }),
  z.object({ intent: z.literal('resendVerification'), email }),
  z.object({ intent: z.literal('resetPassword'), email }),
])

/** The login page's four form intents: sign in, create an account, resend the verification mail, reset the password. */
export async function loginPageAction(request: Request) {
  const parsed = loginInput.safeParse(await readForm(request))
  if (!parsed.success) return data<ActionFailure>({ ok: false, code: 'invalid-argument', message: 'Invalid request', issues: [] }, { status: 400 })
  const input = parsed.data
  const info = requestInfo(request)
  switch (input.intent) {
    case 'login':
      return formAction(async () => {
        const session = await signInWithPassword(input, info)
        throw redirect(safeRedirect(input.redirect), { headers: { 'Set-Cookie': await commitSessionCookie(session.token, session.expiresAt, request) } })
      })
    case 'create':
      return formAction(() => {
        if (input.password !== input.confirmation) {
          const message = 'New password and confirmation must match'
          throw new DomainError('invalid-argument', message, 400, [{ path: 'confirmation', message }])
        }
        return createAccount(input, info)
      })
    case 'resendVerification':
      return formAction(() => requestEmailVerification(input, info), 'Email verification link sent')
    case 'resetPassword':
      return formAction(() => requestPasswordReset(input, info), 'If the account exists, then a reset email was sent')
  }
}
