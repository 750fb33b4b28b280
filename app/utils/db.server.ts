import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaClient, type Prisma } from '@prisma/client'
import type Database from 'better-sqlite3'
import { getConfig } from './env.server'
import { singleton } from './singleton.server'

/**
 * The better-sqlite3 connection under each Prisma client (captured when Prisma connects). Shared
 * process-wide like the client itself, whichever module graph created the client (decision 001).
 */
const connections = singleton('prisma-connections', () => new WeakMap<PrismaClient, Database>())

function createClient() {
  const url = getConfig().DATABASE_URL
  const adapter = new PrismaBetterSQLite3({ url })
  const connect = adapter.connect.bind(adapter)
  const client: PrismaClient = new PrismaClient({
    adapter: Object.assign(adapter, {
      connect: async () => {
        const connection = await connect()
        const db = (connection as unknown as { client: Database }).client
        immediateTransactions(db)
        connections.set(client, db)
        return connection
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
}

export async function disconnectDatabase() {
  const store = globalThis as unknown as { __pixelfleet?: Map<string, unknown> }
  const client = store.__pixelfleet?.get('prisma') as PrismaClient | undefined
  if (client) {
    await client.$disconnect()
    store.__pixelfleet?.delete('prisma')
  }
}

/** JSON columns are stored as text (SQLite); parse defensively. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (!text) return fallback
  try {
    return JSON.parse(text) as T
  } catch {
    return fallback
  }
}
