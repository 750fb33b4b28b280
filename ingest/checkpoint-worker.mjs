// The ingest worker's WAL checkpointer (sql-sqlite.server.ts checkpointInBackground): after each
// ingest commit it copies the committed WAL frames into the database file on its own connection
// and thread, so the commit that crosses wal_autocheckpoint finds almost nothing left to copy and
// sync. A passive checkpoint never waits for a lock and never blocks the writer: when another
// checkpoint holds the lock it does nothing and the next commit asks again. Plain JS (no loader
// in this thread).
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'

const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 })
let scheduled = false

function checkpoint() {
  scheduled = false
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (error) {
    // busy or locked: the writer's own checkpoint is the backstop; anything else ends this thread (logged there)
    if (!/SQLITE_(BUSY|LOCKED)/.test(error?.code ?? '')) throw error
  }
}

// one checkpoint for all commits announced while the last one ran
parentPort.on('message', () => {
  if (scheduled) return
  scheduled = true
  setImmediate(checkpoint)
})
