/** Prisma is told SQLite takes SQLITE_MAX_BIND_VALUES bound values (app/utils/db.server.ts): true of the bundled SQLite. */
import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { SQLITE_MAX_BIND_VALUES } from '~/utils/db.server'

describe('SQLite bind limit', () => {
  it('takes as many bound values as Prisma is told, and refuses one more', () => {
    const db = new Database(':memory:')
    const statement = (n: number) => `SELECT count(*) AS n FROM (SELECT 1 AS x) WHERE x IN (${Array(n).fill('?').join(',')})`
    const values = Array.from({ length: SQLITE_MAX_BIND_VALUES }, () => 1)
    expect(db.prepare(statement(SQLITE_MAX_BIND_VALUES)).get(...values)).toEqual({ n: 1 })
    expect(() => db.prepare(statement(SQLITE_MAX_BIND_VALUES + 1))).toThrow(/too many SQL variables/)
    db.close()
  })
})
