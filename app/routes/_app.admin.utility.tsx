import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'Utility Functions', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Utility Functions" />
}

export const ErrorBoundary = GeneralErrorBoundary
