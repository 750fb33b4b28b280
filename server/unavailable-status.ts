import type express from 'express'
import { RETRY_AFTER_SECONDS } from '../app/utils/errors.server'

/**
 * The load-context hook app/entry.server.tsx's handleError calls when a request failed because the
 * database or broker is briefly unavailable (app/utils/errors.server.ts decides): the 5xx status
 * Remix then sends becomes 503 with Retry-After, whichever answer it is (a client navigation's data
 * request, a resource route; documents get their own page in the entry). handleError runs before
 * the response is sent, and the Remix adapter sets the status with `res.status()` before writing.
 */
export function unavailableMarker(res: express.Response): () => void {
  return () => {
    if (res.locals.unavailable || res.headersSent) return
    res.locals.unavailable = true
    const status = res.status.bind(res)
    res.status = (code: number) => {
      if (code < 500) return status(code)
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      // the status text Remix set for the 5xx would contradict the 503
      res.statusMessage = 'Service Unavailable'
      return status(503)
    }
  }
}
