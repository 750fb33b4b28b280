import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { finishGoogleSignIn } from '~/domain/auth/google.server'
import { DomainError } from '~/domain/errors'
import { commitSessionCookie, requestInfo, safeRedirect } from '~/utils/auth.server'
import { googleSignInCookie, readPendingGoogleSignIn } from '~/utils/google-auth.server'

/** Google sends the browser back here with a code; on success a session starts. */
export async function loader({ request }: LoaderFunctionArgs) {
  const pending = await readPendingGoogleSignIn(request)
  const headers = new Headers({ 'Set-Cookie': await googleSignInCookie.serialize('', { maxAge: 0 }) })
  try {
    const { session, redirectTo } = await finishGoogleSignIn(new URL(request.url).search, pending, requestInfo(request))
    headers.append('Set-Cookie', await commitSessionCookie(session.token, session.expiresAt, request))
    return redirect(safeRedirect(redirectTo), { headers })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    if (error.code === 'auth/google-failed') console.warn(`[auth] ${error.message}`)
    return redirect(`/login?error=${encodeURIComponent(error.code)}`, { headers })
  }
}

export const ErrorBoundary = GeneralErrorBoundary
