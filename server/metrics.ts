/**
 * Prometheus metrics (docs/operations.md lists them and what to alert on): prom-client's default
 * registry, which other modules add their own metrics to, served at GET /metrics.
 *
 * Access (docs/decisions/025-metrics-access.md): on the web port /metrics needs
 * `Authorization: Bearer <METRICS_TOKEN>` and is not served at all without a token; METRICS_PORT
 * opens a separate listener (METRICS_HOST, default 127.0.0.1) for /metrics, /healthz and /readyz
 * that needs the token only when one is set.
 */
import { timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import { type AddressInfo, type Socket } from 'node:net'
import express from 'express'
import { collectDefaultMetrics, register } from 'prom-client'
import { type Config } from './config'
import { listen } from './listen'
import { counter, gauge, histogram } from '../app/utils/metrics.server'
import { isPostgres, postgresPool, prisma } from '../app/utils/db.server'
import { sendIngestStatsTo } from '../ingest/stats'
import { ownReadsTraffic } from '../relay/data-reads'
import { pumpStats } from '../relay/native-pump'
import { routeLabelOf, routePatterns } from './route-label'

// ----------------------------------------------------------------------------- process

/** Process metrics (CPU, heap, event-loop lag, handles, GC) under prom-client's usual names. */
export function collectProcessMetrics() {
  if (!register.getSingleMetric('process_cpu_user_seconds_total')) collectDefaultMetrics()
}

// ----------------------------------------------------------------------------- HTTP

const httpDuration = histogram({
  name: 'pixelfleet_http_request_duration_seconds',
  help: 'Web requests by method, route pattern and status; _count is the number of requests',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
})

/** Times every request (middleware: first in the chain); `useRoutes` gives it the Remix build's routes for the labels. */
export function httpMetrics(): express.RequestHandler & { useRoutes: (routes: Parameters<typeof routePatterns>[0]) => void } {
  let patterns: ReturnType<typeof routePatterns> | null = null
  const handler = (req: express.Request, res: express.Response, next: express.NextFunction) => {
    const end = httpDuration.startTimer()
    res.once('finish', () => end({ method: req.method, route: routeLabelOf(patterns, req.path, res.statusCode), status: String(res.statusCode) }))
    next()
  }
  return Object.assign(handler, { useRoutes: (routes: Parameters<typeof routePatterns>[0]) => void (patterns = routePatterns(routes)) })
}

/** Requests this node is serving now and whether it drains: what a rollout watches before it stops a node. */
let drainSource: { readonly inFlight: number; readonly draining: boolean } | null = null
export function collectDrainMetrics(tracker: { readonly inFlight: number; readonly draining: boolean }) {
  drainSource = tracker
}
gauge({
  name: 'pixelfleet_http_requests_in_flight',
  help: 'Web requests this node is serving now; event streams not counted, a scrape on the web port counts itself',
  collect() {
    if (drainSource) this.set(drainSource.inFlight)
  },
})
gauge({
  name: 'pixelfleet_draining',
  help: '1 while this node drains after SIGTERM, else 0',
  collect() {
    if (drainSource) this.set(drainSource.draining ? 1 : 0)
  },
})

// ----------------------------------------------------------------------------- ingest

const ingestMessages = counter({ name: 'pixelfleet_ingest_messages_total', help: 'Agent messages ingest committed (stored) or could not store (failed)', labelNames: ['outcome'] })
const ingestBatch = histogram({
  name: 'pixelfleet_ingest_batch_duration_seconds',
  help: 'Time of one ingest transaction (one batch of messages) from its start to its commit',
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
})

export function collectIngestMetrics() {
  sendIngestStatsTo((stats) => {
    if (stats.stored) ingestMessages.inc({ outcome: 'stored' }, stats.stored)
    if (stats.failed) ingestMessages.inc({ outcome: 'failed' }, stats.failed)
    for (const seconds of stats.batchSeconds) ingestBatch.observe(seconds)
  })
  // both series exist from the start (rate() of a missing series is no data, not 0)
  ingestMessages.inc({ outcome: 'stored' }, 0)
  ingestMessages.inc({ outcome: 'failed' }, 0)
}

// ----------------------------------------------------------------------------- services

export type MetricSources = {
  /** agents with an MQTT connection to this node's embedded broker (external mode: undefined) */
  connectedAgents?: () => number
  /** external broker mode */
  partitions?: { count: number; owned: () => number[]; liveNodes: () => string[]; queueDepths: () => Promise<Map<number, number>> }
  relay: { server: http.Server; tunnelCount: () => number }
}

let sources: MetricSources | null = null
let relayBytes = { closedIn: 0, closedOut: 0, open: new Set<Socket>() }

/** A count from the database, or nothing this scrape when it does not answer (the scrape still succeeds). */
const fromDatabase = (read: () => Promise<number>) => read().catch(() => null)

gauge({
  name: 'pixelfleet_mqtt_connected_agents',
  help: "Agents connected to this node's embedded MQTT broker (not present with an external broker)",
  collect() {
    if (sources?.connectedAgents) this.set(sources.connectedAgents())
  },
})
gauge({
  name: 'pixelfleet_agents_online',
  help: 'Agents with an open MQTT session, over the whole deployment (from the database)',
  async collect() {
    const count = sources && (await fromDatabase(() => prisma.agent.count({ where: { online: true } })))
    if (typeof count === 'number') this.set(count)
  },
})
gauge({
  name: 'pixelfleet_relay_sessions_open',
  help: 'Relay proxy sessions open now, over the whole deployment (from the database)',
  async collect() {
    const count = sources && (await fromDatabase(() => prisma.proxySession.count({ where: { closedAt: null, expiresAt: { gt: new Date() } } })))
    if (typeof count === 'number') this.set(count)
  },
})
gauge({
  name: 'pixelfleet_relay_tunnels',
  help: 'Agent tunnels open on this relay',
  collect() {
    if (sources) this.set(sources.relay.tunnelCount())
  },
})
counter({
  name: 'pixelfleet_relay_bytes_total',
  help: "Bytes through this relay's connections (in = received from browsers and agents, out = sent)",
  labelNames: ['direction'],
  collect() {
    // the server's sockets, the data connections moved to sockets of their own, and what the native pump moved
    let inBytes = relayBytes.closedIn + ownReadsTraffic.closedIn + pumpStats.moved
    let outBytes = relayBytes.closedOut + ownReadsTraffic.closedOut + pumpStats.moved
    for (const socket of [...relayBytes.open, ...ownReadsTraffic.open]) {
      inBytes += socket.bytesRead
      outBytes += socket.bytesWritten
    }
    this.reset()
    this.inc({ direction: 'in' }, inBytes)
    this.inc({ direction: 'out' }, outBytes)
  },
})
gauge({
  name: 'pixelfleet_ingest_partition_owned',
  help: 'External broker mode: ingest partitions this node consumes (1) or stands by for (0)',
  labelNames: ['partition'],
  collect() {
    const partitions = sources?.partitions
    if (!partitions) return
    const mine = new Set(partitions.owned())
    for (let p = 0; p < partitions.count; p++) this.set({ partition: String(p) }, mine.has(p) ? 1 : 0)
  },
})
gauge({
  name: 'pixelfleet_cluster_nodes',
  help: 'External broker mode: live nodes this node hears (itself included)',
  collect() {
    if (sources?.partitions) this.set(sources.partitions.liveNodes().length)
  },
})
gauge({
  name: 'pixelfleet_ingest_queue_messages',
  help: 'External broker mode: messages waiting in each ingest partition queue (ingest lag)',
  labelNames: ['partition'],
  async collect() {
    const depths = (await sources?.partitions?.queueDepths().catch(() => null)) ?? new Map<number, number>()
    for (const [p, depth] of depths) this.set({ partition: String(p) }, depth)
  },
})
gauge({
  name: 'pixelfleet_db_pool_connections',
  help: 'PostgreSQL pool connections by state (total, idle, waiting = callers waiting for one)',
  labelNames: ['state'],
  collect() {
    if (!sources || !isPostgres()) return
    const pool = postgresPool()
    this.set({ state: 'total' }, pool.totalCount)
    this.set({ state: 'idle' }, pool.idleCount)
    this.set({ state: 'waiting' }, pool.waitingCount)
  },
})

/** The running services the gauges read when scraped (services.ts; the latest call wins). */
export function collectServiceMetrics(running: MetricSources) {
  sources = running
  relayBytes = { closedIn: 0, closedOut: 0, open: new Set<Socket>() }
  const bytes = relayBytes
  running.relay.server.on('connection', (socket: Socket) => {
    bytes.open.add(socket)
    socket.once('close', () => {
      bytes.open.delete(socket)
      bytes.closedIn += socket.bytesRead
      bytes.closedOut += socket.bytesWritten
    })
  })
}

// ----------------------------------------------------------------------------- serving

function tokenMatches(header: string | undefined, token: string) {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** GET /metrics; `requireToken`: on the web port it is served only with the token. */
export function metricsRoute(config: Config, options: { onWebPort: boolean }): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' || req.path !== '/metrics') return next()
    const token = config.METRICS_TOKEN
    if (options.onWebPort && !token) return next()
    if (token && !tokenMatches(req.get('authorization'), token)) {
      res.setHeader('WWW-Authenticate', 'Bearer')
      return void res.status(401).json({ error: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>' })
    }
    register.metrics().then(
      (text) => {
        res.setHeader('Content-Type', register.contentType)
        res.setHeader('Cache-Control', 'no-store')
        res.end(text)
      },
      (error: Error) => res.status(500).type('text/plain').end(`metrics failed: ${error.message}`),
    )
  }
}

/** The METRICS_PORT listener: /metrics and the health routes, nothing else. */
export async function startMetricsServer(config: Config, health: express.Router): Promise<{ port: number; close: () => Promise<void> }> {
  const app = express()
  app.disable('x-powered-by')
  app.use(health)
  app.use(metricsRoute(config, { onWebPort: false }))
  app.use((_req, res) => void res.status(404).json({ error: 'this port serves /metrics, /healthz and /readyz only' }))
  const server = http.createServer(app)
  await listen(server, config.METRICS_PORT ?? 0, config.METRICS_HOST, 'METRICS_PORT')
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
