import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import path from 'node:path'
import { promisify } from 'node:util'
import { isPostgresUrl, migratePostgres } from './migrate-postgres'

const run = promisify(execFile)
const require = createRequire(import.meta.url)

/** Applies committed migrations with `prisma migrate deploy` (offline: JS engine + adapter). */
export async function migrateDatabase(databaseUrl: string, root = process.cwd()) {
  if (isPostgresUrl(databaseUrl)) return migratePostgres(databaseUrl, root)
  const prismaCli = path.join(path.dirname(require.resolve('prisma/package.json')), 'build/index.js')
  try {
    await run(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
    })
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string }
    throw new Error(`Database migration failed: ${(e.stderr || e.stdout || e.message).trim()}`)
  }
}
