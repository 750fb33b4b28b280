import { Prisma } from '@prisma/client'
import type Database from 'better-sqlite3'
import { getConfig } from './env.server'
import { sqliteConnection } from './db.server'
import { singleton } from './singleton.server'

/**
 * Prepared read statements on Prisma's own SQLite connection for the lookups every page repeats
 * (session, organization list, access). Through Prisma each costs ~1-2 ms of CPU (client, query
 * compiler, a fresh `prepare`); a prepared statement costs tens of microseconds. Nothing is cached
 * across requests: every call reads the database, so a revoked right counts from the next request.
 * Other databases (PostgreSQL) get `null` and the callers use Prisma.
 */
type Statement = ReturnType<Database['prepare']>
type Statements = Map<string, Statement>

const prepared = singleton('fast-read-statements', () => new WeakMap<Database, Statements>())

const isSqlite = () => getConfig().DATABASE_URL.startsWith('file:')

async function statement(sql: string): Promise<Statement | null> {
  if (!isSqlite()) return null
  const db = await sqliteConnection()
  let map = prepared.get(db)
  if (!map) prepared.set(db, (map = new Map()))
  let stmt = map.get(sql)
  if (!stmt) {
    // Prisma's connection answers BigInt for every integer; these reads want plain numbers
    stmt = db.prepare(sql).safeIntegers(false)
    map.set(sql, stmt)
  }
  return stmt
}

/** All rows of a read, or null when the fast path is unavailable (use Prisma). */
export async function fastAll<T>(sql: string, ...params: unknown[]): Promise<T[] | null> {
  const stmt = await statement(sql)
  return stmt ? (stmt.all(...params) as T[]) : null
}

type FieldKind = 'date' | 'boolean' | 'bigint' | 'json' | 'plain'

const modelFields = singleton('fast-read-models', () => new Map<string, [string, FieldKind][]>())

/** The scalar columns of a Prisma model and how SQLite stores them (dates as text, booleans as 0/1). */
function fieldsOf(model: string): [string, FieldKind][] {
  let fields = modelFields.get(model)
  if (!fields) {
    const found = Prisma.dmmf.datamodel.models.find((m) => m.name === model)
    if (!found) throw new Error(`No model ${model}`)
    const kindOf = (type: string): FieldKind =>
      type === 'DateTime' ? 'date' : type === 'Boolean' ? 'boolean' : type === 'BigInt' ? 'bigint' : type === 'Json' ? 'json' : 'plain'
    fields = found.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => [f.name, kindOf(f.type)])
    modelFields.set(model, fields)
  }
  return fields
}

/** `"alias"."field" AS "prefix.field"` for every scalar of the model (what `toModel` reads back). */
export function selectModel(model: string, alias: string, prefix = alias) {
  return fieldsOf(model)
    .map(([name]) => `${alias}."${name}" AS "${prefix}.${name}"`)
    .join(', ')
}

/** The Prisma-shaped object of one model from a row selected with `selectModel`. */
export function toModel<T>(model: string, row: Record<string, unknown>, prefix: string): T {
  const result: Record<string, unknown> = {}
  for (const [name, kind] of fieldsOf(model)) {
    const value = row[`${prefix}.${name}`]
    if (value === null || value === undefined) result[name] = null
    else if (kind === 'date') result[name] = new Date(value as string | number)
    else if (kind === 'boolean') result[name] = Boolean(value)
    else if (kind === 'bigint') result[name] = BigInt(value as number)
    else if (kind === 'json') result[name] = typeof value === 'string' ? JSON.parse(value) : value
    else result[name] = value
  }
  return result as T
}
