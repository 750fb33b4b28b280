import { afterAll, beforeAll } from 'vitest'
import { loadConfig } from '../../server/config'
import { disconnectDatabase, tuneDatabase } from '../../app/utils/db.server'
import { setConfig } from '../../app/utils/env.server'
import { createTestDatabase } from './test-db'

/** Each test file gets its own database copied from the migrated template. */
const db = createTestDatabase('unit')
setConfig(
  loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: db.url,
    LOG_LEVEL: 'silent',
    PORT: '0',
    MQTT_PORT: '0',
    RELAY_PORT: '0',
    PUBLIC_URL: 'http://portal.test',
    RELAY_PUBLIC_URL: 'http://relay.test',
    SEED_DEMO: 'false',
  }),
)

beforeAll(async () => {
  await tuneDatabase()
})

afterAll(async () => {
  await disconnectDatabase()
  db.remove()
})
