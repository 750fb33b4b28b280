import { type LoaderFunctionArgs } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'
import { requireOrgPermission } from '~/utils/org-route.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireOrgPermission(request, params.organizationId, 'note.list')
  return null
}

export const handle = { breadcrumb: () => ({ label: 'Notes', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Notes" subtitle="View and manage your notes across your organization" />
}

export const ErrorBoundary = GeneralErrorBoundary
