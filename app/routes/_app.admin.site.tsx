import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'General', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="General" />
}

export const ErrorBoundary = GeneralErrorBoundary
