import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { promisify } from 'node:util'
import Database from 'better-sqlite3'
import { isPostgresUrl, migratePostgres } from './migrate-postgres'

const run = promisify(execFile)
const require = createRequire(import.meta.url)

/** Applies committed migrations with `prisma migrate deploy` (offline: JS engine + adapter). */
export async function migrateDatabase(databaseUrl: string, root = process.cwd()) {
  if (isPostgresUrl(databaseUrl)) return migratePostgres(databaseUrl, root)
  // The Prisma CLI costs a process start and ~2.5 s of CPU even when there is nothing to apply
  // (every restart, every test portal); an up-to-date database skips it.
  if (sqliteIsCurrent(databaseUrl, root)) return
  const prismaCli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build/index.js')
  try {
    await run(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    })
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`Database migration failed: ${(e.stderr || e.stdout || e.message).trim()}`)
  }
}

/**
 * True when the SQLite database records exactly the committed migrations as applied, each with the
 * checksum of its file, and none failed or rolled back: `prisma migrate deploy` would change nothing.
 * Anything else (no file yet, a new, edited or failed migration) leaves the decision to Prisma.
 */
export function sqliteIsCurrent(databaseUrl: string, root = process.cwd()): boolean {
  if (!databaseUrl.startsWith('file:')) return false
  const file = path.resolve(root, databaseUrl.slice('file:'.length))
  if (!fs.existsSync(file)) return false
  const dir = path.join(root, 'prisma/migrations')
  const committed = new Map<string, string>()
  for (const name of fs.readdirSync(dir)) {
    const sql = path.join(dir, name, 'migration.sql')
    if (fs.existsSync(sql)) committed.set(name, createHash('sha256').update(fs.readFileSync(sql)).digest('hex'))
  }
  let db: Database | undefined
  try {
    db = new Database(file, { readonly: true })
    const rows = db.prepare('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations').all() as {
      migration_name: string
      checksum: string
      finished_at: string | null
      rolled_back_at: string | null
    }[]
    const applied = rows.filter((r) => r.rolled_back_at === null)
    if (applied.length !== committed.size || applied.some((r) => r.finished_at === null)) return false
    return applied.every((r) => committed.get(r.migration_name) === r.checksum)
  } catch {
    // no migrations table yet, or not a database Prisma can read: Prisma says what is wrong
    return false
  } finally {
    db?.close()
  }
}
