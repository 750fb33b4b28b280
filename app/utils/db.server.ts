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
        connections.set(client, (connection as unknown as { client: Database }).client)
        return connection
      },
    }),
  })
  return client
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
 * Prisma's own SQLite connection, for the ingest hot path (prepared statements, no query
 * compiler). Sharing it keeps one writer per process: a second connection would make Prisma's
 * deferred transactions fail with SQLITE_BUSY whenever ingest commits between their read and
 * write. Callers must not write while `inTransaction` (a Prisma transaction is open).
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
