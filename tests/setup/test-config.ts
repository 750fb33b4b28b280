import { loadConfig } from '../../server/config'
import { setConfig } from '../../app/utils/env.server'

/** The configuration every Vitest file runs with, on `databaseUrl` (setup-test-env.ts, setup-config-only.ts). */
export function setTestConfig(databaseUrl: string) {
  setConfig(
    loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      PORT: '0',
      MQTT_PORT: '0',
      RELAY_PORT: '0',
      PUBLIC_URL: 'http://portal.test',
      RELAY_PUBLIC_URL: 'http://relay.test',
      SEED_DEMO: 'false',
    }),
  )
}
