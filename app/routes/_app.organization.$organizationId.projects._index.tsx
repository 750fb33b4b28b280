import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'
import { requireOrgPermission } from '~/utils/org-route.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOrgPermission(request, params.organizationId, 'org.view')
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Projects', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Projects" subtitle="" />
}

export const ErrorBoundary = GeneralErrorBoundary
