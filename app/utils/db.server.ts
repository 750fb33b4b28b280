import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3'
import { PrismaClient, type Prisma } from '@prisma/client'
import { getConfig } from './env.server'
import { singleton } from './singleton.server'

function createClient() {
  const url = getConfig().DATABASE_URL
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) })
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
