import { createHash, randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { processAlive } from '../../server/db-lock'

const root = path.resolve(import.meta.dirname, '../..')
const TEMPLATE_NAME_FILE = path.join(root, 'tests/.tmp/postgres-template.txt')

/**
 * The suites run on PostgreSQL (`npm run test:scaleout`) when PIXELFLEET_TEST_DATABASE=postgres and
 * PIXELFLEET_TEST_POSTGRES_URL names a server and a superuser (scripts/ensure-postgres.sh prints one).
 */
export function testPostgresUrl(): string | null {
  const url = process.env.PIXELFLEET_TEST_POSTGRES_URL
  return process.env.PIXELFLEET_TEST_DATABASE === 'postgres' && url ? url : null
}

/** The server URL with another database name. */
export function withDatabase(url: string, name: string) {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/**
 * Runs SQL synchronously through psql (test databases are made in synchronous setup code). Bounded:
 * a blocked worker event loop fires none of Vitest's timeouts, so a psql that never returned would
 * hang the whole run (CI is stopped after 90 minutes, with nothing said). A lock waited for too long
 * or a server that does not answer fails the test instead, with psql's words.
 */
function psql(url: string, sql: string): string {
  try {
    return execFileSync('psql', [withDatabase(url, 'postgres'), '-XAtqc', sql], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
      killSignal: 'SIGKILL',
      env: { ...process.env, PGCONNECT_TIMEOUT: '30', PGOPTIONS: '-c lock_timeout=60s -c statement_timeout=100s' },
    }).trim()
  } catch (error) {
    const { stderr, signal } = error as { stderr?: string; signal?: string }
    throw new Error(`psql ${JSON.stringify(sql)} failed${signal ? ` (killed after 120 s: ${signal})` : ''}: ${stderr?.trim() || (error as Error).message}`)
  }
}

function migrationsHash() {
  const dir = path.join(root, 'prisma/postgres/migrations')
  const hash = createHash('sha256')
  for (const entry of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, entry, 'migration.sql')
    if (fs.existsSync(file)) hash.update(entry).update(fs.readFileSync(file))
  }
  return hash.digest('hex').slice(0, 12)
}

/**
 * Once per run (global setup): a migrated template database, named by the migrations' hash so it is
 * rebuilt only when they change. C collation orders text like SQLite's default BINARY.
 */
export async function preparePostgresTemplate(url: string, migrate: (url: string) => Promise<void>) {
  const name = `pixelfleet_tpl_${migrationsHash()}`
  const exists = psql(url, `SELECT 1 FROM pg_database WHERE datname = '${name}'`) === '1'
  if (!exists) {
    const building = `${name}_${process.pid}`
    psql(url, `DROP DATABASE IF EXISTS "${building}"`)
    psql(url, `CREATE DATABASE "${building}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`)
    await migrate(withDatabase(url, building))
    psql(url, `ALTER DATABASE "${building}" RENAME TO "${name}"`)
  }
  fs.mkdirSync(path.dirname(TEMPLATE_NAME_FILE), { recursive: true })
  fs.writeFileSync(TEMPLATE_NAME_FILE, name)
  try {
    dropLeftoverDatabases(url, name)
  } catch (error) {
    // housekeeping: a run never fails for it
    console.warn(`leftover test databases not dropped: ${(error as Error).message}`)
  }
}

/**
 * Once per run (global setup): drops what runs that were killed left behind on the shared server,
 * so it does not fill up: test databases whose maker's process is gone (their name ends in its pid
 * and a random suffix), half-built templates of such processes, and templates of older migrations
 * beyond the three newest (another checkout's run may still copy those). A database in use is left.
 */
export function dropLeftoverDatabases(url: string, currentTemplate: string) {
  const rows = psql(url, `SELECT oid, datname FROM pg_database WHERE datname LIKE 'pixelfleet\\_%' ORDER BY oid DESC`)
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('|')[1]!)
  const testDatabase = /^pixelfleet_\w+?_(\d+)_[0-9a-f]{8}$/
  const building = /^pixelfleet_tpl_[0-9a-f]{12}_(\d+)$/
  const template = /^pixelfleet_tpl_[0-9a-f]{12}$/
  const olderTemplates = rows.filter((name) => template.test(name) && name !== currentTemplate)
  const leftovers = [
    ...rows.filter((name) => {
      const pid = (testDatabase.exec(name) ?? building.exec(name))?.[1]
      return pid !== undefined && !processAlive(Number(pid))
    }),
    ...olderTemplates.slice(3),
  ]
  let dropped = 0
  for (const name of leftovers) {
    try {
      psql(url, `DROP DATABASE IF EXISTS "${name}"`)
      dropped++
    } catch {
      // in use after all: left for a later run
    }
  }
  return dropped
}

/** A fresh database copied from the template; remove() drops it (closing leftover connections). */
export function createPostgresTestDatabase(url: string, label: string) {
  const template = fs.readFileSync(TEMPLATE_NAME_FILE, 'utf8').trim()
  const name = `pixelfleet_${label.replace(/\W/g, '_')}_${process.pid}_${randomBytes(4).toString('hex')}`
  psql(url, `CREATE DATABASE "${name}" TEMPLATE "${template}"`)
  return {
    file: null,
    url: withDatabase(url, name),
    remove: () => {
      psql(url, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
    },
  }
}
