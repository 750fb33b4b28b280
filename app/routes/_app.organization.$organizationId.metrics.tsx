import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'
import { requireOrgPermission } from '~/utils/org-route.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOrgPermission(request, params.organizationId, 'org.events.view')
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Metrics', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Metrics" subtitle="" />
}

export const ErrorBoundary = GeneralErrorBoundary
