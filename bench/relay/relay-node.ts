// One relay in its own process for bench/relay.ts and the cross-node test: DATABASE_URL names the
// shared database; RELAY_NODE_ID / RELAY_INTERNAL_URL / RELAY_INTERNAL_SECRET as in production.
// Prints {"port":N} once listening; SIGINT closes it (so --cpu-prof writes its profile).
import { loadConfig } from '../../server/config'
import { setConfig } from '../../app/utils/env.server'
import { disconnectDatabase, tuneDatabase } from '../../app/utils/db.server'
import { startRelay } from '../../relay/relay.server'

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', SEED_DEMO: 'false' })
setConfig(config)
await tuneDatabase()
const relay = await startRelay({ port: Number(process.env.RELAY_PORT ?? 0), host: '127.0.0.1' })
console.log(JSON.stringify({ port: relay.port }))
process.once('SIGINT', () => {
  void relay
    .close()
    .then(() => disconnectDatabase())
    .finally(() => process.exit(0))
})
