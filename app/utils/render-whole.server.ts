import { Writable } from 'node:stream'
import { type ReactNode } from 'react'
import { renderToPipeableStream } from 'react-dom/server'

export type RenderWholeOptions = {
  nonce?: string
  /** a render still waiting this long after it started is cut short (pending boundaries render in the browser) */
  abortDelayMs: number
  /** React's onError for errors inside boundaries (the shell's errors reject instead) */
  onBoundaryError?: (error: unknown, shellRendered: boolean) => void
}

/**
 * Renders a page to one buffer (onAllReady), settling in every case: resolved with the HTML, or
 * rejected when the shell fails or cannot be finished in time.
 *
 * Why the care (docs/benchmarks.md, "Requests that never answer"): React 18 gives no callback at
 * all when `abort()` reaches a request whose shell is not rendered yet: neither onShellError nor
 * onAllReady runs, so a promise waiting for them never settles and the request never answers. That
 * happened under a burst of 16 large pages on a starved CPU: React starts a render in a
 * `setImmediate`, and one queued while the event loop's check phase was running waits for the next
 * iteration, whose timers phase came first and fired the abort timer of a render that had not
 * started (the other renders ahead of it had taken the 5 s). So the abort delay starts when React
 * has done its first pass (an immediate queued after React's own), and an abort that finds the
 * shell unfinished rejects the promise itself.
 */
export function renderWhole(element: ReactNode, options: RenderWholeOptions): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    let shellRendered = false
    let settled = false
    let abortTimer: NodeJS.Timeout | undefined
    const fail = (error: unknown) => {
      if (settled) return
      settled = true
      clearTimeout(abortTimer)
      reject(error)
    }
    const { pipe, abort } = renderToPipeableStream(element, {
      nonce: options.nonce,
      onShellReady() {
        shellRendered = true
      },
      onAllReady() {
        clearTimeout(abortTimer)
        if (settled) return
        const chunks: Buffer[] = []
        const page = new Writable({
          write(chunk: Buffer, _encoding, callback) {
            chunks.push(chunk)
            callback()
          },
          final(callback) {
            if (!settled) {
              settled = true
              resolve(Buffer.concat(chunks))
            }
            callback()
          },
        })
        page.on('error', fail)
        pipe(page)
      },
      onShellError: fail,
      onError(error: unknown) {
        options.onBoundaryError?.(error, shellRendered)
      },
    })
    // React renders in an immediate it has just queued; this one runs after it (same queue, in order)
    setImmediate(() => {
      if (settled) return
      abortTimer = setTimeout(() => {
        if (settled) return
        const shellWasRendered = shellRendered
        abort()
        // with the shell rendered, abort() client-renders what is pending and onAllReady follows;
        // without it React calls nothing back, so the answer is this error (a 500, not silence)
        if (!shellWasRendered) fail(new Error(`The page's shell did not render within ${options.abortDelayMs} ms`))
      }, options.abortDelayMs)
    })
  })
}
