// One relay in its own process for bench/relay.ts and the cross-node test: DATABASE_URL names the
// shared database; RELAY_NODE_ID / RELAY_INTERNAL_URL / RELAY_INTERNAL_SECRET as in production.
// Prints {"port":N} once listening; SIGINT closes it (so --cpu-prof writes its profile).
import { loadConfig } from '../../server/config'
import { setConfig } from '../../app/utils/env.server'
import { disconnectDatabase, tuneDatabase } from '../../app/utils/db.server'
import { startRelay } from '../../relay/relay.server'
import { nativePump, pumpStats } from '../../relay/native-pump'

const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent', SEED_DEMO: 'false' })
setConfig(config)
await tuneDatabase()
const relay = await startRelay({ port: Number(process.env.RELAY_PORT ?? 0), host: '127.0.0.1', log: (line) => console.error(line) })
// (RELAY_PUMP chooses; 1 when the native pump moves large bodies)
console.log(JSON.stringify({ port: relay.port, nativePump: nativePump() ? 1 : 0 }))
process.once('SIGINT', () => {
  if (pumpStats.bodies) console.error(`relay: ${pumpStats.bodies} bodies carried whole by the native pump, ${(pumpStats.moved / 1e6).toFixed(0)} MB moved`)
  void relay
    .close()
    .then(() => disconnectDatabase())
    .finally(() => process.exit(0))
})
