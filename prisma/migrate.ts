// npm run db:migrate: applies the committed migrations to DATABASE_URL (default ./data/pixelfleet.db).
import { resolveDatabaseUrl } from '../server/database-url'
import { migrateDatabase } from '../server/migrate'

await migrateDatabase(resolveDatabaseUrl(process.env.DATABASE_URL))
console.log('Migrations applied.')
