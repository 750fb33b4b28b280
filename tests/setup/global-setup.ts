import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buildApp, buildIsStale } from '../../server/build'
import { migrateDatabase } from '../../server/migrate'
import type { TestProject } from 'vitest/node'
import { preparePostgresTemplate, testPostgresUrl } from './test-postgres'

const root = path.resolve(import.meta.dirname, '../..')
export const TMP_DIR = path.join(root, 'tests/.tmp')
export const TEMPLATE_DB = path.join(TMP_DIR, 'template.db')

function migrationsHash() {
  const dir = path.join(root, 'prisma/migrations')
  const hash = createHash('sha256')
  for (const entry of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, entry, 'migration.sql')
    if (fs.existsSync(file)) hash.update(entry).update(fs.readFileSync(file))
  }
  return hash.digest('hex')
}

/** Test files that start the production server (the e2e harness, or `server/start.ts` directly). */
const STARTS_THE_SERVER = /harness'|server\/start\.ts/

/**
 * Does this run include a file that needs the production build? A unit or integration run must
 * not pay for a build (minutes on a busy machine) because app/ changed. When vitest's selection
 * cannot be read, it answers yes.
 */
async function runNeedsBuild(project: TestProject | undefined): Promise<boolean> {
  try {
    const filters = (project?.vitest as unknown as { filenamePattern?: string[] } | undefined)?.filenamePattern
    const specs = await project!.vitest.globTestSpecifications(filters)
    return specs.some((spec) => STARTS_THE_SERVER.test(fs.readFileSync(spec.moduleId, 'utf8')))
  } catch {
    return true
  }
}

/**
 * Once per run: a migrated template database (rebuilt only when migrations change) that each test
 * file copies, and a fresh production build when a selected file starts the production server.
 */
export default async function globalSetup(project?: TestProject) {
  fs.mkdirSync(TMP_DIR, { recursive: true })
  const hashFile = `${TEMPLATE_DB}.hash`
  const hash = migrationsHash()
  if (!fs.existsSync(TEMPLATE_DB) || !fs.existsSync(hashFile) || fs.readFileSync(hashFile, 'utf8') !== hash) {
    const building = path.join(TMP_DIR, `template-${process.pid}.db`)
    fs.rmSync(building, { force: true })
    await migrateDatabase(`file:${building}`, root)
    fs.renameSync(building, TEMPLATE_DB)
    fs.writeFileSync(hashFile, hash)
  }
  const postgres = testPostgresUrl()
  if (postgres) await preparePostgresTemplate(postgres, (url) => migrateDatabase(url, root))
  if (process.env.PIXELFLEET_SKIP_BUILD !== '1' && buildIsStale(root) && (await runNeedsBuild(project))) await buildApp(root)
}
