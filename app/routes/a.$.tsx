import { redirect, type LoaderFunctionArgs } from '@remix-run/node'

/** Paths starting with /a/ redirect to the same path without the /a prefix; bare /a (and /a/) is '/'. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  // Without this, '/a' had no '/a/' prefix to strip and redirected to itself forever.
  // Leading slashes collapse to one so '/a//host' cannot become a protocol-relative off-site redirect.
  const path = url.pathname.replace(/^\/a(?=\/|$)/, '').replace(/^\/+/, '/') || '/'
  return redirect(path + url.search, 301)
}
