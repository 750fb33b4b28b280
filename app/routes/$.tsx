import { data } from '@remix-run/node'
import { NotFound } from '~/components/error-boundary'

/** Any unknown path: 'Not found' with 'Back to home' (status 404). */
export const loader = () => data(null, { status: 404 })

export default function NotFoundRoute() {
  return <NotFound />
}
