import { redirect, type LoaderFunctionArgs } from '@remix-run/node'
import { safeRedirect } from '~/utils/safe-redirect'

/** Paths starting with /a/ redirect to the same path without the /a prefix; bare /a (and /a/) is '/'; never another host. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  // Without the '|$', '/a' had no '/a/' prefix to strip and redirected to itself forever.
  return redirect(safeRedirect((url.pathname.replace(/^\/a(?=\/|$)/, '') || '/') + url.search), 301)
}
