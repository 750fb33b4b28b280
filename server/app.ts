import http from 'node:http'
import { type AddressInfo } from 'node:net'
import path from 'node:path'
import { type ServerBuild } from '@remix-run/node'
import express from 'express'
import { type Config } from './config'
import { brokerAuthRouter, brokerVhost } from '../broker/http-auth.server'
import { clientInfoMiddleware, csrfMiddleware, pathGuard, remixHandler } from './request-guards'
import { securityHeaders } from './security-headers'
import { compressResponses } from './compress-response'
import { listen } from './listen'
import { webOps, type WebOps } from './web-ops'
import { componentLogger } from '../app/utils/logger.server'
import { unavailableMarker } from './unavailable-status'
import { loadShedding } from './load-shedding'

export type WebServer = { server: http.Server; port: number; ops: WebOps; close: () => Promise<void> }

/**
 * The web server: Remix (production build, or Vite middleware with --dev), static assets,
 * and the request guards of request-guards.ts (client address, cross-site check, body cap).
 */
export async function startWebServer(config: Config, options: { dev: boolean; root: string }): Promise<WebServer> {
  const app = express()
  const server = http.createServer(app)
  // An idle kept-alive connection outlives the client's own idle limit (undici drops it 1 s before
  // this hint, nginx after 60 s), so the client closes first. With Node's 5 s, a request sent on a
  // connection the busy server was closing at that moment failed with "other side closed".
  server.keepAliveTimeout = 65_000
  server.headersTimeout = 66_000
  app.disable('x-powered-by')
  // request ids, metrics, /healthz, /readyz, /metrics: before every guard (balancers and Prometheus are no browsers)
  const ops = webOps(config, server, options.root)
  app.use(ops.middleware)
  app.set('trust proxy', config.TRUST_PROXY)
  app.use(securityHeaders(config, options))
  app.use(compressResponses())

  app.use(clientInfoMiddleware())
  app.use(pathGuard())
  // External broker mode: RabbitMQ's HTTP auth backend asks here (no browser form, so before the CSRF check).
  if (config.MQTT_BROKER_URL) app.use('/broker-auth', brokerAuthRouter({ vhost: brokerVhost(config), exchange: 'amq.topic', networks: config.BROKER_AUTH_NETWORKS, secret: config.BROKER_AUTH_SECRET, log: componentLogger('broker-auth') }))
  app.use(csrfMiddleware(() => config.publicUrl))

  let build: ServerBuild | (() => Promise<ServerBuild>)
  let closeVite: (() => Promise<void>) | undefined
  if (options.dev) {
    const vite = await import('vite')
    const viteServer = await vite.createServer({ root: options.root, server: { middlewareMode: true }, appType: 'custom' })
    closeVite = () => viteServer.close()
    app.use(viteServer.middlewares)
    build = () => viteServer.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>
  } else {
    const buildDir = path.join(options.root, 'build')
    app.use('/assets', express.static(path.join(buildDir, 'client/assets'), { immutable: true, maxAge: '1y' }))
    // Only names with an extension are files there (favicon.svg, ...): pages skip the stat() per request,
    // and so do Remix's data requests (`/agents.data`: a client navigation, never a file)
    const publicFiles = express.static(path.join(buildDir, 'client'), { maxAge: '1h' })
    app.use((req, res, next) => (/\.[A-Za-z0-9]+$/.test(req.path) && !req.path.endsWith('.data') ? publicFiles(req, res, next) : next()))
    build = (await import(path.join(buildDir, 'server/index.js'))) as ServerBuild
    ops.useRoutes(build.routes)
  }
  // after the static files (cheap), before Remix: pages, data requests and the API are what a burst costs
  app.use(loadShedding({ maxInFlight: config.WEB_MAX_IN_FLIGHT, maxQueued: config.WEB_MAX_QUEUED, maxWaitMs: config.WEB_QUEUE_WAIT_MS }))
  app.all('*', remixHandler(build, options.dev ? 'development' : 'production', (_req, res) => ({ cspNonce: res.locals.cspNonce as string, markUnavailable: unavailableMarker(res) })))

  await listen(server, config.PORT, config.HOST, 'PORT')
  const port = (server.address() as AddressInfo).port
  return {
    server,
    port,
    ops,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await closeVite?.()
    },
  }
}
