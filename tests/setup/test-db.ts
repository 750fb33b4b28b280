import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createPostgresTestDatabase, testPostgresUrl } from './test-postgres'

const root = path.resolve(import.meta.dirname, '../..')
export const TMP_DIR = path.join(root, 'tests/.tmp')
/** The migrated template with the demo data seeded (global-setup.ts makes it when a run starts portals). */
export const DEMO_TEMPLATE_DB = path.join(TMP_DIR, 'template-demo.db')

/**
 * A private copy of the migrated template database; removed by the caller when done. `demo`: of
 * the template with the demo data already seeded, when the run has one (SQLite only), so that a
 * portal started with SEED_DEMO=true finds it and skips the seed (one argon2 hash, the ACLs). On
 * PostgreSQL (`npm run test:scaleout`) a fresh database made from the template database; `file` is
 * null there.
 */
export function createTestDatabase(label = 'test', options: { demo?: boolean } = {}): { file: string | null; url: string; remove: () => void } {
  const postgres = testPostgresUrl()
  if (postgres) return createPostgresTestDatabase(postgres, label)
  const file = path.join(TMP_DIR, `${label}-${process.pid}-${randomBytes(4).toString('hex')}.db`)
  fs.copyFileSync(options.demo && fs.existsSync(DEMO_TEMPLATE_DB) ? DEMO_TEMPLATE_DB : path.join(TMP_DIR, 'template.db'), file)
  return {
    file,
    url: `file:${file}`,
    remove: () => {
      for (const suffix of ['', '-wal', '-shm', '-journal', '.lock']) fs.rmSync(file + suffix, { force: true })
    },
  }
}
