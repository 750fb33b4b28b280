import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { MailCheck } from 'lucide-react'
import { AuthCard, AuthErrorBox } from '~/components/auth/auth-card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import { verifyEmail } from '~/domain/auth/email-flows.server'
import { checkActionCode } from '~/domain/auth/verification.server'
import { DomainError } from '~/domain/errors'

export const meta: MetaFunction = () => [{ title: 'Verify email address' }]

/**
 * The link from the verification e-mail. Opening it (GET) only checks the code: mail scanners and
 * link previews fetch links too, and must not use it up. The person confirms with the button
 * (POST), which verifies and continues at /login/email/{email}.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const email = params.email ?? ''
  try {
    await checkActionCode('emailVerify', email, params.code)
    return { email, error: null }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { email, error: { code: error.code, message: error.message } }
  }
}

export async function action({ params }: ActionFunctionArgs) {
  const email = params.email ?? ''
  try {
    await verifyEmail(email, params.code)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return data({ error: { code: error.code, message: error.message } }, { status: error.status })
  }
  throw redirect(`/login/email/${encodeURIComponent(email)}?notice=verified`)
}

export default function EmailVerify() {
  const loaded = useLoaderData<typeof loader>()
  const acted = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  const error = acted?.error ?? loaded.error
  return (
    <AuthCard title="Verify email address">
      {error ? (
        <>
          <AuthErrorBox title="Unable to verify email" code={error.code} message={error.message} />
          <p className="text-[13px] text-muted-foreground">
            Sign in to have a new verification link sent: the sign-in page offers it for an unverified address.
          </p>
          <Button asChild variant="outline" className="self-start">
            <Link to={`/login/email/${encodeURIComponent(loaded.email)}`}>Go to sign in</Link>
          </Button>
        </>
      ) : (
        <Form method="post" className="flex flex-col gap-3">
          <p className="text-[13px] text-muted-foreground">
            Confirm that <span className="font-medium text-foreground">{loaded.email}</span> is your email address.
          </p>
          <Button type="submit" disabled={busy} className="self-start">
            <MailCheck /> Verify my e-mail
          </Button>
        </Form>
      )}
    </AuthCard>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
