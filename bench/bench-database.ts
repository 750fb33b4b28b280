// The database a benchmark runs on: a SQLite file (default), or with `--database postgresql://...`
// (or BENCH_DATABASE_URL) a database of its own on that PostgreSQL server, named after the
// benchmark, made fresh by reset() and dropped by remove().
import fs from 'node:fs'
import pg from 'pg'
import { isPostgresUrl } from '../server/migrate-postgres'

export type BenchDatabase = {
  url: string
  postgres: boolean
  /** Empties it (drops and creates the database / deletes the file). */
  reset: () => Promise<void>
  /** Bytes on disk. */
  size: () => Promise<number>
  exists: () => Promise<boolean>
  remove: () => Promise<void>
}

/** `--database <url>` from argv, else BENCH_DATABASE_URL, else undefined (SQLite). */
export function databaseOption(argv = process.argv): string | undefined {
  const at = argv.indexOf('--database')
  const fromArgs = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--database='))?.slice('--database='.length)
  return fromArgs || process.env.BENCH_DATABASE_URL || undefined
}

async function onServer<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const u = new URL(serverUrl)
  u.pathname = '/postgres'
  const client = new pg.Client({ connectionString: u.toString() })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

export function benchDatabase(option: string | undefined, sqliteFile: string, name: string): BenchDatabase {
  if (!option || !isPostgresUrl(option)) {
    const file = option?.startsWith('file:') ? option.slice('file:'.length) : sqliteFile
    const rm = async () => {
      for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
    }
    return { url: `file:${file}`, postgres: false, reset: rm, remove: rm, exists: async () => fs.existsSync(file), size: async () => (fs.existsSync(file) ? fs.statSync(file).size : 0) }
  }
  const database = `pixelfleet_bench_${name}`
  const u = new URL(option)
  u.pathname = `/${database}`
  const drop = (c: pg.Client) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`)
  return {
    url: u.toString(),
    postgres: true,
    reset: () =>
      onServer(option, async (c) => {
        await drop(c)
        await c.query(`CREATE DATABASE "${database}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`)
      }),
    remove: () => onServer(option, async (c) => void (await drop(c))),
    exists: () => onServer(option, async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [database])).rowCount === 1),
    size: () => onServer(option, async (c) => Number((await c.query('SELECT pg_database_size($1) AS n', [database])).rows[0].n)),
  }
}
