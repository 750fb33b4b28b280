import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'Users', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Users" />
}

export const ErrorBoundary = GeneralErrorBoundary
