import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import type pg from 'pg'

export const POSTGRES_MIGRATIONS = 'prisma/postgres/migrations'
/** Any fixed key: serialises nodes that start at the same time against one database. */
const LOCK_KEY = 7_307_011

export function isPostgresUrl(url: string) {
  return /^postgres(ql)?:\/\//.test(url)
}

/**
 * Applies prisma/postgres/migrations with `pg`, recording them in Prisma's own `_prisma_migrations`
 * table. Prisma 6.19's wasm schema engine cannot read that table through the pg adapter
 * (docs/decisions/009-postgresql-provider.md), so we apply the committed SQL ourselves: each
 * migration in one transaction, under an advisory lock so several nodes may start at once.
 */
export async function migratePostgres(databaseUrl: string, root = process.cwd()) {
  const dir = path.join(root, POSTGRES_MIGRATIONS)
  const names = fs.readdirSync(dir).filter((d) => fs.existsSync(path.join(dir, d, 'migration.sql'))).sort()
  const client = await connectWhenUp(databaseUrl)
  try {
    await client.query('SELECT pg_advisory_lock($1)', [LOCK_KEY])
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`)
    const { rows } = await client.query<{ migration_name: string; finished_at: Date | null }>(
      'SELECT "migration_name", "finished_at" FROM "_prisma_migrations" WHERE "rolled_back_at" IS NULL',
    )
    const failed = rows.find((r) => !r.finished_at)
    if (failed) throw new Error(`migration ${failed.migration_name} failed earlier; resolve it before starting`)
    const applied = new Set(rows.map((r) => r.migration_name))
    for (const name of names) {
      if (applied.has(name)) continue
      const sql = fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8')
      const checksum = createHash('sha256').update(sql).digest('hex')
      await client.query('BEGIN')
      try {
        await client.query(sql)
        await client.query(
          'INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "applied_steps_count") VALUES ($1, $2, now(), $3, 1)',
          [randomUUID(), checksum, name],
        )
        await client.query('COMMIT')
      } catch (error) {
        await client.query('ROLLBACK')
        throw new Error(`${name}: ${(error as Error).message}`)
      }
    }
  } finally {
    await client.end()
  }
}

/** Errors of a server that is not up (yet): refused, unreachable, starting or shutting down. */
const NOT_UP = /^(ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT|EAI_AGAIN|57P03|57P01)$/
const WAIT_STEP_MS = 2000

/**
 * A node started before its database waits for it (one line now, one every ~30 s) instead of
 * exiting on ECONNREFUSED; other errors (password, missing database) end the start at once.
 */
async function connectWhenUp(databaseUrl: string): Promise<pg.Client> {
  const where = new URL(databaseUrl).host
  const started = Date.now()
  for (let attempt = 1; ; attempt++) {
    // loaded here: a SQLite start imports this module (health, migrate) but never needs pg
    const { Client } = createRequire(import.meta.url)('pg') as typeof pg
    const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 })
    try {
      await client.connect()
      if (attempt > 1) console.log(`database: PostgreSQL at ${where} answers after ${((Date.now() - started) / 1000).toFixed(0)} s`)
      return client
    } catch (error) {
      await client.end().catch(() => {})
      const code = String((error as { code?: unknown }).code ?? '')
      if (!NOT_UP.test(code) && !/timeout/i.test((error as Error).message)) throw error
      if (attempt === 1 || attempt % 15 === 0) console.log(`database: waiting for PostgreSQL at ${where} (${code || (error as Error).message}); trying again every ${WAIT_STEP_MS / 1000} s`)
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS))
    }
  }
}
