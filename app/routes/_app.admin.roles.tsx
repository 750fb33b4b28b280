import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'Roles', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Roles" />
}

export const ErrorBoundary = GeneralErrorBoundary
