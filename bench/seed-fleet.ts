// npm run bench:seed -- [file:/tmp/pixelfleet-bench.db]: a fresh database with the demo accounts and
// one large organization (10,000 agents, 200,000 devices, 50,000 issue history entries) for
// bench/loaders.ts. Rows go in through better-sqlite3 prepared statements inside one transaction
// (on PostgreSQL through the same statements on ingest's synchronous pg handle, batched).
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { openPostgresSync } from '../ingest/sql-pg.server'
import { loadConfig } from '../server/config'
import { migrateDatabase } from '../server/migrate'
import { isPostgresUrl } from '../server/migrate-postgres'
import { sweepOfflineAgents } from '../app/domain/alarms/offline.server'
import { compileUserAcls } from '../app/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '../app/domain/access/catalogue'
import { disconnectDatabase, prisma } from '../app/utils/db.server'
import { setConfig } from '../app/utils/env.server'
import { DEMO_USERS, seedDemo } from '../prisma/seed-data'

export const BENCH_ORG_ID = 'bench-org-fleet-0001'
export const BENCH_SIZES = { agents: 10_000, devicesPerAgent: 20, historyEntries: 50_000, projects: 40 }
/** The project a project-scoped viewer sees in the benchmark (the demo viewer gets Project Viewer on it). */
export const BENCH_VIEWER_PROJECT = 'bench-prj-000000003'

const root = path.resolve(import.meta.dirname, '..')
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const newId = () => Array.from(randomBytes(20), (b) => ALPHABET[b % ALPHABET.length]).join('')
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

export async function seedFleet(databaseUrl: string) {
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
  if (!postgres) {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = OFF')
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

  const insertOrg = db.prepare(`INSERT INTO "Organization" ("id","name","description","ownerId","billingStatus","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`)
  const insertProject = db.prepare(`INSERT INTO "Project" ("id","organizationId","name","description","parentId","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`)
  const insertAgent = db.prepare(`INSERT INTO "Agent" ("id","clientName","enabled","secretHash","product","serial","version","organizationId","enrolledAt","lastSeen","lastIp","tunnelStatus","dataSegsOut","dsackDups","totalRetrans","alertsCount","alertsSeverity","deviationsCount","deviationsSeverity","locationLat","locationLong","createdAt","updatedAt") VALUES (?,?,TRUE,'x',?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
  const insertSystem = db.prepare(`INSERT INTO "System" ("id","agentId","key","name","projectId","alertsCount","alertsSeverity","deviationsCount","deviationsSeverity","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?)`)
  const insertDevice = db.prepare(`INSERT INTO "Device" ("id","systemId","key","component","product","serial","name","parentKey","versionSoftware","versionFirmware","properties","count") VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`)
  const insertIssue = db.prepare(`INSERT INTO "Issue" ("id","systemId","kind","key","component","deviceKey","message","severity","latestCount","latestAt","isActive","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`)
  const insertHistory = db.prepare(`INSERT INTO "IssueHistory" ("id","issueId","timestamp","count") VALUES (?,?,?,?)`)

  const counts = { agents: 0, systems: 0, devices: 0, issues: 0, history: 0 }
  db.transaction(() => {
    const t = iso(now)
    insertOrg.run(BENCH_ORG_ID, 'Bench Fleet', 'Generated by bench/seed-fleet.ts', DEMO_USERS.owner.id, 'internal', t, t)
    const projectIds: string[] = []
    for (let p = 0; p < BENCH_SIZES.projects; p++) {
      const id = `bench-prj-${String(p).padStart(9, '0')}`
      // every fifth project is a parent of the next four
      const parent = p % 5 === 0 ? null : projectIds[p - (p % 5)]
      insertProject.run(id, BENCH_ORG_ID, `Venue ${p + 1}`, '', parent, t, t)
      projectIds.push(id)
    }
    const historyPerIssue = new Map<string, { latestAt: number; count: number }>()
    const issueIds: string[] = []
    for (let a = 0; a < BENCH_SIZES.agents; a++) {
      const agentId = newId()
      // connected agents reported within the last minute (they report every minute): older, the
      // offline sweeper would raise thousands of 'Agent offline' issues as the run goes on
      const lastSeen = rand() < 0.7 ? now - Math.floor(rand() * 60_000) : rand() < 0.9 ? now - Math.floor(rand() * 30 * 86_400_000) : null
      const tunnel = pick(['true', 'true', 'false', 'null', 'Relay busy', null])
      const systemId = newId()
      const projectId = rand() < 0.9 ? pick(projectIds) : null
      const agentIssues = rand() < 0.25 ? [pick(issueTypes), ...(rand() < 0.3 ? [pick(issueTypes)] : [])] : []
      const unique = [...new Map(agentIssues.map((i) => [i.key, i])).values()]
      const worst = unique.reduce((w, i) => (w === -1 ? i.severity : Math.min(w, i.severity)), -1)
      insertAgent.run(
        agentId, `Agent ${String(a + 1).padStart(5, '0')}`, pick(products), `SN${String(100000 + a)}`, pick(versions), BENCH_ORG_ID, t,
        lastSeen === null ? null : iso(lastSeen), `10.0.${a % 250}.${a % 200}`, tunnel,
        1_000_000 + a, Math.floor(rand() * 100), Math.floor(rand() * 2000),
        unique.length, worst, 0, -1, 40 + rand() * 20, -10 + rand() * 40, t, t,
      )
      insertSystem.run(systemId, agentId, 'sys-1', `Wall ${a + 1}`, projectId, unique.length, worst, 0, -1, t, t)
      counts.agents++
      counts.systems++
      const firmware = pick(['1.2.0', '1.3.1', '1.4.0'])
      const deviceRows: [string, string, string, string | null, string | null, string | null, string, number][] = [
        ['proc', 'processor', pick(products), null, pick(versions), null, JSON.stringify({ inputSource: pick(inputs), inputFormat: '3840x2160p59.94', genlockFrequency: 59.94, tilesInfo: { tiles: 16, columns: 4, rows: 4 } }), 1],
        ['switch', 'switch', 'NetGear M4250', 'proc', '13.0.4', null, '{}', 1],
        ['pdu', 'pdu', 'APC AP8959', null, null, '6.9.6', '{}', 1],
      ]
      const tileProduct = pick(tileProducts)
      for (let d = deviceRows.length; d < BENCH_SIZES.devicesPerAgent; d++) {
        deviceRows.push([`tile-${d}`, 'receiver', tileProduct, 'proc', null, firmware, JSON.stringify({ temperature: 40 + Math.floor(rand() * 30) }), 1])
      }
      for (const [key, component, product, parent, software, fw, props, count] of deviceRows) {
        insertDevice.run(newId(), systemId, key, component, product, `${key}-${a}`, key, parent, software, fw, props, count)
        counts.devices++
      }
      for (const type of unique) {
        const issueId = newId()
        const latestCount = type.key === 'recv.tempHigh' ? 1 + Math.floor(rand() * 4) : 1
        const latestAt = now - Math.floor(rand() * 9 * 86_400_000)
        insertIssue.run(issueId, systemId, type.severity <= 3 ? 'alert' : 'deviation', type.key, type.component, type.component === 'receiver' ? 'tile-5' : null, type.message, type.severity, latestCount, iso(latestAt), 1, t, t)
        historyPerIssue.set(issueId, { latestAt, count: latestCount })
        issueIds.push(issueId)
        counts.issues++
      }
    }
    // spread the history entries over the issues, within the 10-day window before each latest entry
    for (let h = 0; h < BENCH_SIZES.historyEntries; h++) {
      const issueId = issueIds[h % issueIds.length]
      const { latestAt, count } = historyPerIssue.get(issueId)!
      const ts = h < issueIds.length ? latestAt : latestAt - Math.floor(rand() * 86_400_000)
      insertHistory.run(newId(), issueId, iso(ts), h < issueIds.length ? count : Math.floor(rand() * 4))
      counts.history++
    }
  })()
  if (postgres) {
    await (db as ReturnType<typeof openPostgresSync>).close()
    const client = new pg.Client({ connectionString: databaseUrl })
    await client.connect()
    await client.query('ANALYZE')
    await client.end()
  } else {
    db.pragma('optimize')
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
  // would raise them in its first minutes (~1 % of the agents)
  await sweepOfflineAgents()
  await disconnectDatabase()
  return counts
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2] ?? 'file:/tmp/pixelfleet-bench.db'
  const started = Date.now()
  const counts = await seedFleet(url)
  console.log(`Seeded ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s:`, counts)
}
