import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { buildApp, buildIsStale, withoutVitest } from '../../server/build'
import { migrateDatabase } from '../../server/migrate'
import type { TestProject } from 'vitest/node'
import { bundleServer } from '../../scripts/bundle-server.mjs'
import { runToExit } from './run-to-exit'
import { DEMO_TEMPLATE_DB } from './test-db'
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
 * Does this run include a file that starts the production server? A unit or integration run must
 * not pay for a build (minutes on a busy machine) because app/ changed. When vitest's selection
 * cannot be read, it answers yes.
 */
async function runStartsTheServer(project: TestProject | undefined): Promise<boolean> {
  try {
    const filters = (project?.vitest as unknown as { filenamePattern?: string[] } | undefined)?.filenamePattern
    const specs = await project!.vitest.globTestSpecifications(filters)
    return specs.some((spec) => STARTS_THE_SERVER.test(fs.readFileSync(spec.moduleId, 'utf8')))
  } catch {
    return true
  }
}

/**
 * The template with the demo data (`npm run db:seed` on a copy), made afresh each run: its
 * timestamps are the run's, and it follows any change to the seed or the ACL code. Portals started
 * with SEED_DEMO=true on a copy skip their own seed (prisma/seed-data.ts: present data is kept).
 */
async function seedDemoTemplate() {
  const building = path.join(TMP_DIR, `template-demo-${process.pid}.db`)
  fs.copyFileSync(TEMPLATE_DB, building)
  const result = await runToExit(process.execPath, ['--import', 'tsx', 'prisma/seed.ts'], {
    cwd: root,
    env: { ...withoutVitest(process.env), NODE_ENV: 'test', DATABASE_URL: `file:${building}`, LOG_LEVEL: 'silent' },
  })
  if (result.status !== 0) throw new Error(`seeding the demo template failed (exit ${result.status}):\n${result.stdout}${result.stderr}`)
  // atomic: a run beside this one (the chaos profile in `npm test`) may be copying it right now
  fs.renameSync(building, DEMO_TEMPLATE_DB)
}

/**
 * Once per run: a migrated template database (rebuilt only when migrations change) that each test
 * file copies; when a selected file starts the production server, a fresh production build, the
 * server bundle that the harness starts (scripts/bundle-server.mjs, decision 070) and the demo
 * template.
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
    fs.rmSync(DEMO_TEMPLATE_DB, { force: true })
  }
  const postgres = testPostgresUrl()
  if (postgres) await preparePostgresTemplate(postgres, (url) => migrateDatabase(url, root))
  if (!(await runStartsTheServer(project))) return
  const buildThenBundle = async () => {
    if (process.env.PIXELFLEET_SKIP_BUILD !== '1' && buildIsStale(root)) await buildApp(root)
    // after the build: Remix empties build/ when it starts
    await bundleServer()
  }
  // the seed beside them: mostly one process of its own
  await Promise.all([buildThenBundle(), postgres ? null : seedDemoTemplate()])
}
