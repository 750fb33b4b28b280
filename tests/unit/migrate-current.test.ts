import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, describe, expect, it } from 'vitest'
import { sqliteIsCurrent } from '../../server/migrate'
import { TEMPLATE_DB, TMP_DIR } from '../setup/global-setup'

const root = path.resolve(import.meta.dirname, '../..')
const copies: string[] = []
function copyOfTemplate() {
  const file = path.join(TMP_DIR, `migrate-current-${process.pid}-${copies.length}.db`)
  fs.copyFileSync(TEMPLATE_DB, file)
  copies.push(file)
  return file
}

afterEach(() => {
  for (const file of copies.splice(0)) for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true })
})

describe('skipping prisma migrate deploy on an up-to-date SQLite database', () => {
  it('skips only when every committed migration is applied, unchanged', () => {
    const file = copyOfTemplate()
    expect(sqliteIsCurrent(`file:${file}`, root)).toBe(true)
  })

  it('leaves the decision to Prisma for a missing, empty, behind, edited or failed database', () => {
    expect(sqliteIsCurrent(`file:${path.join(TMP_DIR, 'no-such-database.db')}`, root)).toBe(false)
    const empty = copyOfTemplate()
    fs.writeFileSync(empty, '')
    expect(sqliteIsCurrent(`file:${empty}`, root)).toBe(false)

    const cases: ((db: Database) => void)[] = [
      (db) => db.prepare('DELETE FROM _prisma_migrations WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)').run(),
      (db) => db.prepare("UPDATE _prisma_migrations SET checksum = 'edited' WHERE migration_name = (SELECT min(migration_name) FROM _prisma_migrations)").run(),
      (db) => db.prepare('UPDATE _prisma_migrations SET finished_at = NULL WHERE migration_name = (SELECT max(migration_name) FROM _prisma_migrations)').run(),
      (db) => db.prepare("INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ('x', 'y', '29990101000000_unknown', 0, 0, 1)").run(),
    ]
    for (const change of cases) {
      const file = copyOfTemplate()
      const db = new Database(file)
      change(db)
      db.close()
      expect(sqliteIsCurrent(`file:${file}`, root)).toBe(false)
    }
  })

  it('never skips for PostgreSQL URLs (they migrate through pg)', () => {
    expect(sqliteIsCurrent('postgresql://u:p@127.0.0.1:1/db', root)).toBe(false)
  })
})
