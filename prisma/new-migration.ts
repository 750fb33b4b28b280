// npm run db:new-migration -- <name>: writes, for both providers, a migration folder with the SQL
// that takes the last migration's schema snapshot to the current schema:
//   prisma/migrations/<timestamp>_<name>/          (SQLite, from prisma/schema.prisma)
//   prisma/postgres/migrations/<timestamp>_<name>/ (PostgreSQL, from the generated prisma/postgres/schema.prisma)
// npm run db:new-migration -- check: exits 1 unless both migration sets are in step with the schema.
// The offline engine cannot diff against a database when an adapter is configured, so each
// migration folder keeps the schema.prisma it was made from (docs/decisions/002-prisma-offline.md).
// The PostgreSQL diff still needs a server to talk to (any empty one: PIXELFLEET_TEST_POSTGRES_URL,
// else scripts/ensure-postgres.sh starts one) (docs/decisions/009-postgresql-provider.md).
// Hand-written SQL (triggers, data) must be added to BOTH files, in each dialect.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { writePostgresSchema } from './postgres-schema'

const name = process.argv[2]
const checkOnly = name === 'check' || name === '--check'
if (!name || (!checkOnly && !/^[a-z0-9_]+$/.test(name))) {
  console.error('Usage: npm run db:new-migration -- <snake_case_name>   (or -- check)')
  process.exit(2)
}

type Provider = { label: string; migrations: string; schema: string; config: string; env: NodeJS.ProcessEnv }

function lastSnapshot(migrations: string) {
  const last = fs
    .readdirSync(migrations)
    .filter((d) => fs.existsSync(path.join(migrations, d, 'schema.prisma')))
    .sort()
    .at(-1)
  if (!last) throw new Error(`No migration folder in ${migrations} holds a schema.prisma snapshot`)
  return path.join(migrations, last, 'schema.prisma')
}

/** The SQL from the last snapshot to the current schema; '' when they match. */
function diff(p: Provider): string {
  const sql = execFileSync(
    process.execPath,
    ['node_modules/prisma/build/index.js', 'migrate', 'diff', '--config', p.config, '--from-schema-datamodel', lastSnapshot(p.migrations), '--to-schema-datamodel', p.schema, '--script'],
    { encoding: 'utf8', env: p.env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  return !sql.trim() || sql.includes('This is an empty migration') ? '' : sql
}

function postgresServer(): string {
  if (process.env.PIXELFLEET_TEST_POSTGRES_URL) return process.env.PIXELFLEET_TEST_POSTGRES_URL
  return execFileSync('scripts/ensure-postgres.sh', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim()
}

const schemaChanged = writePostgresSchema()
const providers: Provider[] = [
  { label: 'SQLite', migrations: 'prisma/migrations', schema: 'prisma/schema.prisma', config: 'prisma.config.ts', env: process.env },
  {
    label: 'PostgreSQL',
    migrations: 'prisma/postgres/migrations',
    schema: 'prisma/postgres/schema.prisma',
    config: 'prisma.postgres.config.ts',
    env: { ...process.env, DATABASE_URL: postgresServer() },
  },
]
const diffs = providers.map((p) => ({ p, sql: diff(p) }))

if (checkOnly) {
  const behind = diffs.filter((d) => d.sql)
  if (schemaChanged) console.error('prisma/postgres/schema.prisma was stale (now rewritten): commit it.')
  for (const d of behind) console.error(`${d.p.migrations} is behind the schema: run npm run db:new-migration -- <name>`)
  if (behind.length || schemaChanged) process.exit(1)
  console.log('Both migration sets are in step with prisma/schema.prisma.')
  process.exit(0)
}
if (diffs.every((d) => !d.sql)) {
  console.log('schema.prisma matches the last migrations: nothing to write.')
  process.exit(0)
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
for (const { p, sql } of diffs) {
  if (!sql) continue
  const dir = path.join(p.migrations, `${stamp}_${name}`)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, 'migration.sql'), sql)
  fs.copyFileSync(p.schema, path.join(dir, 'schema.prisma'))
  console.log(`Wrote ${dir}/migration.sql (${p.label})`)
}
