// `npm start`: migrate, build when sources changed, seed demo data, then serve web + broker + relay
// (+ a simulated fleet). `npm run dev` serves through Vite instead of the build.
import './route-match-cache'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildApp, buildIsStale } from './build'
import { ConfigError, loadConfig } from './config'
import { migrateDatabase } from './migrate'
import { DatabaseInUseError, lockDatabase } from './db-lock'
import { PortInUseError } from './app'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const dev = process.argv.includes('--dev')
// `npm start` / `npm run dev` are the demo: SEED_DEMO defaults to true there (not in start:prod).
if (process.argv.includes('--demo') && !process.env.SEED_DEMO) process.env.SEED_DEMO = 'true'

async function main() {
  process.env.NODE_ENV ??= dev ? 'development' : 'production'
  const config = loadConfig()
  const started = Date.now()
  // Before anything touches the database: a second process on it stops here with one clear line.
  const releaseLock = lockDatabase(config.DATABASE_URL)
  await migrateDatabase(config.DATABASE_URL, root)
  // PIXELFLEET_SKIP_BUILD=1 (tests) keeps an existing build even when sources are newer.
  if (!dev && buildIsStale(root, process.env.PIXELFLEET_SKIP_BUILD === '1')) {
    console.log('Building the web app (first start or sources changed)...')
    await buildApp(root)
  }
  const { applySafeDefaults } = await import('./safe-defaults')
  await applySafeDefaults(config)
  const { startServices } = await import('./services')
  const services = await startServices(config, { dev, root })
  console.log(
    `Pixelfleet ${dev ? '(dev) ' : ''}ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${config.publicUrl} ` +
      `(web :${services.web.port}, MQTT :${services.mqttPort}, relay :${services.relayPort})`,
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`${signal}: shutting down...`)
    await services.close()
    releaseLock()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof PortInUseError || error instanceof DatabaseInUseError) console.error(error.message)
  else console.error(error instanceof Error && !process.env.DEBUG ? `Pixelfleet failed to start: ${error.stack ?? error.message}` : error)
  process.exit(1)
})
