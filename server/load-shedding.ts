import type express from 'express'
import { RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../app/utils/errors.server'

/**
 * Load shedding for the web server (issue #28): at most `maxInFlight` requests are worked on at a
 * time, up to `maxQueued` more wait (first come, first served) for at most `maxWaitMs`, and anything
 * beyond is answered at once with 503 + Retry-After. Before, a burst of 256 connections queued
 * without bound inside the process: every request waited behind the whole burst and the portal took
 * 16 s to answer again. Now a burst costs its own overflow a fast 503, and the queue a request joins
 * is short enough to drain within about a second of the burst ending. Requests whose client went
 * away while queued are dropped unworked.
 *
 * Not counted: health, readiness and metrics (they must answer when the portal is busiest) and the
 * live event stream (it stays open for the page's lifetime; it is not work).
 */

export type LoadSheddingOptions = { maxInFlight: number; maxQueued: number; maxWaitMs: number }

const EXEMPT = /^\/(healthz|readyz|metrics)(\/|$)|^\/resources\/events(\/|$)/

export type LoadShedding = express.RequestHandler & { stats: () => { inFlight: number; queued: number; shed: number } }

export function loadShedding(options: LoadSheddingOptions): LoadShedding {
  let inFlight = 0
  let shed = 0
  const queue: { res: express.Response; start: () => void; timer: NodeJS.Timeout }[] = []

  const refuse = (req: express.Request, res: express.Response) => {
    shed++
    if (res.headersSent || res.destroyed) return
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
    res.setHeader('Cache-Control', 'no-store')
    res.status(503)
    const wantsJson = req.path.startsWith('/client/') || (req.headers.accept ?? '').includes('application/json')
    if (wantsJson) res.json({ code: 'unavailable', message: UNAVAILABLE_MESSAGE })
    else res.type('html').send(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Briefly unavailable - Pixelfleet</title></head><body><h1>The service is briefly unavailable</h1><p>${UNAVAILABLE_MESSAGE}</p></body></html>`)
  }

  const next = () => {
    while (inFlight < options.maxInFlight && queue.length) {
      const waiting = queue.shift()!
      clearTimeout(waiting.timer)
      if (waiting.res.destroyed || waiting.res.writableEnded) continue
      waiting.start()
    }
  }

  const handler = ((req, res, proceed) => {
    if (options.maxInFlight <= 0 || EXEMPT.test(req.path)) return proceed()
    const start = () => {
      inFlight++
      let done = false
      const release = () => {
        if (done) return
        done = true
        inFlight--
        next()
      }
      res.once('finish', release)
      res.once('close', release)
      proceed()
    }
    if (inFlight < options.maxInFlight) return start()
    if (queue.length >= options.maxQueued) return refuse(req, res)
    const entry = {
      res,
      start,
      timer: setTimeout(() => {
        const index = queue.indexOf(entry)
        if (index >= 0) queue.splice(index, 1)
        refuse(req, res)
      }, options.maxWaitMs),
    }
    queue.push(entry)
    // a client that gives up while queued frees its place at once
    res.once('close', () => {
      const index = queue.indexOf(entry)
      if (index < 0) return
      queue.splice(index, 1)
      clearTimeout(entry.timer)
    })
  }) as LoadShedding
  handler.stats = () => ({ inFlight, queued: queue.length, shed })
  return handler
}
