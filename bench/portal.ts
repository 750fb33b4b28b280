// Shared by bench/pages.ts and bench/live.ts: the bench database (seeded once per seed version),
// the production server as a child process on ephemeral ports, its CPU time, and a session cookie.
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import pg from 'pg'
import { FLEET_SCALES, seedFleet, type FleetScale } from './seed-fleet'

export const root = path.resolve(import.meta.dirname, '..')
/** Bump when bench/seed-fleet.ts changes what it creates: the next run seeds a fresh file. */
export const seedVersion = (scale: FleetScale) => `3:${JSON.stringify(scale)}`
export const BENCH_DIR = path.join(root, 'bench/.data')

/** `--scale 100k` (bench/seed-fleet.ts FLEET_SCALES) from argv; 10k without it. */
export function scaleName(argv = process.argv): keyof typeof FLEET_SCALES {
  const name = argv.includes('--scale') ? argv[argv.indexOf('--scale') + 1] : '10k'
  if (name !== '10k' && name !== '100k') throw new Error(`--scale ${name}: use 10k or 100k`)
  return name
}

/**
 * The bench database under bench/.data (gitignored; fleet.db, fleet-100k.db with `--scale 100k`),
 * reused while its seed version matches.
 */
export async function benchDatabase(file?: string, keepReporting = true, scale = scaleName()) {
  file ??= process.env.BENCH_DB ?? path.join(BENCH_DIR, scale === '10k' ? 'fleet.db' : `fleet-${scale}.db`)
  const sizes = FLEET_SCALES[scale]
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const marker = `${file}.seed-version`
  const current = fs.existsSync(marker) ? fs.readFileSync(marker, 'utf8') : ''
  if (current !== seedVersion(sizes) || !fs.existsSync(file)) {
    const agents = sizes.agents + sizes.otherAgents
    console.log(`Seeding ${file} (${agents.toLocaleString('en')} agents, ${(agents * sizes.devicesPerAgent).toLocaleString('en')} devices) ...`)
    fs.rmSync(marker, { force: true })
    const started = Date.now()
    const log = (line: string) => console.log(`  ${((Date.now() - started) / 1000).toFixed(0)} s: ${line}`)
    console.log(await seedFleet(`file:${file}`, sizes, log), `${((Date.now() - started) / 1000).toFixed(1)} s`)
    fs.writeFileSync(marker, seedVersion(sizes))
  }
  if (keepReporting) keepFleetReporting(file)
  return file
}

/**
 * Moves the bench organizations' last-seen times forward so the newest is now, as if its agents had
 * kept reporting since the seed. Without it a reused database drifts: every agent goes silent, the
 * server's offline sweeper raises an 'Agent offline' issue on each system (7,000 critical issues, and
 * thousands of transactions and change events during the run) and pages cost more than on a fresh seed.
 * bench/pages.ts calls it between pages (a page's run is far shorter than the 5-minute offline delay).
 */
export function keepFleetReporting(file: string) {
  // the server writes the same file meanwhile: wait for its write lock rather than fail (seconds at load 50)
  const db = new Database(file, { timeout: 60_000 })
  // every organization bench/seed-fleet.ts made (ids 'bench-org-...'), not the demo's live agents
  const organizations = `"organizationId" >= 'bench-org-' AND "organizationId" < 'bench-org.'`
  try {
    const { newest } = db.prepare(`SELECT MAX("lastSeen") AS newest FROM "Agent" WHERE ${organizations}`).get() as { newest: string | null }
    if (!newest) return
    const shiftMs = Date.now() - Date.parse(newest)
    if (shiftMs <= 0) return
    // Prisma's SQLite DateTime text ('2026-11-24T13:10:33.123+00:00'), shifted in julian days
    db.prepare(
      `UPDATE "Agent" SET "lastSeen" = strftime('%Y-%m-%dT%H:%M:%f+00:00', julianday(substr("lastSeen", 1, 23)) + ? / 86400000.0)
       WHERE ${organizations} AND "lastSeen" IS NOT NULL`,
    ).run(shiftMs)
  } finally {
    db.close()
  }
}

/** A signed-in session for `userId`, written straight into the sessions table (what /login stores). */
export function createSession(file: string, userId: string) {
  const token = randomBytes(32).toString('base64url')
  const db = new Database(file)
  const now = new Date().toISOString().replace('Z', '+00:00')
  const expires = new Date(Date.now() + 6 * 3600_000).toISOString().replace('Z', '+00:00')
  db.prepare(`INSERT INTO "Session" ("id","tokenHash","userId","createdAt","lastSeenAt","expiresAt") VALUES (?,?,?,?,?,?)`).run(
    randomBytes(10).toString('hex'),
    createHash('sha256').update(token).digest('hex'),
    userId,
    now,
    now,
    expires,
  )
  db.close()
  return `pf_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString('base64'))}`
}

export type Portal = { child: ChildProcess; port: number; mqttPort: number; pid: number; stop: () => Promise<void> }

/** `npm start` on `file` (or a postgresql:// URL) as a child process (production build of `cwd`, this checkout by default), ports chosen by the system. */
export async function startPortal(file: string, env: Record<string, string> = {}, nodeArgs: string[] = [], cwd = root): Promise<Portal> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/start.ts'], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: '0',
      MQTT_PORT: '0',
      RELAY_PORT: '0',
      HOST: '127.0.0.1',
      // a postgresql:// URL (bench/pages.ts --database) or a SQLite file
      DATABASE_URL: /^postgres(ql)?:\/\//.test(file) ? file : `file:${file}`,
      SEED_DEMO: 'true',
      SIMULATOR_AGENTS: '0',
      FEATURE_DASHBOARDS: 'true',
      LOG_LEVEL: 'warn',
      // the build on disk is what is measured (`npm run build` first): no silent rebuild inside a run
      PIXELFLEET_SKIP_BUILD: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const ports = await new Promise<[number, number]>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const m = output.match(/web :(\d+), MQTT :(\d+)/)
      if (m) resolve([Number(m[1]), Number(m[2])])
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`portal exited (${code}):\n${output}`)))
    setTimeout(() => reject(new Error(`portal not ready after 10 min:\n${output}`)), 600_000).unref()
  })
  // keep draining its output so a chatty server never blocks on a full pipe; the last 16 KB are
  // kept and printed if the server exits on its own (a run that stopped on connection resets
  // could not tell a crash from anything else)
  let tail = ''
  const keep = (c: Buffer) => void (tail = (tail + c.toString()).slice(-16_384))
  let stopping = false
  child.stdout!.removeAllListeners('data').on('data', keep)
  child.stderr!.removeAllListeners('data').on('data', (c: Buffer) => {
    keep(c)
    if (process.env.BENCH_VERBOSE) process.stderr.write(c)
  })
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`\nthe portal (pid ${child.pid}) exited on its own (${signal ?? `code ${code}`}); its last output:\n${tail}\n`)
  })
  return {
    child,
    port: ports[0],
    mqttPort: ports[1],
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        stopping = true
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
        setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
      }),
  }
}

const TICK_MS = 1000 / 100 // CLK_TCK is 100 on Linux

/** User + system CPU time of a process (all its threads) in ms, from /proc/<pid>/stat. */
export function cpuMs(pid: number) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS // utime, stime (fields 14 and 15)
}

export const percentile = (values: number[], p: number) => {
  if (!values.length) return NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export function loadAverage() {
  return fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]
}

/** keepFleetReporting on a PostgreSQL bench database (bench/pages.ts --database). */
export async function keepFleetReportingPostgres(url: string) {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    // Prisma's DateTime columns are UTC timestamps without a zone
    await client.query(`WITH shift AS (SELECT (now() AT TIME ZONE 'UTC') - MAX("lastSeen") AS by FROM "Agent" WHERE "organizationId" LIKE 'bench-org-%')
      UPDATE "Agent" SET "lastSeen" = "lastSeen" + shift.by FROM shift
      WHERE "organizationId" LIKE 'bench-org-%' AND "lastSeen" IS NOT NULL AND shift.by > interval '0'`)
  } finally {
    await client.end()
  }
}

/** createSession on a PostgreSQL bench database. */
export async function createSessionPostgres(url: string, userId: string) {
  const token = randomBytes(32).toString('base64url')
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`INSERT INTO "Session" ("id","tokenHash","userId","createdAt","lastSeenAt","expiresAt") VALUES ($1,$2,$3,now(),now(),now() + interval '6 hours')`, [
      randomBytes(10).toString('hex'),
      createHash('sha256').update(token).digest('hex'),
      userId,
    ])
  } finally {
    await client.end()
  }
  return `pf_session=${encodeURIComponent(Buffer.from(JSON.stringify(token)).toString('base64'))}`
}

/** The first agent by name of an organization on a PostgreSQL bench database. */
export async function firstAgentPostgres(url: string, organizationId: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<{ id: string }>(`SELECT id FROM "Agent" WHERE "organizationId" = $1 ORDER BY "clientName" LIMIT 1`, [organizationId])).rows[0]?.id
  } finally {
    await client.end()
  }
}
