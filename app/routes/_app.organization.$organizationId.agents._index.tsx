import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'
import { requireOrgPermission } from '~/utils/org-route.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOrgPermission(request, params.organizationId, 'agent.list')
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Agents', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Agents" subtitle="Manage and enroll agents across your organization" />
}

export const ErrorBoundary = GeneralErrorBoundary
