/**
 * The web server's operational side, mounted before every other middleware (server/app.ts):
 * request ids (X-Request-Id, and `requestId` in every log line written while serving it), request
 * metrics, a warning per 5xx, /healthz, /readyz and /metrics; plus the request tracker that
 * drains the server on SIGTERM (drain.ts).
 */
import { randomUUID } from 'node:crypto'
import type http from 'node:http'
import express from 'express'
import { type Config } from './config'
import { trackRequests, type RequestTracker } from './drain'
import { createReadiness, databaseWritable, healthRoutes, migrationsApplied, type Readiness } from './health'
import { collectDrainMetrics, collectIngestMetrics, collectProcessMetrics, httpMetrics, metricsRoute } from './metrics'
import { componentLogger, withLogFields } from '../app/utils/logger.server'

export type WebOps = {
  readiness: Readiness
  tracker: RequestTracker
  health: express.Router
  middleware: express.Router
  /** the Remix build's route manifest, for the `route` label of the request metrics */
  useRoutes: ReturnType<typeof httpMetrics>['useRoutes']
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,100}$/

export function webOps(config: Config, server: http.Server, root: string): WebOps {
  collectProcessMetrics()
  collectIngestMetrics()
  const log = componentLogger('http')
  const readiness = createReadiness()
  readiness.register('database', databaseWritable)
  readiness.register('migrations', migrationsApplied(root))
  const tracker = trackRequests(server)
  collectDrainMetrics(tracker)
  const health = healthRoutes(readiness, tracker)

  const middleware = express.Router()
  middleware.use((req, res, next) => {
    const given = req.get('x-request-id')
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID()
    res.setHeader('X-Request-Id', requestId)
    res.once('finish', () => {
      // /readyz answers 503 by design when not ready
      if (res.statusCode >= 500 && req.path !== '/readyz') log.warn(`${req.method} ${req.path} answered ${res.statusCode}`, { requestId, status: res.statusCode })
    })
    withLogFields({ requestId }, next)
  })
  const metrics = httpMetrics()
  middleware.use(metrics)
  middleware.use(health)
  middleware.use(metricsRoute(config, { onWebPort: true }))
  return { readiness, tracker, health, middleware, useRoutes: metrics.useRoutes }
}
