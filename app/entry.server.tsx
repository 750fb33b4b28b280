import { type AppLoadContext, type EntryContext, type HandleErrorFunction } from '@remix-run/node'
import { isRouteErrorResponse, RemixServer } from '@remix-run/react'
import { renderToStaticMarkup } from 'react-dom/server'
import { ServiceUnavailable } from './components/error-boundary'
import { NonceProvider } from './utils/nonce'
import { markPreloadsLow } from './utils/low-priority-preloads.server'
import { isUnavailableError, RETRY_AFTER_SECONDS } from './utils/errors.server'
import { renderWhole } from './utils/render-whole.server'
import stylesheet from './tailwind.css?url'

const ABORT_DELAY = 5_000

/**
 * Remix's default Node entry, plus the CSP nonce (server/security-headers.ts passes it in the load
 * context): React stamps it on the streaming scripts, and <Scripts>/<ScrollRestoration> read it
 * through NonceProvider, so the inline scripts run under a CSP without 'unsafe-inline'. The module
 * preloads go out at low priority (markPreloadsLow, decision 017).
 *
 * A page is answered whole (onAllReady, one buffer), not streamed: no loader defers data, and
 * server/compress-response.ts collects the body before it compresses it anyway, so streaming the
 * shell first bought nothing and cost a Node stream, a web stream, a transform and a write per
 * chunk of every page (about 10 % of a signed-in /about; docs/benchmarks.md, "Web request cost").
 * renderWhole settles in every case (a render aborted before its shell answers 500, not never).
 */
export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, loadContext: AppLoadContext) {
  // server/unavailable-status.ts (markUnavailable) adds Retry-After to this answer itself
  if (unavailable.has(loadContext)) return unavailablePage(typeof loadContext.markUnavailable !== 'function')
  const nonce = typeof loadContext.cspNonce === 'string' ? loadContext.cspNonce : undefined
  const element = (
    <NonceProvider value={nonce ?? ''}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
    </NonceProvider>
  )
  return renderWhole(element, {
    nonce,
    abortDelayMs: ABORT_DELAY,
    onBoundaryError(error, shellRendered) {
      responseStatusCode = 500
      // Errors of the initial shell are logged by Remix itself.
      if (shellRendered) console.error(error)
    },
  }).then((html) => {
    responseHeaders.set('Content-Type', 'text/html')
    // a Buffer is a Uint8Array over a plain ArrayBuffer (the DOM typings want that spelled out)
    return new Response(markPreloadsLow(html) as Uint8Array<ArrayBuffer>, { headers: responseHeaders, status: responseStatusCode })
  })
}

/** Load contexts of requests that failed because the database or broker was briefly unavailable. */
const unavailable = new WeakSet<object>()

/**
 * Remix calls this with the original error before it hides it from the browser. A database or broker
 * that is briefly unavailable (app/utils/errors.server.ts) is no bug: one warning line instead of a
 * stack, and the answer becomes 503 + Retry-After (server/unavailable-status.ts; documents get
 * unavailablePage below). Anything else is logged as Remix would.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return
  if (isUnavailableError(error)) {
    if (context) unavailable.add(context)
    if (typeof context?.markUnavailable === 'function') (context.markUnavailable as () => void)()
    console.warn(`[web] ${request.method} ${new URL(request.url).pathname}: database or broker unavailable: ${error instanceof Error ? error.message.split('\n').filter(Boolean).pop() : String(error)}`)
    return
  }
  // as Remix's default: a route error response (404 for an unknown URL...) logs the error inside it
  console.error(isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error)
}

/**
 * A self-contained page in the app's style (no scripts: the app's data cannot be loaded now) that
 * reloads itself after a while.
 */
function unavailablePage(withRetryAfter: boolean): Response {
  const body = renderToStaticMarkup(
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta httpEquiv="refresh" content={String(RETRY_AFTER_SECONDS * 2)} />
        <title>Briefly unavailable - Pixelfleet</title>
        <link rel="stylesheet" href={stylesheet} />
      </head>
      <body>
        <main id="main-content">
          <ServiceUnavailable />
        </main>
      </body>
    </html>,
  )
  return new Response(`<!DOCTYPE html>${body}`, {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...(withRetryAfter ? { 'Retry-After': String(RETRY_AFTER_SECONDS) } : {}) },
  })
}
