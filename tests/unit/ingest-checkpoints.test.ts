// The ingest worker's WAL checkpoints between batches (ingest/checkpoints.server.ts, decision 090):
// no checkpoint inside a commit, one when idle past the idle threshold, one even when busy past the
// hard bound, and SQLite's own autocheckpoint back where the wal-index cannot be read.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { WalCheckpoints, walIndexReader } from '../../ingest/checkpoints.server'
import { WAL_CHECKPOINT_PAGES } from '../../ingest/sql-sqlite.server'

let dir: string
let db: Database
let file: string

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-checkpoints-'))
  file = path.join(dir, 'ingest.db')
  db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.prepare('CREATE TABLE "Row" ("id" INTEGER PRIMARY KEY, "data" BLOB NOT NULL)').run()
})

afterEach(() => {
  db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Commits `pages` WAL pages or more (one 4 KB row per page) in one transaction. */
function insert(pages: number) {
  const statement = db.prepare('INSERT INTO "Row" ("data") VALUES (?)')
  db.transaction(() => {
    for (let i = 0; i < pages; i++) statement.run(Buffer.alloc(4000, i))
  })()
}

const autocheckpoint = () => (db.pragma('wal_autocheckpoint') as { wal_autocheckpoint: number }[])[0].wal_autocheckpoint

/** Waits until the checks queued by `afterBatch` ran (they run in a later turn's check phase). */
const turns = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('walIndexReader', () => {
  it('reads the frames in the WAL and those copied, as SQLite reports them', () => {
    const read = walIndexReader(file)!
    db.pragma('wal_autocheckpoint = 0')
    insert(50)
    const before = read()!
    expect(before.frames).toBeGreaterThanOrEqual(50)
    expect(before.backfilled).toBe(0)
    const [result] = db.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[]
    expect(result.log).toBe(before.frames)
    expect(read()).toEqual({ frames: before.frames, backfilled: result.checkpointed })
  })

  it('returns null for a database without a wal-index', () => {
    expect(walIndexReader(path.join(dir, 'missing.db'))!()).toBeNull()
  })
})

describe('WalCheckpoints', () => {
  it('turns off the checkpoint in the commit', () => {
    new WalCheckpoints(db, walIndexReader(file)!, () => false)
    expect(autocheckpoint()).toBe(0)
    // past SQLite's default of 1,000 pages: a commit would have checkpointed
    insert(1200)
    expect(walIndexReader(file)!()!.backfilled).toBe(0)
  })

  it('checkpoints between batches when idle past the idle threshold, not below it', async () => {
    const read = walIndexReader(file)!
    const checkpoints = new WalCheckpoints(db, read, () => false, { idlePages: 100, hardPages: 1000 })
    insert(20)
    checkpoints.afterBatch()
    await turns()
    expect(read()!.backfilled).toBe(0)
    insert(120)
    checkpoints.afterBatch()
    await turns()
    const index = read()!
    expect(index.backfilled).toBe(index.frames)
  })

  it('waits while batches are waiting, until the hard bound', async () => {
    const read = walIndexReader(file)!
    const checkpoints = new WalCheckpoints(db, read, () => true, { idlePages: 100, hardPages: 400 })
    insert(150)
    checkpoints.afterBatch()
    await turns()
    expect(read()!.backfilled).toBe(0)
    insert(300)
    checkpoints.afterBatch()
    await turns()
    const index = read()!
    expect(index.backfilled).toBe(index.frames)
    // the next write starts the WAL over from its beginning
    insert(1)
    expect(read()!.frames).toBeLessThan(10)
  })

  it('gives the checkpoint back to SQLite when the wal-index cannot be read', async () => {
    const checkpoints = new WalCheckpoints(db, () => null, () => false)
    expect(autocheckpoint()).toBe(0)
    checkpoints.afterBatch()
    await turns()
    expect(autocheckpoint()).toBe(WAL_CHECKPOINT_PAGES)
  })
})
