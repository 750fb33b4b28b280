import fs from 'node:fs'

/**
 * One Pixelfleet process per SQLite database: a second `npm start` on the same data directory
 * would otherwise die deep inside Prisma's engine with an unreadable stack. The lock is a file
 * beside the database holding the owner's pid, created exclusively; a lock whose process is gone
 * (a crash or SIGKILL) is taken over.
 */
export class DatabaseInUseError extends Error {}

const HAS_PROC = fs.existsSync('/proc/self/stat')

/**
 * Whether a process of this machine with this id is running. A zombie (ended, not yet reaped by
 * its parent: in a container whose first process reaps nothing it stays one) counts as gone.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
  // without /proc (not Linux) the signal's answer stands
  if (!HAS_PROC) return true
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat[stat.lastIndexOf(')') + 2] !== 'Z'
  } catch {
    // it ended since the signal
    return false
  }
}

/** Takes the lock of a `file:` database (other URLs need none); returns the release function. */
export function lockDatabase(databaseUrl: string): () => void {
  if (!databaseUrl.startsWith('file:')) return () => undefined
  const databaseFile = databaseUrl.slice('file:'.length)
  const lockFile = `${databaseFile}.lock`
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, `${process.pid}\n`, { flag: 'wx' })
      let released = false
      const release = () => {
        if (released) return
        released = true
        try {
          if (Number(fs.readFileSync(lockFile, 'utf8').trim()) === process.pid) fs.rmSync(lockFile, { force: true })
        } catch {
          // already gone
        }
      }
      process.once('exit', release)
      return release
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const owner = Number(fs.readFileSync(lockFile, 'utf8').trim())
      if (owner !== process.pid && processAlive(owner)) {
        throw new DatabaseInUseError(
          `The database ${databaseFile} is in use by another Pixelfleet process (pid ${owner}); stop it first or set DATABASE_URL to another file.`,
        )
      }
      fs.rmSync(lockFile, { force: true }) // stale: its process is gone
    }
  }
  throw new DatabaseInUseError(`Could not lock the database ${databaseFile} (${lockFile}); another process keeps taking it.`)
}
