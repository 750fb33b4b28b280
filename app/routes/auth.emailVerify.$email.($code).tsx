import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { AuthCard, AuthErrorBox } from '~/components/auth/auth-card'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Button } from '~/components/ui/button'
import { verifyEmail } from '~/domain/auth/email-flows.server'
import { DomainError } from '~/domain/errors'

export const meta: MetaFunction = () => [{ title: 'Verify email address' }]

/** The link from the verification e-mail: verifies, then continues at /login/email/{email}. */
export async function loader({ params }: LoaderFunctionArgs) {
  const email = params.email ?? ''
  try {
    await verifyEmail(email, params.code)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { email, code: error.code, message: error.message }
  }
  throw redirect(`/login/email/${encodeURIComponent(email)}?notice=verified`)
}

export default function EmailVerifyFailed() {
  const { email, code, message } = useLoaderData<typeof loader>()
  return (
    <AuthCard title="Verify email address">
      <AuthErrorBox title="Unable to verify email" code={code} message={message} />
      <p className="text-[13px] text-muted-foreground">
        Sign in to have a new verification link sent: the sign-in page offers it for an unverified address.
      </p>
      <Button asChild variant="outline" className="self-start">
        <Link to={`/login/email/${encodeURIComponent(email)}`}>Go to sign in</Link>
      </Button>
    </AuthCard>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
