// npm run db:seed: adds the demo organization and accounts if they are missing.
import { loadConfig } from '../server/config'
import { setConfig } from '../app/utils/env.server'
import { disconnectDatabase } from '../app/utils/db.server'
import { seedDemo } from './seed-data'

setConfig(loadConfig())
await seedDemo()
await disconnectDatabase()
console.log('Demo data present.')
