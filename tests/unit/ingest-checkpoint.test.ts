// The ingest worker's WAL checkpointer (ingest/sql-sqlite.server.ts checkpointInBackground,
// decision 082): after a commit is announced, its WAL frames reach the database file on the
// checkpointer's thread, without the writing connection checkpointing, and writes go on meanwhile.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, expect, test } from 'vitest'
import { checkpointInBackground } from '../../ingest/sql-sqlite.server'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-checkpoint-'))
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

async function until(condition: () => boolean, what: string) {
  // generous: the machine may be busy; the condition is polled, not timed
  const deadline = Date.now() + 60_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

test('committed WAL frames are copied into the database file by the checkpointer thread', async () => {
  const file = path.join(dir, 'wal.db')
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  // the writer never checkpoints itself here: only the checkpointer can fill the database file
  db.pragma('wal_autocheckpoint = 0')
  db.prepare('CREATE TABLE report (id INTEGER PRIMARY KEY, body TEXT NOT NULL)').run()
  db.pragma('wal_checkpoint(TRUNCATE)')
  const before = fs.statSync(file).size
  const insert = db.prepare('INSERT INTO report (body) VALUES (?)')
  db.transaction(() => {
    for (let i = 0; i < 2000; i++) insert.run('x'.repeat(500))
  })()
  expect(fs.statSync(file).size).toBe(before)

  const checkpointer = checkpointInBackground(`file:${file}`)
  try {
    checkpointer.committed()
    await until(() => fs.statSync(file).size > before + 500_000, 'the database file to receive the frames')
    // the writer goes on, and its new rows are there with the checkpointed ones
    db.transaction(() => insert.run('after'))()
    checkpointer.committed()
    expect(db.prepare('SELECT COUNT(*) AS n FROM report').get()).toEqual({ n: 2001 })
    const reader = new Database(file, { readonly: true })
    expect(reader.prepare('SELECT body FROM report ORDER BY id DESC LIMIT 1').get()).toEqual({ body: 'after' })
    reader.close()
  } finally {
    await checkpointer.stop()
    db.close()
  }
})

test('an in-memory database has nothing to checkpoint', async () => {
  const checkpointer = checkpointInBackground('file::memory:')
  checkpointer.committed()
  await checkpointer.stop()
})
