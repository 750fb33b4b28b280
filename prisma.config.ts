// Prisma CLI configuration. The JS engine and the better-sqlite3 adapter keep the CLI offline:
// no Rust engine download (docs/decisions/002-prisma-offline.md).
import path from 'node:path'
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { defineConfig } from 'prisma/config'
import { resolveDatabaseUrl } from './server/database-url'

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'migrations') },
  async adapter() {
    return new PrismaBetterSQLite3({ url: resolveDatabaseUrl(process.env.DATABASE_URL) })
  },
})
