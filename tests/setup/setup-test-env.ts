import { afterAll, beforeAll } from 'vitest'
import { disconnectDatabase, tuneDatabase } from '../../app/utils/db.server'
import { setTestConfig } from './test-config'
import { createTestDatabase } from './test-db'

/** Each test file gets its own database copied from the migrated template. */
const db = createTestDatabase('unit')
setTestConfig(db.url)

beforeAll(async () => {
  await tuneDatabase()
})

afterAll(async () => {
  await disconnectDatabase()
  db.remove()
})
