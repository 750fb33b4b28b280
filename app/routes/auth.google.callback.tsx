import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { oidcCallbackLoader } from '~/utils/oidc-auth.server'

/** Redirect URI of sign-in configured with the GOOGLE_* names (kept for existing registrations). */
export const loader = ({ request }: LoaderFunctionArgs) => oidcCallbackLoader(request)

export const ErrorBoundary = GeneralErrorBoundary
