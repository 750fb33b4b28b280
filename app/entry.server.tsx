import { createReadableStreamFromReadable, type AppLoadContext, type EntryContext } from '@remix-run/node'
import { RemixServer } from '@remix-run/react'
import { renderToPipeableStream } from 'react-dom/server'
import { NonceProvider } from './utils/nonce'
import { LowPriorityPreloads } from './utils/low-priority-preloads.server'

const ABORT_DELAY = 5_000

/**
 * Remix's default Node entry, plus the CSP nonce (server/security-headers.ts passes it in the load
 * context): React stamps it on the streaming scripts, and <Scripts>/<ScrollRestoration> read it
 * through NonceProvider, so the inline scripts run under a CSP without 'unsafe-inline'. The module
 * preloads go out at low priority (LowPriorityPreloads, decision 017).
 */
export default function handleRequest(request: Request, responseStatusCode: number, responseHeaders: Headers, remixContext: EntryContext, loadContext: AppLoadContext) {
  const nonce = typeof loadContext.cspNonce === 'string' ? loadContext.cspNonce : undefined
  return new Promise((resolve, reject) => {
    let shellRendered = false
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ''}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true
          const body = new LowPriorityPreloads()
          responseHeaders.set('Content-Type', 'text/html')
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }))
          pipe(body)
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors of the initial shell are logged by Remix itself.
          if (shellRendered) console.error(error)
        },
      },
    )
    setTimeout(abort, ABORT_DELAY)
  })
}
