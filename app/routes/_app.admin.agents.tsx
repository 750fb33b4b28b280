import { GeneralErrorBoundary } from '~/components/error-boundary'
import { PlaceholderPage } from '~/components/placeholder'

export const handle = { breadcrumb: () => ({ label: 'Agents', to: '.' }) }

export default function Page() {
  return <PlaceholderPage title="Agents" />
}

export const ErrorBoundary = GeneralErrorBoundary
