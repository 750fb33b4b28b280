import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { AuthCard, AuthErrorBox } from '~/components/auth/auth-card'
import { PasswordRulesChecklist } from '~/components/auth/password-rules'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { resetPassword } from '~/domain/auth/email-flows.server'
import { failedPasswordRules } from '~/domain/auth/password-rules'
import { checkActionCode } from '~/domain/auth/verification.server'
import { DomainError } from '~/domain/errors'
import { formAction } from '~/utils/errors.server'
import { readFormData } from '~/utils/form.server'

export const meta: MetaFunction = () => [{ title: 'Password Reset' }]

/** Opening the link only checks the code; it is used up when the new password is saved. */
export async function loader({ params }: LoaderFunctionArgs) {
  const email = params.email ?? ''
  try {
    await checkActionCode('passwordReset', email, params.code)
    return { email, error: null }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { email, error: { code: error.code, message: error.message } }
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readFormData(request)
  const email = params.email ?? ''
  return formAction(async () => {
    if (form.get('password') !== form.get('confirmation')) {
      const message = 'New password and confirmation must match'
      throw new DomainError('invalid-argument', message, 400, [{ path: 'confirmation', message }])
    }
    await resetPassword({ email, code: params.code, password: form.get('password') })
    throw redirect(`/login/email/${encodeURIComponent(email)}?notice=passwordUpdated`)
  })
}

export default function PasswordResetPage() {
  const { email, error } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const failure = result && !result.ok ? result : null
  const shown = error ?? (failure && !failure.issues.length ? failure : null)
  return (
    <AuthCard title="Password Reset">
      {shown ? <AuthErrorBox title="Unable to reset password" code={shown.code} message={shown.message} /> : null}
      {error ? (
        <Button asChild variant="outline" className="self-start">
          <Link to={`/login/email/${encodeURIComponent(email)}`}>Back to sign in</Link>
        </Button>
      ) : (
        <Form method="post" className="flex flex-col gap-3" noValidate>
          <Field label="Email">{(p) => <Input {...p} value={email} readOnly className="bg-muted text-muted-foreground" />}</Field>
          <Field label="New Password" error={issueFor(failure?.issues, 'password')}>
            {(p) => (
              <Input {...p} name="password" type="password" autoComplete="new-password" autoFocus value={password} onChange={(e) => setPassword(e.target.value)} />
            )}
          </Field>
          <Field label="Confirm Password" error={issueFor(failure?.issues, 'confirmation')}>
            {(p) => (
              <Input {...p} name="confirmation" type="password" autoComplete="new-password" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
            )}
          </Field>
          <PasswordRulesChecklist password={password} confirmation={confirmation} />
          <Button type="submit" className="self-end" disabled={busy || failedPasswordRules(password, confirmation).length > 0}>
            Save
          </Button>
        </Form>
      )}
    </AuthCard>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
