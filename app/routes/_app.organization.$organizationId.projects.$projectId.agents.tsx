import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'
import { requireOrgPermission } from '~/utils/org-route.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOrgPermission(request, params.organizationId, 'project.view', params.projectId)
  return null
}

export default function Page() {
  return <PlaceholderPage title="Agents" />
}

export const ErrorBoundary = GeneralErrorBoundary
