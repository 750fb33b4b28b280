// Prisma CLI configuration for the PostgreSQL variant (prisma/postgres/): JS engine + pg adapter,
// offline like prisma.config.ts (docs/decisions/009-postgresql-provider.md).
import path from 'node:path'
import { PrismaPg } from '@prisma/adapter-pg'
import { defineConfig } from 'prisma/config'

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'postgres', 'schema.prisma'),
  migrations: { path: path.join('prisma', 'postgres', 'migrations') },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL })
  },
})
