// better-sqlite3 arrives with @prisma/adapter-better-sqlite3 (no @types package installed); only
// the calls the code uses: ingest's prepared statements on Prisma's connection, the bench seed.
declare module 'better-sqlite3' {
  type RunResult = { changes: number; lastInsertRowid: number | bigint }
  export type Statement = {
    run: (...params: unknown[]) => RunResult
    get: (...params: unknown[]) => unknown
    all: (...params: unknown[]) => unknown[]
    /** Prisma's connection returns BigInt integers by default; ingest wants numbers. */
    safeIntegers: (toggle?: boolean) => Statement
    readonly reader: boolean
  }
  export default class Database {
    constructor(file: string, options?: { timeout?: number; readonly?: boolean })
    readonly inTransaction: boolean
    pragma(source: string): unknown
    prepare(source: string): Statement
    /** The returned function begins DEFERRED; `.immediate` takes the write lock at BEGIN. */
    transaction<T extends (...args: never[]) => unknown>(fn: T): T & { immediate: T; deferred: T; exclusive: T }
    close(): void
  }
}
