// better-sqlite3 arrives with @prisma/adapter-better-sqlite3; the bench seed uses only these calls.
declare module 'better-sqlite3' {
  type Statement = { run: (...params: unknown[]) => unknown; all: (...params: unknown[]) => unknown[] }
  export default class Database {
    constructor(file: string)
    pragma(source: string): unknown
    prepare(source: string): Statement
    transaction<T extends (...args: never[]) => unknown>(fn: T): T
    close(): void
  }
}
