// The PostgreSQL side of sql-pg.server.ts: runs the statements it is sent, in order, on one
// connection, and wakes the waiting thread through the shared flag. Plain JS so it loads the same
// under tsx, vitest and node. Each reply carries the request's `seq` (the waiting side matches them)
// and the connection's number: statements of a transaction whose connection was replaced are
// refused here, not run outside it on the new connection.
import { workerData } from 'node:worker_threads'
import pg from 'pg'

const { url, port, flag } = workerData
const signal = new Int32Array(flag)
const types = {
  getTypeParser(oid, format) {
    if (oid === 20 || oid === 1700) return (v) => Number(v) // int8 (COUNT), numeric: numbers like better-sqlite3
    if (oid === 16) return (v) => (v === 't' ? 1 : 0) // booleans as 0/1, as SQLite stores them
    if (oid === 1114) return (v) => `${v.replace(' ', 'T')}+00:00` // timestamp(3) holds UTC: the ISO text sqlDate() writes
    return pg.types.getTypeParser(oid, format)
  },
}
let client = null
let ready = null
/** numbers the connections: a transaction lives on the one its BEGIN went out on */
let connections = 0
/**
 * One connection, opened on demand. A connection that fails (refused connect, server shutting
 * down, restart, network error) is dropped at once so the next message opens a fresh one: a
 * failed connect must never stay cached, or ingest stays down after the server is back.
 */
function connection() {
  if (!client) {
    const fresh = new pg.Client({ connectionString: url, types, connectionTimeoutMillis: 10_000 })
    fresh.number = ++connections
    fresh.on('error', () => drop(fresh))
    fresh.on('end', () => drop(fresh))
    client = fresh
    ready = fresh.connect().then(
      () => fresh,
      (error) => {
        drop(fresh)
        throw error
      },
    )
  }
  return ready
}
function drop(which) {
  if (client !== which) return
  client = null
  ready = null
  which.end().catch(() => {})
}
/**
 * Errors of the connection or the server's state rather than of the statements: class 08
 * (connection exception), 57P01-57P03 (admin shutdown, crash shutdown, cannot connect now), 53
 * (insufficient resources) and socket errors. The connection is replaced after one of these.
 */
function connectionLost(error) {
  const code = String(error.code ?? '')
  return code.startsWith('08') || code.startsWith('57P') || code.startsWith('53') || /^E[A-Z]+$/.test(code) || /Connection terminated|not queryable|Client was closed/i.test(error.message)
}

/** Consecutive identical plain INSERTs (events, history, devices) become one multi-row INSERT. */
function coalesce(ops) {
  const out = []
  for (const op of ops) {
    const last = out.at(-1)
    if (last && last.values && op.sql === last.sql && last.params.length + op.params.length < 30000) {
      last.params.push(...op.params)
      last.rows += 1
    } else {
      const values = op.mode === 'run' && /^INSERT INTO [^;]+ VALUES \(([^()]*)\)$/.test(op.sql.trim())
      out.push({ ...op, params: [...op.params], values, rows: 1, width: op.params.length })
    }
  }
  return out.map((op) => {
    if (op.rows === 1) return op
    const sql = op.sql.trim()
    const tuple = /VALUES (\([^()]*\))$/.exec(sql)[1]
    // each row's copy of the tuple, its $k renumbered past the rows before (a $k may repeat)
    const tuples = Array.from({ length: op.rows }, (_, r) => tuple.replace(/\$(\d+)/g, (_m, k) => `$${r * op.width + Number(k)}`))
    return { ...op, sql: sql.slice(0, sql.length - tuple.length) + tuples.join(', ') }
  })
}

/** A value as an SQL literal: quoted text of unknown type, which PostgreSQL types from its context like a parameter. */
function literal(value) {
  const prepared = pg.utils.prepareValue(value)
  if (prepared === null || prepared === undefined) return 'NULL'
  if (Buffer.isBuffer(prepared)) return `'\\x${prepared.toString('hex')}'`
  return pg.escapeLiteral(String(prepared))
}

/** The statement with its parameters written in (escaped), for a multi-statement simple query. */
const inline = (op) => op.sql.replace(/\$(\d+)/g, (_m, k) => literal(op.params[Number(k) - 1]))

port.on('message', async ({ seq, ops, within }) => {
  let reply
  try {
    const db = await connection()
    // the transaction's connection is gone (and with it the transaction): fail, write nothing
    if (within && within !== db.number) throw Object.assign(new Error('The PostgreSQL connection was lost inside a transaction'), { code: '08006', replaced: true })
    const merged = coalesce(ops)
    const last = merged.at(-1)
    const read = last.mode === 'run' ? null : merged.pop()
    // The writes travel as one simple query (statements joined, values inlined): one round trip
    // to the server per batch, not one per statement. A failing statement stops the rest, as
    // one by one; the caller then rolls back. The read, if any, follows as a normal query.
    if (merged.length) await db.query(merged.map(inline).join(';\n'))
    const rows = read ? (await db.query({ text: read.sql, values: read.params })).rows : []
    reply = { rows, connection: db.number }
  } catch (error) {
    const lost = connectionLost(error)
    if (lost && client && !error.replaced) drop(client)
    reply = { error: { message: error.message, code: error.code, transient: lost } }
  }
  reply.seq = seq
  port.postMessage(reply)
  // (this notify may come after the waiting side already saw the flag and moved on to its next
  // request: sql-pg.server.ts matches replies by `seq` and waits again after a wake without one)
  Atomics.store(signal, 0, 1)
  Atomics.notify(signal, 0)
})
