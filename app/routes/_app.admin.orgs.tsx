import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'Organizations', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Organizations" />
}

export const ErrorBoundary = GeneralErrorBoundary
