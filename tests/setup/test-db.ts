import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { createPostgresTestDatabase, testPostgresUrl } from './test-postgres'

const root = path.resolve(import.meta.dirname, '../..')
export const TMP_DIR = path.join(root, 'tests/.tmp')

/**
 * A private copy of the migrated template database; removed by the caller when done. On
 * PostgreSQL (`npm run test:scaleout`) a fresh database made from the template database; `file` is
 * null there.
 */
export function createTestDatabase(label = 'test'): { file: string | null; url: string; remove: () => void } {
  const postgres = testPostgresUrl()
  if (postgres) return createPostgresTestDatabase(postgres, label)
  const file = path.join(TMP_DIR, `${label}-${process.pid}-${randomBytes(4).toString('hex')}.db`)
  fs.copyFileSync(path.join(TMP_DIR, 'template.db'), file)
  return {
    file,
    url: `file:${file}`,
    remove: () => {
      for (const suffix of ['', '-wal', '-shm', '-journal', '.lock']) fs.rmSync(file + suffix, { force: true })
    },
  }
}
