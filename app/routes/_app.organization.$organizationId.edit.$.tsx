import { data } from '@remix-run/node'
import { GeneralErrorBoundary } from '~/components/error-boundary'

/** An unknown edit tab: Not found inside the shell. */
export function loader() {
  throw data({ message: 'Not found' }, { status: 404 })
}

export default function UnknownEditTab() {
  return null
}

export const ErrorBoundary = GeneralErrorBoundary
