import type express from 'express'

/**
 * Remix writes a page as React streams it and calls `res.flush()` after every chunk; with
 * compression each flush ends a deflate block (Z_SYNC_FLUSH), so a page of a few hundred small
 * chunks cost more CPU in zlib than in React, and compressed worse. Flushes are merged into one per
 * event-loop turn: whatever is written in the same turn leaves together, later output (a slow
 * loader, an event stream) still goes out at once.
 */
export function coalesceFlush(): express.RequestHandler {
  return (_req, res, next) => {
    const target = res as express.Response & { flush?: () => void }
    const flush = target.flush
    if (typeof flush === 'function') {
      let scheduled = false
      target.flush = () => {
        if (scheduled) return
        scheduled = true
        setImmediate(() => {
          scheduled = false
          if (!res.writableEnded && !res.destroyed) flush.call(res)
        })
      }
    }
    next()
  }
}
