import { MailCheck } from 'lucide-react'
import { useEffect, useState, type FormEvent } from 'react'
import { AuthErrorBox } from '~/components/auth/auth-card'
import { useIntentFetcher } from '~/components/auth/use-intent-fetcher'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { isValidEmail } from '~/domain/auth/password-rules'
import { ACCOUNT_CREATED_TEXT } from '~/utils/login-texts'

/** The login page's sign-in form, with resending the verification mail and the password reset. */
export function ExistingUserForm({
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
