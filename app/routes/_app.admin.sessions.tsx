import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'Sessions', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Sessions" />
}

export const ErrorBoundary = GeneralErrorBoundary
