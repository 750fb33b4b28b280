// The broker alone in its own process, on DATABASE_URL and MQTT_PORT, without web or relay.
// Used by the restart test and the ingest benchmark; prints `MQTT_PORT=<port>` once listening
// and drains ingest on SIGTERM/SIGINT.
import { brokerLogger, startBroker } from './broker.server'
import { loadConfig } from '../server/config'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, tuneDatabase } from '../app/utils/db.server'

const config = loadConfig()
setConfig(config)
await tuneDatabase()
const broker = await startBroker({ port: config.MQTT_PORT, host: process.env.MQTT_HOST ?? '127.0.0.1', logger: brokerLogger(config.LOG_LEVEL) })
console.log(`MQTT_PORT=${broker.port}`)

const stop = async () => {
  await broker.close()
  await disconnectDatabase()
  process.exit(0)
}
process.on('SIGTERM', () => void stop())
process.on('SIGINT', () => void stop())
