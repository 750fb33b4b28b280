import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { KeyRound, MailCheck } from 'lucide-react'
import { useEffect, useState, type FormEvent } from 'react'
import { toast } from 'sonner'
import { z } from 'zod'
import { AuthCard, AuthErrorBox } from '~/components/auth/auth-card'
import { PasswordRulesChecklist } from '~/components/auth/password-rules'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { createAccount, signInWithPassword } from '~/domain/auth/account.server'
import { requestEmailVerification, requestPasswordReset } from '~/domain/auth/email-flows.server'
import { oidcSettings, startOidcSignIn } from '~/domain/auth/oidc.server'
import { failedPasswordRules, isValidEmail } from '~/domain/auth/password-rules'
import { DomainError } from '~/domain/errors'
import { commitSessionCookie, getCurrentUser, requestInfo, sessionEndedByDisable } from '~/utils/auth.server'
import { safeRedirect } from '~/utils/safe-redirect'
import { formAction, type ActionFailure, type ActionSuccess } from '~/utils/errors.server'
import { oidcSignInCookie } from '~/utils/oidc-auth.server'
import { readForm } from '~/utils/form.server'

const LOGIN_TITLE = 'Sign in or create an account'
export const meta: MetaFunction = () => [{ title: LOGIN_TITLE }]

/** Errors another page sends here as ?error=code; only known codes are shown (no text from the URL). */
const REDIRECTED_ERRORS: Record<string, string> = {
  'mvr-auth/disabled': 'Account was administratively disabled',
  'mvr-auth/unverified': 'Unverified email address',
  'mvr-auth/notloggedin': 'Not logged in',
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

/** OAuth error codes (RFC 6749, OpenID Connect) the provider may send back, in words. */
const PROVIDER_REASONS: Record<string, string> = {
  access_denied: 'The sign-in was cancelled or refused at the identity provider.',
  login_required: 'The identity provider asks you to sign in there first. Please try again.',
  consent_required: 'The identity provider needs your consent first. Please try again.',
  temporarily_unavailable: 'The identity provider is temporarily unavailable. Please try again later.',
}

/** Confirmations the e-mail link pages and the profile page hand over as ?notice=... */
const NOTICES = {
  verified: 'Your email address was verified.',
  passwordUpdated: 'Your password was updated.',
  emailChanged: 'Email change request sent',
} as const

const ACCOUNT_CREATED_TEXT =
  'If an account did not already exist, one was created and a verification email was sent. Use the link in the email to verify your address, then log in.'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { provider, username } = params
  // /login/google (GOOGLE_* settings) and /login/oidc both start the one configured provider
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
    notice: notice && notice in NOTICES ? (notice as keyof typeof NOTICES) : null,
    sso: settings ? { kind: settings.kind, label: settings.buttonLabel } : null,
  }
}

const email = z.string().default('')
const actionInput = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('login'), email, password: z.string().default(''), redirect: z.string().optional() }),
  z.object({ intent: z.literal('create'), email, name: z.string().default(''), password: z.string().default(''), confirmation: z.string().default('') }),
  z.object({ intent: z.literal('resendVerification'), email }),
  z.object({ intent: z.literal('resetPassword'), email }),
])

export async function action({ request }: ActionFunctionArgs) {
  const parsed = actionInput.safeParse(await readForm(request))
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

type ActionResult = ActionSuccess<unknown> | ActionFailure

/** A fetcher for one intent; its success message becomes a toast. */
function useIntentFetcher(key: string) {
  const fetcher = useFetcher<typeof action>({ key })
  const result = fetcher.data as ActionResult | undefined
  useEffect(() => {
    if (fetcher.state === 'idle' && result?.ok && result.message) toast.success(result.message)
  }, [fetcher.state, result])
  const failure = result && !result.ok ? result : null
  return { fetcher, result, failure, busy: fetcher.state !== 'idle' }
}

export default function LoginPage() {
  const data = useLoaderData<typeof loader>()
  const [mode, setMode] = useState<'existing' | 'create'>('existing')
  const [email, setEmail] = useState(data.prefillEmail)
  const [created, setCreated] = useState(false)

  useEffect(() => {
    if (data.notice === 'emailChanged') toast.success(NOTICES.emailChanged)
  }, [data.notice])

  return (
    <AuthCard
      title={LOGIN_TITLE}
      subtitle={
        data.sso?.kind === 'google'
          ? 'Use your email address and password, or your Google account.'
          : data.sso
            ? 'Use your email address and password, or single sign-on.'
            : 'Use your email address and password.'
      }
    >
      {data.notice === 'emailChanged' ? (
        <Alert type="info" title={NOTICES.emailChanged}>
          You were signed out. Open the link sent to your new email address to verify it, then log in.
        </Alert>
      ) : data.notice ? (
        <Alert type="success">{NOTICES[data.notice]}</Alert>
      ) : null}

      {mode === 'create' ? (
        <CreateAccountForm
          email={email}
          onEmailChange={setEmail}
          onCreated={() => {
            setCreated(true)
            setMode('existing')
          }}
          onBack={() => setMode('existing')}
        />
      ) : (
        <ExistingUserForm
          email={email}
          onEmailChange={setEmail}
          redirectTo={data.redirectTo}
          pageError={data.error}
          created={created}
          onSignUp={() => {
            setCreated(false)
            setMode('create')
          }}
        />
      )}

      {data.sso ? (
        <>
          <div className="flex items-center gap-3 text-xs uppercase text-muted-foreground">
            <span className="h-px flex-1 bg-border" />
            or
            <span className="h-px flex-1 bg-border" />
          </div>
          <Button asChild variant="outline" className="w-full">
            {/* A document navigation: the loader answers with a redirect to the provider. */}
            <a href={`/login/${data.sso.kind}${data.redirectTo ? `?redirect=${encodeURIComponent(data.redirectTo)}` : ''}`}>
              {data.sso.kind === 'google' ? <GoogleLogo /> : <KeyRound aria-hidden />} {data.sso.label}
            </a>
          </Button>
        </>
      ) : null}
    </AuthCard>
  )
}

function ExistingUserForm({
  email,
  onEmailChange,
  redirectTo,
  pageError,
  created,
  onSignUp,
}: {
  email: string
  onEmailChange: (email: string) => void
  redirectTo: string
  pageError: { code: string; message: string } | null
  created: boolean
  onSignUp: () => void
}) {
  const login = useIntentFetcher('login')
  const resend = useIntentFetcher('resendVerification')
  const reset = useIntentFetcher('resetPassword')
  const [password, setPassword] = useState('')
  const [fieldErrors, setFieldErrors] = useState<{ email?: string; password?: string }>({})
  const [confirmReset, setConfirmReset] = useState(false)
  // The newest error wins: a fresh attempt hides the error the page was opened with.
  const [showPageError, setShowPageError] = useState(true)
  const error = login.failure ?? (showPageError ? pageError : null)
  const issues = login.failure?.issues ?? []
  const fieldIssue = (path: 'email' | 'password') => fieldErrors[path] ?? issueFor(issues, path)
  const unverified = error?.code === 'mvr-auth/unverified'

  useEffect(() => {
    if (reset.result?.ok) setConfirmReset(false)
  }, [reset.result])

  const requireEmail = () => {
    if (isValidEmail(email)) return true
    setFieldErrors({ email: 'Enter a valid email address' })
    return false
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const errors = {
      email: isValidEmail(email) ? undefined : 'Enter a valid email address',
      password: password ? undefined : 'Password is required',
    }
    setFieldErrors(errors)
    if (errors.email || errors.password) return
    setShowPageError(false)
    login.fetcher.submit({ intent: 'login', email, password, redirect: redirectTo }, { method: 'post' })
  }

  const otherFailure = resend.failure ?? reset.failure
  return (
    // method and the hidden fields make a submit before hydration a POST to the action, never a GET
    <form method="post" className="flex flex-col gap-3" onSubmit={submit} noValidate>
      <input type="hidden" name="intent" value="login" />
      <input type="hidden" name="redirect" value={redirectTo} />
      {created ? <Alert type="success" title="Check your inbox">{ACCOUNT_CREATED_TEXT}</Alert> : null}
      {error && unverified ? (
        <Alert type="warning" title="Unverified email address">
          <p>
            Your email address is not verified yet. Use the link in the verification email, or have a new one sent.{' '}
            <span className="whitespace-nowrap">(error code: {error.code})</span>
          </p>
          <Button
            type="button"
            size="sm"
            variant="outline"
            className="mt-1.5 self-start"
            disabled={resend.busy}
            onClick={() => requireEmail() && resend.fetcher.submit({ intent: 'resendVerification', email }, { method: 'post' })}
          >
            <MailCheck /> resend verification
          </Button>
        </Alert>
      ) : error && !issues.length ? (
        <AuthErrorBox title="login failed" code={error.code} message={error.message} />
      ) : null}
      {otherFailure && !otherFailure.issues.length ? <AuthErrorBox title="Request failed" code={otherFailure.code} message={otherFailure.message} /> : null}

      <Field label="Email" error={fieldIssue('email') ?? issueFor(otherFailure?.issues, 'email')}>
        {(p) => (
          <Input
            {...p}
            name="email"
            type="email"
            autoComplete="username"
            autoFocus={!email}
            value={email}
            onChange={(e) => {
              onEmailChange(e.target.value)
              setFieldErrors((f) => ({ ...f, email: undefined }))
            }}
          />
        )}
      </Field>
      <Field label="Password" error={fieldIssue('password')}>
        {(p) => (
          <Input
            {...p}
            name="password"
            type="password"
            autoComplete="current-password"
            autoFocus={Boolean(email)}
            value={password}
            onChange={(e) => {
              setPassword(e.target.value)
              setFieldErrors((f) => ({ ...f, password: undefined }))
            }}
          />
        )}
      </Field>
      {unverified ? null : (
        <button
          type="button"
          className="-mt-1 self-end text-xs text-primary hover:underline"
          onClick={() => requireEmail() && setConfirmReset(true)}
        >
          Forgot your password? Reset password
        </button>
      )}
      <div className="mt-1 grid grid-cols-2 gap-2">
        <Button type="button" variant="outline" onClick={onSignUp}>
          Sign up
        </Button>
        <Button type="submit" disabled={login.busy}>
          Login
        </Button>
      </div>
      <ConfirmDialog
        open={confirmReset}
        onOpenChange={setConfirmReset}
        title="Reset Password"
        text="A password reset link will be sent to the email address.  Are you sure?"
        busy={reset.busy}
        onConfirm={() => reset.fetcher.submit({ intent: 'resetPassword', email }, { method: 'post' })}
      />
    </form>
  )
}

function CreateAccountForm({
  email,
  onEmailChange,
  onCreated,
  onBack,
}: {
  email: string
  onEmailChange: (email: string) => void
  onCreated: () => void
  onBack: () => void
}) {
  const create = useIntentFetcher('create')
  const [name, setName] = useState('')
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const valid = isValidEmail(email) && name.trim().length > 0 && failedPasswordRules(password, confirmation).length === 0
  const issues = create.failure?.issues ?? []

  useEffect(() => {
    if (create.result?.ok) onCreated()
  }, [create.result, onCreated])

  return (
    <form
      method="post"
      className="flex flex-col gap-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (valid) create.fetcher.submit({ intent: 'create', email, name, password, confirmation }, { method: 'post' })
      }}
    >
      <input type="hidden" name="intent" value="create" />
      <p className="text-[13px] text-muted-foreground">Create an account. We will send a link to verify your email address.</p>
      {create.failure && !issues.length ? <AuthErrorBox title="Account creation failed" code={create.failure.code} message={create.failure.message} /> : null}
      <Field label="Email" error={issueFor(issues, 'email') ?? (email && !isValidEmail(email) ? 'Enter a valid email address' : undefined)}>
        {(p) => <Input {...p} name="email" type="email" autoComplete="email" value={email} onChange={(e) => onEmailChange(e.target.value)} />}
      </Field>
      <Field label="Name" error={issueFor(issues, 'name')}>
        {(p) => <Input {...p} name="name" autoComplete="name" autoFocus value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Password" error={issueFor(issues, 'password')}>
        {(p) => <Input {...p} name="password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />}
      </Field>
      <Field label="Confirm Password" error={issueFor(issues, 'confirmation')}>
        {(p) => (
          <Input {...p} name="confirmation" type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
        )}
      </Field>
      <PasswordRulesChecklist password={password} confirmation={confirmation} />
      <p className="text-xs text-muted-foreground">
        By creating an account you agree to the{' '}
        <a href="https://pixelfleet.io/terms" target="_blank" rel="noreferrer" className="text-primary hover:underline">
          Terms of Service
        </a>{' '}
        and the{' '}
        <a href="https://pixelfleet.io/privacy" target="_blank" rel="noreferrer" className="text-primary hover:underline">
          Privacy Policy
        </a>
        .
      </p>
      <div className="flex items-center justify-between gap-2">
        <button type="button" className="text-xs text-primary hover:underline" onClick={onBack}>
          Already have an account? Back to login
        </button>
        <Button type="submit" disabled={!valid || create.busy}>
          Save
        </Button>
      </div>
    </form>
  )
}

function GoogleLogo() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden>
      <path fill="#4285F4" d="M22.56 12.25c0-.78-.07-1.53-.2-2.25H12v4.26h5.92a5.06 5.06 0 0 1-2.2 3.32v2.77h3.56c2.08-1.92 3.28-4.74 3.28-8.1z" />
      <path fill="#34A853" d="M12 23c2.97 0 5.46-.98 7.28-2.66l-3.56-2.77c-.98.66-2.23 1.06-3.72 1.06-2.86 0-5.29-1.93-6.16-4.53H2.18v2.84A11 11 0 0 0 12 23z" />
      <path fill="#FBBC05" d="M5.84 14.1A6.6 6.6 0 0 1 5.5 12c0-.73.13-1.44.34-2.1V7.06H2.18A11 11 0 0 0 1 12c0 1.78.43 3.45 1.18 4.94l3.66-2.84z" />
      <path fill="#EA4335" d="M12 5.38c1.62 0 3.06.56 4.21 1.64l3.15-3.15C17.45 2.09 14.97 1 12 1A11 11 0 0 0 2.18 7.06l3.66 2.84C6.71 7.3 9.14 5.38 12 5.38z" />
    </svg>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
