/**
 * The SQL of ingest: prepared better-sqlite3 statements on Prisma's own connection
 * (`sqliteConnection`). Profiles of the Prisma path showed about half the broker's CPU in Prisma's
 * query compiler and in re-preparing each statement; these are prepared once per connection and
 * run synchronously inside ingest's batch transaction.
 *
 * Raw statements bypass Prisma's client-side defaults, so they write what Prisma would: ids of 20
 * url-safe random characters, `createdAt`/`updatedAt`, dates as the adapter's ISO 8601 text
 * ("...+00:00", so text comparison orders them), booleans as 0/1.
 *
 * This module is ingest's whole SQL interface (`openIngestDatabase`, `statementsOf`, `newId`,
 * `sqlDate`, the row types): a PostgreSQL implementation (sql-pg.server.ts) exports the same.
 */
import Database, { type Statement } from 'better-sqlite3'

// ids as Prisma makes them, shared with the domain's raw inserts
export { newId, newOrderedId } from '~/utils/row-id.server'

/** The text the Prisma SQLite adapter stores for a DateTime. */
export const sqlDate = (time: Date | number) => new Date(time).toISOString().replace('Z', '+00:00')

export type AgentRow = {
  organizationId: string | null
  defaultProjectId: string | null
  lastIp: string | null
  alertsCount: number
  alertsSeverity: number
  deviationsCount: number
  deviationsSeverity: number
}
export type SystemRow = { id: string; key: string; name: string; projectId: string | null; alertsCount: number; alertsSeverity: number; deviationsCount: number; deviationsSeverity: number }
export type DeviceRow = {
  component: string
  product: string
  serial: string
  name: string
  parentKey: string | null
  versionSoftware: string | null
  versionFirmware: string | null
  properties: string
  count: number
}
export type IssueRow = {
  id: string
  kind: string
  key: string
  component: string
  deviceKey: string | null
  message: string
  severity: number
  latestCount: number
  latestAt: string
  isActive: number
  historySize: number
}

const SUMMARY_SET = `"alertsCount" = @alertsCount, "alertsSeverity" = @alertsSeverity, "deviationsCount" = @deviationsCount, "deviationsSeverity" = @deviationsSeverity, "updatedAt" = @now`
const DEVICE_COLUMNS = ['component', 'product', 'serial', 'name', 'parentKey', 'versionSoftware', 'versionFirmware', 'properties', 'count'] as const

function prepareStatements(db: Database) {
  const sql = (source: string) => db.prepare(source).safeIntegers(false)
  return {
    agentSecret: sql(`SELECT "secretHash", "enabled" FROM "Agent" WHERE "id" = ?`),
    agent: sql(
      `SELECT "organizationId", "defaultProjectId", "lastIp", "alertsCount", "alertsSeverity", "deviationsCount", "deviationsSeverity" FROM "Agent" WHERE "id" = ?`,
    ),
    agentConfig: sql(`SELECT "config", "organizationId" FROM "Agent" WHERE "id" = ?`),
    agentSummary: sql(`UPDATE "Agent" SET ${SUMMARY_SET} WHERE "id" = @id`),
    agentPing: sql(
      `UPDATE "Agent" SET "dataSegsOut" = @dataSegsOut, "dsackDups" = @dsackDups, "totalRetrans" = @totalRetrans, "lastSeen" = @now,
       "tunnelStatus" = COALESCE(@tunnelStatus, "tunnelStatus"), "updatedAt" = @now WHERE "id" = @id`,
    ),
    agentAddress: sql(
      `UPDATE "Agent" SET "lastIp" = @ip, "locationLat" = COALESCE(@lat, "locationLat"), "locationLong" = COALESCE(@long, "locationLong"),
       "locationLookupIp" = COALESCE(@lookupIp, "locationLookupIp"), "updatedAt" = @now WHERE "id" = @id`,
    ),
    agentConfigSet: sql(`UPDATE "Agent" SET "config" = ?, "updatedAt" = ? WHERE "id" = ?`),
    enrollmentCodeInsert: sql(`INSERT INTO "EnrollmentCode" ("id", "agentId", "code", "createdAt") VALUES (?, ?, ?, ?)`),

    systemsOfAgent: sql(
      `SELECT "id", "key", "name", "projectId", "alertsCount", "alertsSeverity", "deviationsCount", "deviationsSeverity" FROM "System" WHERE "agentId" = ?`,
    ),
    systemInsert: sql(`INSERT INTO "System" ("id", "agentId", "key", "name", "projectId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)`),
    systemRename: sql(`UPDATE "System" SET "name" = ?, "updatedAt" = ? WHERE "id" = ?`),
    systemSummary: sql(`UPDATE "System" SET ${SUMMARY_SET} WHERE "id" = @id`),

    devicesOfSystem: sql(`SELECT "key", ${DEVICE_COLUMNS.map((c) => `"${c}"`).join(', ')} FROM "Device" WHERE "systemId" = ?`),
    deviceInsert: sql(
      `INSERT INTO "Device" ("id", "systemId", "key", ${DEVICE_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (@id, @systemId, @key, ${DEVICE_COLUMNS.map((c) => `@${c}`).join(', ')})`,
    ),
    deviceUpdate: sql(`UPDATE "Device" SET ${DEVICE_COLUMNS.map((c) => `"${c}" = @${c}`).join(', ')} WHERE "systemId" = @systemId AND "key" = @key`),
    deviceDelete: sql(`DELETE FROM "Device" WHERE "systemId" = ? AND "key" = ?`),

    issuesOfSystem: sql(
      `SELECT i."id", i."kind", i."key", i."component", i."deviceKey", i."message", i."severity", i."latestCount", i."latestAt", i."isActive",
       (SELECT COUNT(*) FROM "IssueHistory" h WHERE h."issueId" = i."id") AS "historySize" FROM "Issue" i WHERE i."systemId" = ?`,
    ),
    issueInsert: sql(
      `INSERT INTO "Issue" ("id", "systemId", "kind", "key", "component", "deviceKey", "message", "severity", "latestCount", "latestAt", "isActive", "activation", "createdAt", "updatedAt")
       VALUES (@id, @systemId, @kind, @key, @component, @deviceKey, @message, @severity, @latestCount, @latestAt, @isActive, @activation, @now, @now)`,
    ),
    issueUpdate: sql(
      `UPDATE "Issue" SET "component" = @component, "deviceKey" = @deviceKey, "message" = @message, "severity" = @severity, "latestCount" = @latestCount,
       "latestAt" = @latestAt, "isActive" = @isActive, "activation" = "activation" + @activations, "updatedAt" = @now WHERE "id" = @id`,
    ),
    issueDeactivate: sql(`UPDATE "Issue" SET "isActive" = FALSE, "updatedAt" = ? WHERE "id" = ?`),
    issueDelete: sql(`DELETE FROM "Issue" WHERE "id" = ?`),
    historyInsert: sql(`INSERT INTO "IssueHistory" ("id", "issueId", "timestamp", "count") VALUES (?, ?, ?, ?)`),
    /** Keeps the newest `max` entries since `since`. */
    historyPrune: sql(
      `DELETE FROM "IssueHistory" WHERE "issueId" = @issueId AND "id" NOT IN
       (SELECT "id" FROM "IssueHistory" WHERE "issueId" = @issueId AND "timestamp" >= @since ORDER BY "timestamp" DESC LIMIT @max)`,
    ),
    historyCount: sql(`SELECT COUNT(*) AS "n" FROM "IssueHistory" WHERE "issueId" = ?`),

    // Per-batch totals, many rows per statement (bulkStatement) rather than a statement per row:
    // for an unchanged report these are most of the rows a message writes.
    agentsSeen: bulkStatement(db, 1, (rows) => `UPDATE "Agent" SET "lastSeen" = ?, "updatedAt" = ? WHERE "id" IN (${placeholders(rows, 1)})`),
    agentsOnline: bulkStatement(db, 1, (rows) => `UPDATE "Agent" SET "online" = ?, "updatedAt" = ? WHERE "id" IN (${placeholders(rows, 1)})`),
    // organizationKey = organizationId ?? '': a NULL in the key would never conflict (decision 018)
    usageAddRows: bulkStatement(
      db,
      7,
      (rows) => `INSERT INTO "UsageCounter" ("id", "agentId", "organizationId", "organizationKey", "hour", "call", "count") VALUES ${placeholders(rows, 7)}
       ON CONFLICT ("agentId", "hour", "call", "organizationKey") DO UPDATE SET "count" = "count" + excluded."count"`,
    ),
    eventInsertRows: bulkStatement(
      db,
      7,
      (rows) => `INSERT INTO "AgentEvent" ("id", "organizationId", "agentId", "type", "systemId", "projectIds", "createdAt") VALUES ${placeholders(rows, 7)}`,
    ),
  }
}

/** `(?, ?), (?, ?)` for rows of `width` values; a bare list `?, ?` when width is 1. */
function placeholders(rows: number, width: number): string {
  const row = Array.from({ length: width }, () => '?').join(', ')
  return Array.from({ length: rows }, () => (width === 1 ? row : `(${row})`)).join(', ')
}

/** Rows per statement, largest first: a batch's rows go in as few statements as these sizes allow. */
const BULK_SIZES = [64, 16, 4, 1]

/**
 * A statement over many rows (multi-row INSERT, `IN` list), prepared once per size in BULK_SIZES.
 * The returned function takes the rows' values flattened (`width` per row) and values that come
 * before them in every statement (`leading`, e.g. the timestamp of an UPDATE ... IN).
 */
function bulkStatement(db: Database, width: number, build: (rows: number) => string) {
  const bySize = new Map<number, Statement>()
  const statement = (rows: number) => {
    let prepared = bySize.get(rows)
    if (!prepared) {
      prepared = db.prepare(build(rows)).safeIntegers(false)
      bySize.set(rows, prepared)
    }
    return prepared
  }
  return (values: unknown[], leading: unknown[] = []) => {
    const rows = values.length / width
    let row = 0
    for (const size of BULK_SIZES) {
      for (; rows - row >= size; row += size) statement(size).run(...leading, ...values.slice(row * width, (row + size) * width))
    }
  }
}

export type IngestStatements = ReturnType<typeof prepareStatements>

const prepared = new WeakMap<Database, IngestStatements>()

/** The statements of this connection, prepared on first use (tests reconnect per file). */
export function statementsOf(db: Database): IngestStatements {
  let statements = prepared.get(db)
  if (!statements) {
    statements = prepareStatements(db)
    prepared.set(db, statements)
  }
  return statements
}

/**
 * WAL pages after which a commit checkpoints (SQLite's default is 1,000). With `synchronous =
 * NORMAL` a checkpoint fsyncs the WAL and the database file inside the commit that triggers it,
 * stalling every message in flight when that commit is ingest's; ingest writes ~0.65 pages per
 * state report (mostly agent event index leaves), so at 1,000 pages that happened every ~1,500
 * reports. At 10,000 (a WAL of up to 40 MB) it happens a tenth as often, and a page rewritten
 * many times between two checkpoints is copied once. Prisma's connection uses this value
 * (db.server.ts tuneDatabase), and so does ingest when it runs on Prisma's connection
 * (INGEST_WORKER=0); the ingest worker's own connection instead checkpoints between its batches
 * and keeps the WAL below this (checkpoints.server.ts, decision 090), so Prisma's commits do not
 * find it past the threshold.
 */
export const WAL_CHECKPOINT_PAGES = 10_000

/**
 * The ingest worker's own connection (thread.server.ts). A second writer next to Prisma's
 * connection works because both wait for the write lock (busy_timeout) and both take it when a
 * transaction begins (BEGIN IMMEDIATE: ingest's `.immediate()`, Prisma's via db.server.ts), so no
 * deferred transaction finds its read snapshot outdated when it first writes (SQLITE_BUSY).
 */
export function openIngestDatabase(databaseUrl: string): Database {
  const db = new Database(databaseUrl.replace(/^file:/, ''), { timeout: 5000 })
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
  return db
}
