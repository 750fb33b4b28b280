import { data, redirect } from '@remix-run/node'
import { DomainError } from '~/domain/errors'

/**
 * Runs a domain call from a loader or action. A DomainError becomes a thrown Response the route's
 * ErrorBoundary renders (403 = Access denied page, 404 = Not found); anything else propagates.
 */
export async function domainCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (error instanceof DomainError) {
      if (error.code === 'mvr-auth/notloggedin') throw redirect('/login')
      throw data({ code: error.code, message: error.message }, { status: error.status })
    }
    throw error
  }
}

export type ActionFailure = { ok: false; code: string; message: string; issues: { path: string; message: string }[] }
export type ActionSuccess<T> = { ok: true; result: T; message?: string }

/**
 * For form actions: a DomainError becomes `{ ok: false, code, message, issues }` with its status so the
 * form shows it under the fields; success returns `{ ok: true, result }`.
 */
export async function formAction<T>(fn: () => Promise<T>, successMessage?: string) {
  try {
    const result = await fn()
    return data<ActionSuccess<T>>({ ok: true, result, message: successMessage })
  } catch (error) {
    if (error instanceof DomainError) {
      return data<ActionFailure>({ ok: false, code: error.code, message: error.message, issues: error.issues }, { status: error.status })
    }
    throw error
  }
}

/** Seconds a client is asked to wait (Retry-After) when the database or broker is briefly unavailable. */
export const RETRY_AFTER_SECONDS = 5

export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a few seconds.'

/**
 * Prisma's codes for a database it cannot reach or that stopped answering in time: P1001 unreachable,
 * P1002 timed out, P1008 operation timed out, P1017 connection closed, P2024 no pooled connection,
 * P2028 transaction could not start or finish (maxWait, timeout), P2034 write conflict or deadlock.
 */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034'])

/** Driver adapter error kinds (@prisma/driver-adapter-utils) that say "not now" rather than "wrong". */
const UNAVAILABLE_ADAPTER_KINDS = new Set(['SocketTimeout', 'DatabaseNotReachable', 'ConnectionClosed', 'TooManyConnections', 'TransactionWriteConflict'])

/**
 * SQLite result codes (better-sqlite3's `code`, extended ones start with these) for a lock held
 * elsewhere, a full or read-only disk, an I/O failure or a file that cannot be opened right now.
 */
const UNAVAILABLE_SQLITE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_PROTOCOL']

/**
 * PostgreSQL SQLSTATEs: class 08 connection exceptions, 53 insufficient resources (disk full, too
 * many connections), 57P01-57P03 shutdown/cannot connect now, 25006 read-only transaction (a standby),
 * 40001/40P01 serialization failure and deadlock (a retry succeeds).
 */
const unavailablePostgresState = (state: string) => /^(08|53)/.test(state) || ['57P01', '57P02', '57P03', '25006', '40001', '40P01'].includes(state)

/** Node socket errors on the way to the database or broker. */
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN'])

const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /Can't reach database server/i,
  /Unable to start a transaction in the given time/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
  /terminating connection due to administrator command/i,
  /timeout exceeded when trying to connect/i,
  /database is locked/i,
  /database or disk is full/i,
  /attempt to write a readonly database/i,
  /disk I\/O error/i,
]

/**
 * Whether an error means the database (or broker) is briefly unavailable rather than that the
 * request is wrong or the code is broken: the one classification behind the 503 answers of pages
 * (app/entry.server.tsx), the JSON API (app/routes/client.v1.$.tsx) and load shedding. Prisma wraps
 * driver errors a few levels deep (`cause`, `meta.driverAdapterError`), so the whole chain is read.
 */
export function isUnavailableError(error: unknown): boolean {
  const seen = new Set<unknown>()
  const visit = (value: unknown, depth: number): boolean => {
    if (typeof value !== 'object' || value === null || depth > 6 || seen.has(value)) return false
    seen.add(value)
    const e = value as Record<string, unknown>
    const code = typeof e.code === 'string' ? e.code : typeof e.errorCode === 'string' ? e.errorCode : ''
    if (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true
    if (UNAVAILABLE_SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix))) return true
    if (typeof e.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(e.kind)) return true
    if (e.kind === 'postgres' && typeof e.code === 'string' && unavailablePostgresState(e.code)) return true
    if (typeof e.originalCode === 'string' && (UNAVAILABLE_SQLITE_PREFIXES.some((p) => (e.originalCode as string).startsWith(p)) || unavailablePostgresState(e.originalCode) || UNAVAILABLE_SOCKET_CODES.has(e.originalCode))) return true
    // pg's own DatabaseError carries the SQLSTATE in `code` too; only when it looks like one
    if (/^[0-9A-Z]{5}$/.test(code) && unavailablePostgresState(code)) return true
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(e.message as string))) return true
    const meta = e.meta as Record<string, unknown> | undefined
    return visit(e.cause, depth + 1) || visit(meta?.driverAdapterError, depth + 1) || visit(meta?.cause, depth + 1) || (Array.isArray(e.errors) && e.errors.some((inner) => visit(inner, depth + 1)))
  }
  return visit(error, 0)
}

/** The API's answer while the database or broker is briefly unavailable (docs/api.md). */
export function unavailableApiResponse(): Response {
  return new Response(JSON.stringify({ code: 'unavailable', message: UNAVAILABLE_MESSAGE }), {
    status: 503,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': String(RETRY_AFTER_SECONDS) },
  })
}
