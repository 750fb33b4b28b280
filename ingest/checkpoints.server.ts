/**
 * WAL checkpoints of the ingest worker's SQLite connection, out of its commits (decision 090).
 * With `wal_autocheckpoint` the commit that crosses the threshold copies the whole WAL into the
 * database file and fsyncs both inside the batch, while every message in flight waits on it. Here
 * the connection never checkpoints on commit (`wal_autocheckpoint = 0`); instead the worker runs a
 * PASSIVE checkpoint between batches: when the WAL holds CHECKPOINT_IDLE_PAGES not yet copied and
 * no batch is waiting (a turn of the event loop after the last batch found nothing new), or at
 * once when it holds CHECKPOINT_HARD_PAGES, so the WAL stays bounded under continuous load.
 * Durability is SQLite's: `synchronous` is unchanged and a checkpoint only copies committed pages.
 *
 * How full the WAL is comes from the wal-index header in the `-shm` file (mxFrame at byte 16,
 * nBackfill at byte 96, native byte order: https://www.sqlite.org/walformat.html), read with one
 * pread per batch. Where it cannot be read the connection keeps SQLite's own autocheckpoint.
 */
import fs from 'node:fs'
import os from 'node:os'
import type Database from 'better-sqlite3'
import { traceCheckpoint, traceNow, tracing } from './trace'
import { WAL_CHECKPOINT_PAGES } from './sql-sqlite.server'
import { componentLogger } from '~/utils/logger.server'

const log = componentLogger('ingest')

/** WAL pages not yet in the database file after which an idle worker checkpoints. */
export const CHECKPOINT_IDLE_PAGES = 2_000
/** ... after which it checkpoints even with batches waiting (below Prisma's autocheckpoint, WAL_CHECKPOINT_PAGES). */
export const CHECKPOINT_HARD_PAGES = 8_000

export type WalIndex = { frames: number; backfilled: number }

/** A reader of the wal-index header of `databaseFile`, or null where it has none to read. */
export function walIndexReader(databaseFile: string): (() => WalIndex | null) | null {
  if (os.endianness() !== 'LE') return null
  const header = Buffer.alloc(100)
  const file = `${databaseFile}-shm`
  return () => {
    // opened per read (a few times a second): a worker thread that dies leaves no descriptor behind
    let fd: number | null = null
    try {
      fd = fs.openSync(file, 'r')
      if (fs.readSync(fd, header, 0, 100, 0) < 100) return null
      return { frames: header.readUInt32LE(16), backfilled: header.readUInt32LE(96) }
    } catch {
      return null
    } finally {
      if (fd !== null) fs.closeSync(fd)
    }
  }
}

export class WalCheckpoints {
  private check: NodeJS.Immediate | null = null
  /** the last checkpoint failed (logged once until one succeeds) */
  private failing = false
  /** the wal-index could not be read: SQLite's own autocheckpoint is back on */
  private unreadable = false

  constructor(
    private readonly db: Database,
    private readonly walIndex: () => WalIndex | null,
    /** whether a batch is queued or running */
    private readonly busy: () => boolean,
    private readonly limits = { idlePages: CHECKPOINT_IDLE_PAGES, hardPages: CHECKPOINT_HARD_PAGES },
  ) {
    db.pragma('wal_autocheckpoint = 0')
  }

  /**
   * After each commit: look at the WAL once the batch's replies are out and the messages posted
   * meanwhile are queued (the next turn's check phase, before the next batch starts).
   */
  afterBatch() {
    if (this.check || this.unreadable) return
    this.check = setImmediate(() => {
      this.check = null
      try {
        const index = this.read()
        if (!index) return
        const pending = index.frames - index.backfilled
        if (pending >= this.limits.hardPages || (pending >= this.limits.idlePages && !this.busy())) this.checkpoint(index)
      } catch (error) {
        // the next batch looks again; SQLite's own recovery covers a WAL that is not copied yet
        if (!this.failing) log.warn(`ingest: WAL checkpoint failed: ${error instanceof Error ? error.message : String(error)}`)
        this.failing = true
      }
    })
  }

  private read(): WalIndex | null {
    if (this.unreadable) return null
    const index = this.walIndex()
    if (index) return index
    this.unreadable = true
    this.db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`)
    return null
  }

  private checkpoint(before: WalIndex) {
    const start = tracing ? traceNow() : 0
    this.db.pragma('wal_checkpoint(PASSIVE)')
    this.failing = false
    if (tracing) {
      const after = this.walIndex()
      traceCheckpoint(start, traceNow() - start, (after?.backfilled ?? before.backfilled) - before.backfilled, before.frames)
    }
  }
}
