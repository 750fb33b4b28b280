/**
 * Ingest on PostgreSQL: a synchronous stand-in for the better-sqlite3 `Database` that
 * sql-sqlite.server.ts prepares its statements on, so ingest's batch logic (caches, savepoint per
 * message, one transaction per batch) runs unchanged on both providers.
 *
 * Statements go to a worker thread holding one pg connection (pg-worker.mjs); the calling
 * thread blocks on a shared flag like it blocks in better-sqlite3. Writes (`run`) are not sent at
 * once: they queue and travel together at the next read or the commit, so a batch costs a few
 * round trips, and the worker merges consecutive identical INSERTs into one multi-row
 * INSERT. Results are shaped as better-sqlite3 gives them (counts as numbers, booleans as 0/1,
 * timestamps as the ISO text sqlDate() writes).
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type Database from 'better-sqlite3'
import { getConfig } from '~/utils/env.server'
import { isPostgres, sqliteConnection } from '~/utils/db.server'
import { singleton } from '~/utils/singleton.server'

type Op = { sql: string; params: unknown[]; mode: 'run' | 'get' | 'all' }
type Reply = { seq: number; connection?: number; rows?: Record<string, unknown>[]; error?: { message: string; code?: string; transient?: boolean } }

/** SQLite's `?` and `@name` placeholders as PostgreSQL's `$n`, and the order to bind values in. */
export function translateStatement(source: string): { sql: string; names: (string | number)[] } {
  const names: (string | number)[] = []
  let positional = 0
  let sql = source.replace(/\?|@(\w+)/g, (_match, name: string | undefined) => {
    if (name === undefined) {
      names.push(positional++)
      return `$${names.length}`
    }
    const at = names.indexOf(name)
    if (at >= 0) return `$${at + 1}`
    names.push(name)
    return `$${names.length}`
  })
  // PostgreSQL wants the target's column qualified beside `excluded` in an upsert.
  sql = sql.replace(/INSERT INTO "(\w+)"([\s\S]*?DO UPDATE SET "(\w+)" = )"\3"/g, 'INSERT INTO "$1"$2"$1"."$3"')
  return { sql, names }
}

class PostgresIngestDatabase {
  private readonly worker: Worker
  private readonly port: MessageChannel['port1']
  private readonly flag = new Int32Array(new SharedArrayBuffer(4))
  private pending: Op[] = []
  private depth = 0
  /** how many times the queue was sent: tells a failing transaction whether its BEGIN went out; numbers the requests */
  private sends = 0
  /** the worker's connection the open transaction's BEGIN went out on (null before it did) */
  private transactionConnection: number | null = null

  constructor(url: string) {
    const { port1, port2 } = new MessageChannel()
    this.port = port1
    this.worker = new Worker(new URL('./pg-worker.mjs', import.meta.url), {
      workerData: { url, port: port2, flag: this.flag.buffer },
      transferList: [port2],
    })
    // the process may exit while the worker idles
    this.worker.unref()
  }

  async close() {
    await this.worker.terminate()
  }

  get inTransaction() {
    return this.depth > 0
  }

  /** Sends the queued statements (and `op`), waits for the worker, returns the last one's rows. */
  private send(op?: Op): Record<string, unknown>[] {
    const ops = op ? [...this.pending, op] : this.pending
    this.pending = []
    if (!ops.length) return []
    const seq = ++this.sends
    Atomics.store(this.flag, 0, 0)
    this.port.postMessage({ seq, ops, within: this.depth > 0 ? this.transactionConnection : null })
    const reply = this.replyTo(seq)
    // `transient`: the connection or the server's state failed, not the statements (pg-worker.mjs)
    if (reply.error) throw Object.assign(new Error(reply.error.message), { code: reply.error.code, transient: reply.error.transient === true })
    if (this.depth > 0) this.transactionConnection ??= reply.connection ?? null
    return reply.rows ?? []
  }

  /**
   * Blocks until the worker's reply to request `seq`. A wake-up does not mean that reply is there:
   * the worker's notify for the previous reply may arrive after this thread saw its flag and moved
   * on. Taking whatever was there as the answer (as this did) put every later reply one request
   * late after a database outage: reads got the previous batch's empty result, "Agent not found",
   * and the agents' reports were dead-lettered (issue #24, docs/decisions/045).
   */
  private replyTo(seq: number): Reply {
    for (;;) {
      const reply = receiveMessageOnPort(this.port)?.message as Reply | undefined
      if (reply?.seq === seq) return reply
      if (reply) continue
      Atomics.wait(this.flag, 0, 0)
      Atomics.store(this.flag, 0, 0)
    }
  }

  prepare(source: string) {
    const { sql, names } = translateStatement(source)
    const bind = (args: unknown[]) => {
      const named = args.length === 1 && args[0] !== null && typeof args[0] === 'object' ? (args[0] as Record<string, unknown>) : null
      return names.map((n) => (typeof n === 'number' ? args[n] : named?.[n]) ?? null)
    }
    const statement = {
      safeIntegers: () => statement,
      run: (...args: unknown[]) => {
        this.pending.push({ sql, params: bind(args), mode: 'run' })
        if (this.depth === 0) this.send()
        return { changes: 0, lastInsertRowid: 0 }
      },
      get: (...args: unknown[]) => this.send({ sql, params: bind(args), mode: 'get' })[0],
      all: (...args: unknown[]) => this.send({ sql, params: bind(args), mode: 'all' }),
    }
    return statement
  }

  /** better-sqlite3's transaction(): BEGIN outside, a savepoint inside; commits or rolls back. */
  transaction<A extends unknown[], R>(fn: (...args: A) => R) {
    const run = (...args: A): R => {
      const outer = this.depth === 0
      const name = `ingest_${this.depth}`
      const mark = this.pending.length
      const sends = this.sends
      this.pending.push({ sql: outer ? 'BEGIN' : `SAVEPOINT ${name}`, params: [], mode: 'run' })
      this.depth++
      try {
        const result = fn(...args)
        this.pending.push({ sql: outer ? 'COMMIT' : `RELEASE SAVEPOINT ${name}`, params: [], mode: 'run' })
        // A savepoint's statements travel with the commit: one round trip per batch, not per
        // message. A statement failing there fails the batch, which ingest then retries message by
        // message (flushBatch), so a bad message still fails alone.
        if (outer) this.send()
        return result
      } catch (error) {
        // nothing reached the server yet: forget the queued statements; otherwise undo them there
        if (this.sends === sends) this.pending.length = mark
        else this.send({ sql: outer ? 'ROLLBACK' : `ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`, params: [], mode: 'run' })
        throw error
      } finally {
        this.depth--
        if (outer) this.transactionConnection = null
      }
    }
    // PostgreSQL locks rows, not the database: every flavour of better-sqlite3's BEGIN is the same here
    return Object.assign(run, { immediate: run, deferred: run, exclusive: run })
  }
}

/**
 * A synchronous better-sqlite3-like handle on a PostgreSQL database, for scripts that write with
 * prepared statements (bench/seed-fleet.ts); close() ends its worker.
 */
export function openPostgresSync(url: string): Database & { close: () => Promise<void> } {
  return new PostgresIngestDatabase(url) as unknown as Database & { close: () => Promise<void> }
}

/**
 * The database ingest writes through: Prisma's own SQLite connection, or on PostgreSQL the
 * synchronous stand-in above (typed as better-sqlite3's Database; only prepare/transaction/
 * inTransaction are used).
 */
export async function ingestDatabase(): Promise<Database> {
  if (!isPostgres()) return sqliteConnection()
  const url = getConfig().DATABASE_URL
  const db = singleton(`postgres-ingest ${url}`, () => new PostgresIngestDatabase(url))
  return db as unknown as Database
}
