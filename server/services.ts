import { type Config } from './config'
import { startWebServer, type WebServer } from './app'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase, tuneDatabase } from '../app/utils/db.server'
import { seedDemo } from '../prisma/seed-data'

export type Services = {
  web: WebServer
  mqttPort: number
  relayPort: number
  close: () => Promise<void>
}

/**
 * Composes the process: one domain layer, with the web server, the MQTT broker and the relay
 * around it. Tests call this with port 0 and their own database.
 */
export async function startServices(config: Config, options: { dev: boolean; root: string; seed?: boolean }): Promise<Services> {
  setConfig(config)
  await tuneDatabase()
  if (options.seed ?? config.SEED_DEMO) await seedDemo()
  const web = await startWebServer(config, options)
  // With PORT=0 (tests) links in e-mails must name the port actually bound.
  if (!config.PUBLIC_URL) {
    config.publicUrl = `http://localhost:${web.port}`
    setConfig(config)
  }
  return {
    web,
    mqttPort: config.MQTT_PORT,
    relayPort: config.RELAY_PORT,
    close: async () => {
      await web.close()
      await disconnectDatabase()
    },
  }
}
