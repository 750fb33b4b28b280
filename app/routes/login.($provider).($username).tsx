import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { KeyRound } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { AuthCard } from '~/components/auth/auth-card'
import { CreateAccountForm } from '~/components/auth/create-account-form'
import { ExistingUserForm } from '~/components/auth/existing-user-form'
import { GoogleLogo } from '~/components/auth/google-logo'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { loginPageAction, loginPageData } from '~/utils/login-page.server'
import { LOGIN_NOTICES as NOTICES, LOGIN_TITLE } from '~/utils/login-texts'

export const meta: MetaFunction = () => [{ title: LOGIN_TITLE }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loginPageData(request, params)
}

export async function action({ request }: ActionFunctionArgs) {
  return loginPageAction(request)
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

export const ErrorBoundary = GeneralErrorBoundary
