import { redirect, type LoaderFunctionArgs } from '@remix-run/node'

/** Paths starting with /a/ redirect to the same path without the /a prefix. */
export function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  return redirect(url.pathname.replace(/^\/a(?=\/)/, '') + url.search, 301)
}
