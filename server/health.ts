/**
 * /healthz and /readyz for balancers and orchestrators (docs/operations.md): cheap, unauthenticated,
 * answered before any other middleware.
 *
 * - /healthz: the process runs its event loop (200, always, until it exits).
 * - /readyz: this node should get traffic: the database answers and takes a write (a no-op UPDATE
 *   takes SQLite's write lock, so a wedged write path shows), every migration this
 *   code ships is applied, the broker side is connected (registered by services.ts) and the node
 *   is not draining. 503 with a JSON body naming each check that failed.
 *
 * Concurrent polls share one evaluation; each check is bounded by CHECK_TIMEOUT_MS.
 */
import fs from 'node:fs'
import path from 'node:path'
import express from 'express'
import { isPostgres, prisma } from '../app/utils/db.server'
import { POSTGRES_MIGRATIONS } from './migrate-postgres'
import { type RequestTracker } from './drain'

export const CHECK_TIMEOUT_MS = 3_000

/** null when fine, else what is wrong (one short sentence). */
export type ReadinessCheck = () => Promise<string | null> | string | null

export type Readiness = {
  register: (name: string, check: ReadinessCheck) => void
  evaluate: () => Promise<{ ready: boolean; checks: Record<string, string> }>
}

function withTimeout(check: ReadinessCheck): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${CHECK_TIMEOUT_MS / 1000} s`), CHECK_TIMEOUT_MS)
  })
  const run = Promise.resolve()
    .then(check)
    // Prisma's messages start with the call and end with the cause: the last line says what is wrong
    .catch((error: Error) => (error.message.split('\n').map((line) => line.trim()).filter(Boolean).at(-1) ?? error.name).slice(0, 300))
  return Promise.race([run, timeout]).finally(() => clearTimeout(timer))
}

export function createReadiness(): Readiness {
  const checks = new Map<string, ReadinessCheck>()
  let running: Promise<{ ready: boolean; checks: Record<string, string> }> | null = null
  return {
    register: (name, check) => void checks.set(name, check),
    evaluate: () =>
      (running ??= (async () => {
        const entries = await Promise.all([...checks].map(async ([name, check]) => [name, await withTimeout(check)] as const))
        const result: Record<string, string> = {}
        for (const [name, problem] of entries) result[name] = problem ?? 'ok'
        return { ready: entries.every(([, problem]) => problem === null), checks: result }
      })().finally(() => {
        running = null
      })),
  }
}

/** The database answers and takes a write lock (nothing is changed). */
export async function databaseWritable(): Promise<string | null> {
  try {
    // one statement, its own transaction: a write statement takes the write lock even when it
    // matches no row. Not an interactive $transaction: one that times out waiting for the lock
    // leaves Prisma's later interactive transactions waiting forever (seen with Prisma 6.19's
    // better-sqlite3 adapter), so the probe itself could wedge the app.
    await prisma.$executeRawUnsafe('UPDATE "_prisma_migrations" SET "id" = "id" WHERE 1 = 0')
  } catch (error) {
    const lines = (error as Error).message.split('\n').map((line) => line.trim()).filter(Boolean)
    throw new Error(`write transaction failed: ${lines.at(-1) ?? (error as Error).name}`)
  }
  return null
}

/** Every migration shipped with this code is applied (a node started before an upgrade's migration is not ready for it). */
export function migrationsApplied(root: string): ReadinessCheck {
  let current = false
  return async () => {
    if (current) return null
    const dir = path.join(root, isPostgres() ? POSTGRES_MIGRATIONS : 'prisma/migrations')
    const shipped = fs.readdirSync(dir).filter((name) => fs.existsSync(path.join(dir, name, 'migration.sql')))
    const rows = await prisma.$queryRawUnsafe<{ migration_name: string }[]>('SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL')
    const applied = new Set(rows.map((row) => row.migration_name))
    const missing = shipped.filter((name) => !applied.has(name))
    if (missing.length) return `${missing.length} migration(s) not applied: ${missing.slice(0, 3).join(', ')}`
    current = true
    return null
  }
}

/** GET /healthz and /readyz (also on the METRICS_PORT listener). */
export function healthRoutes(readiness: Readiness, tracker: RequestTracker): express.Router {
  const router = express.Router()
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ status: 'ok' })
  })
  router.get('/readyz', (_req, res, next) => {
    tracker.noteReadinessPoll()
    readiness.evaluate().then(({ ready, checks }) => {
      const draining = tracker.draining
      res.setHeader('Cache-Control', 'no-store')
      res.status(ready && !draining ? 200 : 503).json({ status: ready && !draining ? 'ready' : 'not ready', checks: { ...checks, draining: draining ? 'shutting down' : 'ok' } })
    }, next)
  })
  return router
}
