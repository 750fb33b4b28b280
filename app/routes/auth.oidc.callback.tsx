import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { oidcCallbackLoader } from '~/utils/oidc-auth.server'

/** Redirect URI of sign-in with any OpenID Connect provider (OIDC_* settings). */
export const loader = ({ request }: LoaderFunctionArgs) => oidcCallbackLoader(request)

export const ErrorBoundary = GeneralErrorBoundary
