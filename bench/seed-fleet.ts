// npm run bench:seed -- [file:/tmp/pixelfleet-bench.db] [--scale 100k]: a fresh database with the demo
// accounts and one large organization (10,000 agents, 200,000 devices, 50,000 issue history entries)
// for bench/loaders.ts and bench/pages.ts. `--scale 100k` makes the service issue #26 sizes for:
// 100,000 agents and 2,000,000 devices across 1,000 organizations, the bench organization one of
// 20,000 agents. Rows go in as multi-row INSERTs (one statement per few hundred rows) inside one
// transaction, through better-sqlite3 (on PostgreSQL through the same statements on ingest's
// synchronous pg handle); on SQLite the secondary indexes of the big tables are dropped for the
// load and built again after it (one sort instead of a B-tree insert per row and index).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { openPostgresSync } from '../ingest/sql-pg.server'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { isPostgresUrl } from '../server/migrate-postgres'
import { compileUserAcls } from '../app/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '../app/domain/access/catalogue'
import { disconnectDatabase, prisma } from '../app/utils/db.server'
import { setConfig } from '../app/utils/env.server'
import { DEMO_USERS, seedDemo } from '../prisma/seed-data'

export const BENCH_ORG_ID = 'bench-org-fleet-0001'
export const BENCH_SIZES = { agents: 10_000, devicesPerAgent: 20, historyEntries: 50_000, projects: 40 }
/** The sizes of a seed: the bench organization, and how many more organizations share the rest of the fleet. */
export type FleetScale = typeof BENCH_SIZES & { otherOrganizations: number; otherAgents: number; projectsPerOtherOrganization: number }
export const FLEET_SCALES: Record<'10k' | '100k', FleetScale> = {
  '10k': { ...BENCH_SIZES, otherOrganizations: 0, otherAgents: 0, projectsPerOtherOrganization: 0 },
  '100k': { agents: 20_000, devicesPerAgent: 20, historyEntries: 200_000, projects: 40, otherOrganizations: 999, otherAgents: 80_000, projectsPerOtherOrganization: 4 },
}
/** The project a project-scoped viewer sees in the benchmark (the demo viewer gets Project Viewer on it). */
export const BENCH_VIEWER_PROJECT = 'bench-prj-000000003'

const root = path.resolve(import.meta.dirname, '..')
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
/** Random ids from a pool of CSPRNG bytes (a system call per id made 2,000,000 device ids slow). */
let idPool = Buffer.alloc(0)
let idOffset = 0
const newId = () => {
  if (idOffset + 20 > idPool.length) {
    idPool = randomBytes(20 * 4096)
    idOffset = 0
  }
  let id = ''
  for (let i = 0; i < 20; i++) id += ALPHABET[idPool[idOffset + i] % ALPHABET.length]
  idOffset += 20
  return id
}
/** Prisma's SQLite DateTime text format. */
const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '+00:00')

/** Small deterministic generator so every run builds the same fleet. */
function lcg(seed: number) {
  let s = seed >>> 0
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

type SqliteDb = InstanceType<typeof Database>
type Db = Pick<SqliteDb, 'prepare' | 'transaction'>

type BulkInserter = { add: (...values: unknown[]) => void; flush: () => void }

/**
 * Rows of one table, written `rowsPerStatement` at a time with one prepared multi-row INSERT (and
 * one for the remainder when flushed): per-statement overhead, not SQLite, bounded the old seed.
 * The tables a row refers to (`parents`) are flushed first, so foreign keys always find their row.
 */
function bulkInserter(db: Db, table: string, columns: string[], rowsPerStatement: number, parents: BulkInserter[] = []): BulkInserter {
  const sqlFor = (rows: number) => `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(',')}) VALUES ${Array.from({ length: rows }, () => `(${columns.map(() => '?').join(',')})`).join(',')}`
  const full = db.prepare(sqlFor(rowsPerStatement))
  let pending: unknown[] = []
  const flush = () => {
    if (!pending.length) return
    for (const parent of parents) parent.flush()
    const rows = pending.length / columns.length
    ;(rows === rowsPerStatement ? full : db.prepare(sqlFor(rows))).run(...pending)
    pending = []
  }
  return {
    add: (...values: unknown[]) => {
      if (values.length !== columns.length) throw new Error(`${table}: ${values.length} values for ${columns.length} columns`)
      for (const v of values) pending.push(v)
      if (pending.length === rowsPerStatement * columns.length) flush()
    },
    flush,
  }
}

const BIG_TABLES = ['Agent', 'System', 'Device', 'Issue', 'IssueHistory']

/** SQLite: the big tables' secondary indexes (their CREATE statements), dropped for the load. */
function dropIndexes(db: SqliteDb) {
  const indexes = db
    .prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (${BIG_TABLES.map(() => '?').join(',')})`)
    .all(...BIG_TABLES) as { name: string; sql: string }[]
  for (const index of indexes) db.prepare(`DROP INDEX "${index.name}"`).run()
  return indexes
}

export async function seedFleet(databaseUrl: string, scale: FleetScale = FLEET_SCALES['10k'], log: (line: string) => void = () => {}) {
  const postgres = isPostgresUrl(databaseUrl)
  const file = databaseUrl.slice('file:'.length)
  if (postgres) {
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query('DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public')
    await client.end()
  } else for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
  await migrateDatabase(databaseUrl, root)
  setConfig(loadConfig({ ...process.env, DATABASE_URL: databaseUrl, SEED_DEMO: 'true' }))
  await seedDemo()
  await disconnectDatabase()

  const rand = lcg(42)
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]
  const now = Date.now()
  const db = postgres ? openPostgresSync(databaseUrl) : new Database(file)
  let droppedIndexes: { name: string; sql: string }[] = []
  if (!postgres) {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = OFF')
    db.pragma('cache_size = -262144') // 256 MB while loading
    droppedIndexes = dropIndexes(db as SqliteDb)
  }
  const products = ['Helios', 'Tessera SX40', 'Brompton S8', 'Novastar MX40', 'Megapixel HX']
  const versions = ['3.4.1', '3.5.0', '3.5.2', '4.0.0', '4.1.3', '4.2.0']
  const inputs = ['HDMI 1', 'HDMI 2', 'SDI 1', 'SDI 2', 'DisplayPort', 'ST 2110']
  const tileProducts = ['ROE BP2v2', 'ROE Ruby 1.9', 'Absen PL2.5', 'Unilumin UpadIII']
  const issueTypes = [
    { key: 'recv.tempHigh', component: 'receiver', severity: 2, message: 'Tile temperature above limit' },
    { key: 'proc.genlockLost', component: 'processor', severity: 3, message: 'Genlock reference lost' },
    { key: 'proc.noInput', component: 'processor', severity: 3, message: 'No input signal' },
    { key: 'switch.portDown', component: 'switch', severity: 4, message: 'Switch port down' },
    { key: 'recv.fwOutdated', component: 'receiver', severity: 5, message: 'Tile firmware outdated' },
    { key: 'pdu.overCurrent', component: 'pdu', severity: 4, message: 'PDU outlet over current' },
  ]

  const insertUser = bulkInserter(db, 'User', ['id', 'email', 'name', 'emailVerified', 'createdAt', 'updatedAt'], 100)
  const insertOrg = bulkInserter(db, 'Organization', ['id', 'name', 'description', 'ownerId', 'billingStatus', 'createdAt', 'updatedAt'], 100, [insertUser])
  const insertProject = bulkInserter(db, 'Project', ['id', 'organizationId', 'name', 'description', 'parentId', 'createdAt', 'updatedAt'], 100, [insertOrg])
  const agentColumns = ['id', 'clientName', 'enabled', 'secretHash', 'product', 'serial', 'version', 'organizationId', 'enrolledAt', 'lastSeen', 'lastIp', 'tunnelStatus', 'dataSegsOut', 'dsackDups', 'totalRetrans', 'alertsCount', 'alertsSeverity', 'deviationsCount', 'deviationsSeverity', 'locationLat', 'locationLong', 'createdAt', 'updatedAt']
  const insertAgent = bulkInserter(db, 'Agent', agentColumns, 100, [insertOrg])
  const insertSystem = bulkInserter(db, 'System', ['id', 'agentId', 'key', 'name', 'projectId', 'alertsCount', 'alertsSeverity', 'deviationsCount', 'deviationsSeverity', 'createdAt', 'updatedAt'], 200, [insertAgent, insertProject])
  const insertDevice = bulkInserter(db, 'Device', ['id', 'systemId', 'key', 'component', 'product', 'serial', 'name', 'parentKey', 'versionSoftware', 'versionFirmware', 'properties', 'count'], 400, [insertSystem])
  const insertIssue = bulkInserter(db, 'Issue', ['id', 'systemId', 'kind', 'key', 'component', 'deviceKey', 'message', 'severity', 'latestCount', 'latestAt', 'isActive', 'createdAt', 'updatedAt'], 200, [insertSystem])
  const insertHistory = bulkInserter(db, 'IssueHistory', ['id', 'issueId', 'timestamp', 'count'], 500, [insertIssue])
  const inserters = [insertUser, insertOrg, insertProject, insertAgent, insertSystem, insertDevice, insertIssue, insertHistory]

  const counts = { organizations: 0, agents: 0, systems: 0, devices: 0, issues: 0, history: 0 }
  const t = iso(now)
  const historyPerIssue = new Map<string, { latestAt: number; count: number }>()
  const issueIds: string[] = []
  const seedAgents = (organizationId: string, agents: number, projectIds: string[], namePrefix: string, serialBase: number) => {
    for (let a = 0; a < agents; a++) {
      const agentId = newId()
      // connected agents reported within the last minute (they report every minute): older, the
      // offline sweeper would raise thousands of 'Agent offline' issues as the run goes on
      const lastSeen = rand() < 0.7 ? now - Math.floor(rand() * 60_000) : rand() < 0.9 ? now - Math.floor(rand() * 30 * 86_400_000) : null
      const tunnel = pick(['true', 'true', 'false', 'null', 'Relay busy', null])
      const systemId = newId()
      const projectId = projectIds.length && rand() < 0.9 ? pick(projectIds) : null
      const agentIssues = rand() < 0.25 ? [pick(issueTypes), ...(rand() < 0.3 ? [pick(issueTypes)] : [])] : []
      const unique = [...new Map(agentIssues.map((i) => [i.key, i])).values()]
      const worst = unique.reduce((w, i) => (w === -1 ? i.severity : Math.min(w, i.severity)), -1)
      const serial = serialBase + a
      insertAgent.add(
        agentId, `${namePrefix} ${String(a + 1).padStart(5, '0')}`, 1, 'x', pick(products), `SN${String(serial)}`, pick(versions), organizationId, t,
        lastSeen === null ? null : iso(lastSeen), `10.${Math.floor(serial / 62_500) % 250}.${serial % 250}.${serial % 200}`, tunnel,
        1_000_000 + a, Math.floor(rand() * 100), Math.floor(rand() * 2000),
        unique.length, worst, 0, -1, 40 + rand() * 20, -10 + rand() * 40, t, t,
      )
      insertSystem.add(systemId, agentId, 'sys-1', `Wall ${a + 1}`, projectId, unique.length, worst, 0, -1, t, t)
      counts.agents++
      counts.systems++
      const firmware = pick(['1.2.0', '1.3.1', '1.4.0'])
      const processor = JSON.stringify({ inputSource: pick(inputs), inputFormat: '3840x2160p59.94', genlockFrequency: 59.94, tilesInfo: { tiles: 16, columns: 4, rows: 4 } })
      insertDevice.add(newId(), systemId, 'proc', 'processor', pick(products), `proc-${serial}`, 'proc', null, pick(versions), null, processor, 1)
      insertDevice.add(newId(), systemId, 'switch', 'switch', 'NetGear M4250', `switch-${serial}`, 'switch', 'proc', '13.0.4', null, '{}', 1)
      insertDevice.add(newId(), systemId, 'pdu', 'pdu', 'APC AP8959', `pdu-${serial}`, 'pdu', null, null, '6.9.6', '{}', 1)
      const tileProduct = pick(tileProducts)
      for (let d = 3; d < scale.devicesPerAgent; d++) {
        insertDevice.add(newId(), systemId, `tile-${d}`, 'receiver', tileProduct, `tile-${d}-${serial}`, `tile-${d}`, 'proc', null, firmware, `{"temperature":${40 + Math.floor(rand() * 30)}}`, 1)
      }
      counts.devices += Math.max(3, scale.devicesPerAgent)
      for (const type of unique) {
        const issueId = newId()
        const latestCount = type.key === 'recv.tempHigh' ? 1 + Math.floor(rand() * 4) : 1
        const latestAt = now - Math.floor(rand() * 9 * 86_400_000)
        insertIssue.add(issueId, systemId, type.severity <= 3 ? 'alert' : 'deviation', type.key, type.component, type.component === 'receiver' ? 'tile-5' : null, type.message, type.severity, latestCount, iso(latestAt), 1, t, t)
        historyPerIssue.set(issueId, { latestAt, count: latestCount })
        issueIds.push(issueId)
        counts.issues++
      }
    }
  }
  const seedProjects = (organizationId: string, prefix: string, count: number) => {
    const projectIds: string[] = []
    for (let p = 0; p < count; p++) {
      const id = `${prefix}${String(p).padStart(9, '0')}`
      // every fifth project is a parent of the next four
      const parent = p % 5 === 0 ? null : projectIds[p - (p % 5)]
      insertProject.add(id, organizationId, `Venue ${p + 1}`, '', parent, t, t)
      projectIds.push(id)
    }
    return projectIds
  }

  db.transaction(() => {
    insertOrg.add(BENCH_ORG_ID, 'Bench Fleet', 'Generated by bench/seed-fleet.ts', DEMO_USERS.owner.id, 'internal', t, t)
    counts.organizations++
    seedAgents(BENCH_ORG_ID, scale.agents, seedProjects(BENCH_ORG_ID, 'bench-prj-', scale.projects), 'Agent', 100_000)
    log(`bench organization: ${scale.agents} agents`)
    // the rest of the service: organizations of their own owners, the remaining agents spread evenly
    for (let o = 0; o < scale.otherOrganizations; o++) {
      const organizationId = `bench-org-other-${String(o).padStart(4, '0')}`
      const ownerId = `bench-owner-${String(o).padStart(8, '0')}`
      insertUser.add(ownerId, `owner${o}@bench.pixelfleet.test`, `Owner ${o}`, 1, t, t)
      insertOrg.add(organizationId, `Customer ${String(o + 1).padStart(4, '0')}`, 'Generated by bench/seed-fleet.ts', ownerId, 'internal', t, t)
      counts.organizations++
      const agents = Math.floor(((o + 1) * scale.otherAgents) / scale.otherOrganizations) - Math.floor((o * scale.otherAgents) / scale.otherOrganizations)
      const projects = seedProjects(organizationId, `bench-p${String(o).padStart(4, '0')}-`, scale.projectsPerOtherOrganization)
      seedAgents(organizationId, agents, projects, `Site ${o + 1} agent`, 200_000 + o * 1_000)
      if ((o + 1) % 100 === 0) log(`${o + 1} of ${scale.otherOrganizations} other organizations`)
    }
    // spread the history entries over the issues, within the 10-day window before each latest entry
    for (let h = 0; h < scale.historyEntries; h++) {
      const issueId = issueIds[h % issueIds.length]
      const { latestAt, count } = historyPerIssue.get(issueId)!
      const ts = h < issueIds.length ? latestAt : latestAt - Math.floor(rand() * 86_400_000)
      insertHistory.add(newId(), issueId, iso(ts), h < issueIds.length ? count : Math.floor(rand() * 4))
      counts.history++
    }
    for (const inserter of inserters) inserter.flush()
  })()
  if (droppedIndexes.length) {
    log(`rows written; building ${droppedIndexes.length} indexes`)
    for (const index of droppedIndexes) db.prepare(index.sql).run()
  }
  if (postgres) {
    await (db as ReturnType<typeof openPostgresSync>).close()
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    // statistics for the planner, and the visibility map that lets index-only scans skip the heap
    // (rows written in one transaction are all-visible only after a VACUUM; autovacuum would come later)
    await client.query('VACUUM (ANALYZE)')
    await client.end()
  } else {
    // every table's statistics (PRAGMA optimize analyzes only tables it saw queried on this connection)
    db.prepare('ANALYZE').run()
    db.close()
  }

  // access: the demo owner administers the bench organization, the demo viewer sees one project
  setConfig(loadConfig({ ...process.env, DATABASE_URL: databaseUrl }))
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: DEMO_USERS.owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: BENCH_ORG_ID } })
    await tx.accessRight.create({ data: { userId: DEMO_USERS.viewer.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: BENCH_ORG_ID, projectId: BENCH_VIEWER_PROJECT } })
    await compileUserAcls(tx, DEMO_USERS.owner.id, BENCH_ORG_ID)
    await compileUserAcls(tx, DEMO_USERS.viewer.id, BENCH_ORG_ID)
  })
  // the 'Agent offline' issues of the agents silent for 5 min to 2 days, as the server's sweeper
  // would raise them in its first minutes (~2 % of the agents), swept as of the time the rows were
  // stamped with: a 100k seed takes minutes, after which every agent would look silent (it raised
  // one alarm per transaction for 70,000 agents)
  // imported here: its module chain reads the Prisma client at import time (alarms/clears.server.ts),
  // which must not be made before the configuration names this database
  const { sweepOfflineAgents } = await import('../app/domain/alarms/offline.server')
  await sweepOfflineAgents(new Date(now))
  await disconnectDatabase()
  return counts
}

/** `--scale 10k|100k` from argv (default 10k). */
export function scaleOption(argv = process.argv): FleetScale {
  const name = argv.includes('--scale') ? argv[argv.indexOf('--scale') + 1] : '10k'
  if (name !== '10k' && name !== '100k') throw new Error(`--scale ${name}: use 10k or 100k`)
  return FLEET_SCALES[name]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv.slice(2).find((a) => /^(file:|postgres)/.test(a)) ?? 'file:/tmp/pixelfleet-bench.db'
  const started = Date.now()
  const counts = await seedFleet(url, scaleOption(), (line) => console.log(`${((Date.now() - started) / 1000).toFixed(0)} s: ${line}`))
  console.log(`Seeded ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s:`, counts)
}
