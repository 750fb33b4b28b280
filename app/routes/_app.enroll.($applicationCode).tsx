import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'
import { requireUser } from '~/utils/auth.server'

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request)
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Enroll Agent', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Enroll Agent" subtitle="" />
}

export const ErrorBoundary = GeneralErrorBoundary
