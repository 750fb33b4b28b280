// `npm start`: migrate, build when sources changed, seed demo data, then serve web + broker + relay
// (+ a simulated fleet). `npm run dev` serves through Vite instead of the build.
import './route-match-cache'
import path from 'node:path'
import { inspect } from 'node:util'
import { fileURLToPath } from 'node:url'
import { buildApp, buildIsStale, buildNativePump } from './build'
import { ConfigError, loadConfig } from './config'
import { migrateDatabase } from './migrate'
import { DatabaseInUseError, lockDatabase } from './db-lock'
import { PortInUseError } from './listen'
import { announce, componentLogger, configureLogging, flushRepeats, routeConsoleToLog } from '../app/utils/logger.server'
import { defaultNodeId } from '../broker/external.server'
import { projectRoot } from '../app/utils/project-root.server'

const root = projectRoot(path.dirname(fileURLToPath(import.meta.url)))
const dev = process.argv.includes('--dev')
// `npm start` / `npm run dev` are the demo: SEED_DEMO defaults to true there (not in start:prod).
if (process.argv.includes('--demo') && !process.env.SEED_DEMO) process.env.SEED_DEMO = 'true'

const log = componentLogger('server')

async function main() {
  process.env.NODE_ENV ??= dev ? 'development' : 'production'
  const config = loadConfig()
  // JSON lines (or pretty in a terminal) from here on, console.* included (docs/operations.md)
  configureLogging({ level: config.LOG_LEVEL, format: config.LOG_FORMAT, nodeId: config.NODE_ID ?? defaultNodeId() })
  routeConsoleToLog()
  const started = Date.now()
  // Before anything touches the database: a second process on it stops here with one clear line.
  const releaseLock = lockDatabase(config.DATABASE_URL)
  await migrateDatabase(config.DATABASE_URL, root)
  // PIXELFLEET_SKIP_BUILD=1 (tests) keeps an existing build even when sources are newer.
  if (!dev && buildIsStale(root, process.env.PIXELFLEET_SKIP_BUILD === '1')) {
    log.info('Building the web app (first start or sources changed)...')
    await buildApp(root)
  }
  // (a checkout pulled without `npm install` since native/relay-pump.c changed); the image and the tests built it already
  if (process.env.PIXELFLEET_SKIP_BUILD !== '1') {
    const said = await buildNativePump(root)
    if (said.startsWith('native pump not built')) log.warn(said)
    else if (said) log.info(said)
  }
  const { applySafeDefaults } = await import('./safe-defaults')
  await applySafeDefaults(config)
  const { startServices } = await import('./services')
  const services = await startServices(config, { dev, root })
  // tests and benches read the ports from this line (whatever LOG_LEVEL is): keep its shape
  announce(
    'server',
    `Pixelfleet ${dev ? '(dev) ' : ''}ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${config.publicUrl} ` +
      `(web :${services.web.port}, MQTT :${services.mqttPort}, relay :${services.relayPort}${services.metricsPort !== null ? `, metrics :${services.metricsPort}` : ''})`,
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) {
      log.warn(`${signal} again: exiting without waiting for the drain`)
      return exit(1)
    }
    stopping = true
    const timeoutMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000
    const deadline = Date.now() + timeoutMs
    log.info(`${signal}: draining, then shutting down (at most ${config.SHUTDOWN_TIMEOUT_SECONDS} s)`)
    // the bound holds even if closing something hangs
    setTimeout(() => {
      log.error(`shutdown did not finish within SHUTDOWN_TIMEOUT_SECONDS=${config.SHUTDOWN_TIMEOUT_SECONDS}; exiting`)
      exit(1)
    }, timeoutMs).unref()
    const drained = await services.drain({ graceMs: config.SHUTDOWN_GRACE_SECONDS * 1000, deadline })
    if (!drained) log.warn('requests still in flight at the shutdown deadline were cut off')
    await services.close()
    log.info('shut down')
    exit(0)
  }
  const exit = (code: number) => {
    flushRepeats()
    releaseLock()
    process.exit(code)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

// A start that fails says why in plain text on stderr, not in the log (console.* goes there by now).
const fatal = (text: unknown) => process.stderr.write(`${typeof text === 'string' ? text : inspect(text)}\n`)
main().catch((error) => {
  if (error instanceof ConfigError || error instanceof PortInUseError || error instanceof DatabaseInUseError) fatal(error.message)
  else fatal(error instanceof Error && !process.env.DEBUG ? `Pixelfleet failed to start: ${error.stack ?? error.message}` : error)
  process.exit(1)
})
