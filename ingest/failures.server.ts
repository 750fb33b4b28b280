/**
 * Why storing a message failed: because of the message itself (it can never be stored: a value
 * out of range, a constraint it breaks) or because of the database's state (down, restarting,
 * busy, a lost connection), which passes. Unknown failures count as passing: retrying a message
 * that cannot be stored costs retries, dropping one that could be stored loses it.
 */

/** SQLSTATE classes 22 (data exception) and 23 (integrity constraint violation). */
const PERMANENT_SQLSTATE = /^(22|23)[0-9A-Z]{3}$/
/** SQLite's result codes of a statement that will fail the same way every time. */
const PERMANENT_SQLITE = /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG|RANGE)/
/** Prisma's codes of a value or a constraint (P2000 too long, P2002 unique, P2003 foreign key, P2011 null, P2020 range). */
const PERMANENT_PRISMA = new Set(['P2000', 'P2002', 'P2003', 'P2004', 'P2005', 'P2006', 'P2007', 'P2011', 'P2012', 'P2019', 'P2020'])

export function isPermanentFailure(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, transient } = error as { code?: unknown; transient?: unknown }
  if (transient === true || typeof code !== 'string') return false
  return PERMANENT_SQLSTATE.test(code) || PERMANENT_SQLITE.test(code) || PERMANENT_PRISMA.has(code)
}

/** SQLite's result codes of a database that cannot be written now (locked, busy, read-only, I/O): its state, not the message's. */
const UNAVAILABLE_SQLITE = /^SQLITE_(BUSY|LOCKED|READONLY|IOERR|CANTOPEN|FULL|PROTOCOL)/

/**
 * The database itself is unavailable (a lost or refused PostgreSQL connection, a locked or
 * unwritable SQLite file): every message of a batch would fail the same way, so retrying them one
 * by one only multiplies the waiting (each SQLite attempt waits out busy_timeout).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, transient } = error as { code?: unknown; transient?: unknown }
  return transient === true || (typeof code === 'string' && UNAVAILABLE_SQLITE.test(code))
}
