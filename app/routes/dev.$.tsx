import { data, type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary, NotFound } from '~/components/error-boundary'
import { requireDevPage } from '~/utils/dev-tools.server'

/** Any other /dev/* path: refused (403) to non-admins like every developer page, else Not found. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireDevPage(request)
  return data(null, { status: 404 })
}

export default function DevNotFound() {
  return <NotFound />
}

export const ErrorBoundary = GeneralErrorBoundary
