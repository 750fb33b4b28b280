import { createRequire } from 'node:module'
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import type { PrismaPg as PrismaPgAdapter } from '@prisma/adapter-pg'
import { PrismaClient, type Prisma } from '@prisma/client'
import type Database from 'better-sqlite3'
import type pg from 'pg'
import { getConfig } from './env.server'
import { singleton } from './singleton.server'
import { installPlanCache } from './prisma-plan-cache.server'

/**
 * The better-sqlite3 connection under each Prisma client (captured when Prisma connects). Shared
 * process-wide like the client itself, whichever module graph created the client (decision 001).
 */
const connections = singleton('prisma-connections', () => new WeakMap<PrismaClient, Database>())

/** Whether DATABASE_URL names a PostgreSQL server (the scale-out mode) rather than a SQLite file. */
export function isPostgres(url = getConfig().DATABASE_URL) {
  return /^postgres(ql)?:\/\//.test(url)
}

/**
 * The pg pool under Prisma's PostgreSQL client; ingest's batched statements use it directly
 * (ingest/sql-pg.server.ts). One per process, like the client.
 */
export function postgresPool(): pg.Pool {
  return singleton('postgres-pool', () => {
    // loaded in PostgreSQL mode only: a SQLite process (the default, every test file) skips ~120 ms of pg and its adapter
    const { Pool } = createRequire(import.meta.url)('pg') as typeof pg
    const pool = new Pool({ connectionString: getConfig().DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE) || 10 })
    // an idle client losing its server must not crash the process; the next query reconnects
    pool.on('error', () => {})
    return pool
  })
}

/**
 * The PostgreSQL variant of the client, generated from prisma/postgres/schema.prisma into its own
 * package (docs/decisions/009-postgresql-provider.md). Same models and API as the SQLite client, so
 * it is typed as that one; loaded only in PostgreSQL mode.
 */
function createPostgresClient(): PrismaClient {
  const { PrismaClient: PgClient } = createRequire(import.meta.url)('.prisma/client-pg') as { PrismaClient: new (options: unknown) => PrismaClient }
  const { PrismaPg } = createRequire(import.meta.url)('@prisma/adapter-pg') as { PrismaPg: typeof PrismaPgAdapter }
  return new PgClient({ adapter: countingTransactions(new PrismaPg(postgresPool())) })
}

/** Prisma transactions open in this thread (PostgreSQL), shared by every module graph like the client. */
const openTransactions = singleton('prisma-pg-open-transactions', () => ({ count: 0 }))

/**
 * Whether a Prisma transaction is open in this thread. Ingest on PostgreSQL blocks its thread until
 * its statements return (sql-pg.server.ts): begun while a Prisma transaction of the same thread
 * holds a row it writes, it would wait for a COMMIT that thread can no longer send, forever (the
 * PostgreSQL test run hung on it in CI). Ingest waits these out first, as it does on SQLite.
 */
export const prismaTransactionOpen = () => openTransactions.count > 0

type TransactionLike = { commit: () => Promise<void>; rollback: () => Promise<void> }
type AdapterLike = { startTransaction: (isolationLevel?: unknown) => Promise<TransactionLike> }

/** Counts the adapter's transactions from their start until their commit or rollback. */
function countingTransactions<F extends object>(factory: F): F {
  const target = factory as unknown as { connect: () => Promise<AdapterLike> }
  const connect = target.connect.bind(factory)
  target.connect = async () => {
    const adapter = await connect()
    const start = adapter.startTransaction.bind(adapter)
    adapter.startTransaction = async (isolationLevel) => {
      openTransactions.count++
      let open = true
      const end = () => {
        if (open) openTransactions.count--
        open = false
      }
      const transaction = await start(isolationLevel).catch((error: unknown) => {
        end()
        throw error
      })
      const commit = transaction.commit.bind(transaction)
      const rollback = transaction.rollback.bind(transaction)
      transaction.commit = () => commit().finally(end)
      transaction.rollback = () => rollback().finally(end)
      return transaction
    }
    return adapter
  }
  return factory
}

/**
 * The bound values one statement may carry in better-sqlite3's SQLite (SQLITE_MAX_VARIABLE_NUMBER,
 * 32766 since SQLite 3.32; tests/unit/db-bind-limit.test.ts checks it). The adapter does not say,
 * so Prisma's query compiler assumed SQLite's old 999 and failed (P2029) on any query binding more
 * ids beside another condition: a member seeing 1,200 of an organization's 2,500 projects could not
 * open the agents list. Declared here, Prisma splits or fails only past the real limit.
 */
export const SQLITE_MAX_BIND_VALUES = 32766

function createClient() {
  // every query of a known shape skips Prisma's compiler (decision 105); Vitest checks each reuse
  installPlanCache({ enabled: getConfig().PRISMA_PLAN_CACHE === 'on', verifyEveryHit: Boolean(process.env.VITEST) })
  const url = getConfig().DATABASE_URL
  if (isPostgres(url)) return createPostgresClient()
  const adapter = new PrismaBetterSQLite3({ url })
  const connect = adapter.connect.bind(adapter)
  const client: PrismaClient = new PrismaClient({
    adapter: Object.assign(adapter, {
      connect: async () => {
        const connection = await connect()
        const db = (connection as unknown as { client: Database }).client
        immediateTransactions(db)
        connections.set(client, db)
        return Object.assign(connection, { getConnectionInfo: () => ({ maxBindValues: SQLITE_MAX_BIND_VALUES, supportsRelationJoins: false }) })
      },
    }),
  })
  return client
}

/**
 * Prisma's transactions begin with a deferred BEGIN: one that reads, then writes after another
 * connection (the ingest worker's) committed, fails with SQLITE_BUSY at once, whatever the busy
 * timeout. BEGIN IMMEDIATE takes the write lock up front and waits for it (busy_timeout) instead.
 */
function immediateTransactions(db: Database) {
  const prepare = db.prepare.bind(db)
  db.prepare = ((source: string) => prepare(source === 'BEGIN' ? 'BEGIN IMMEDIATE' : source)) as Database['prepare']
}

/** The one Prisma client of the process. */
export const prisma: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, prop) {
    const client = singleton('prisma', createClient)
    const value = Reflect.get(client, prop)
    return typeof value === 'function' ? value.bind(client) : value
  },
})

export type Tx = Prisma.TransactionClient

/**
 * Prisma's own SQLite connection, for prepared statements off the query compiler (agent
 * authentication; ingest when it runs in this thread, INGEST_WORKER=0). The ingest worker has its
 * own connection; both coexist because every write transaction begins IMMEDIATE (above) and waits
 * out the other's lock. Callers must not write while `inTransaction` (a Prisma transaction is open).
 */
export async function sqliteConnection(): Promise<Database> {
  if (isPostgres()) throw new Error('sqliteConnection() is for SQLite; PostgreSQL uses postgresPool()')
  const client = singleton('prisma', createClient)
  if (!connections.has(client)) await client.$connect()
  return connections.get(client)!
}

/** SQLite pragmas for a concurrent web + ingest workload: WAL, relaxed fsync, busy timeout. */
export async function tuneDatabase() {
  if (!getConfig().DATABASE_URL.startsWith('file:')) return
  await prisma.$queryRawUnsafe('PRAGMA journal_mode = WAL')
  await prisma.$queryRawUnsafe('PRAGMA synchronous = NORMAL')
  await prisma.$queryRawUnsafe('PRAGMA busy_timeout = 5000')
  await prisma.$queryRawUnsafe('PRAGMA foreign_keys = ON')
  // checkpoints as rarely as ingest's connection (sql-sqlite.server.ts WAL_CHECKPOINT_PAGES)
  await prisma.$queryRawUnsafe('PRAGMA wal_autocheckpoint = 10000')
  // 64 MB of page cache (default 2 MB): fleet pages join thousands of agent rows per request
  await prisma.$queryRawUnsafe('PRAGMA cache_size = -65536')
}

export async function disconnectDatabase() {
  const store = globalThis as unknown as { __pixelfleet?: Map<string, unknown> }
  const client = store.__pixelfleet?.get('prisma') as PrismaClient | undefined
  if (client) {
    await client.$disconnect()
    store.__pixelfleet?.delete('prisma')
  }
  for (const [key, value] of store.__pixelfleet ?? []) {
    // ingest's PostgreSQL connection (ingest/sql-pg.server.ts)
    if (key.startsWith('postgres-ingest')) {
      store.__pixelfleet?.delete(key)
      await (value as { close: () => Promise<void> }).close()
    }
  }
  const pool = store.__pixelfleet?.get('postgres-pool') as pg.Pool | undefined
  if (pool) {
    store.__pixelfleet?.delete('postgres-pool')
    await pool.end().catch(() => undefined)
  }
}

/**
 * A `contains` filter that ignores ASCII case on both providers: SQLite's LIKE already does,
 * PostgreSQL needs `mode: 'insensitive'` (which the SQLite client's types do not know).
 */
export function containsIgnoringCase(text: string): Prisma.StringFilter {
  return (isPostgres() ? { contains: text, mode: 'insensitive' } : { contains: text }) as Prisma.StringFilter
}

/** JSON columns are stored as text (both providers); parse defensively. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}

/**
 * A unique-constraint violation (Prisma P2002) from either client: the PostgreSQL client is a
 * second generated module, so `instanceof Prisma.PrismaClientKnownRequestError` misses its errors.
 */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002'
}
