/** /readyz's checks (server/health.ts) against this file's own database, and the route labels of the request metrics. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { afterAll, describe, expect, it } from 'vitest'
import { getConfig } from '../../app/utils/env.server'
import { createReadiness, databaseWritable, migrationsApplied } from '../../server/health'
import { routeLabelOf, routePatterns } from '../../server/route-label'

const root = path.resolve(import.meta.dirname, '../..')
const temporary: string[] = []
afterAll(() => temporary.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

describe('readiness', () => {
  it('is ready on a migrated, writable database', async () => {
    const readiness = createReadiness()
    readiness.register('database', databaseWritable)
    readiness.register('migrations', migrationsApplied(root))
    expect(await readiness.evaluate()).toEqual({ ready: true, checks: { database: 'ok', migrations: 'ok' } })
  })

  it('notices a write path another connection holds locked, and recovers when it is released', async () => {
    const readiness = createReadiness()
    readiness.register('database', databaseWritable)
    const holder = new Database(getConfig().DATABASE_URL.slice('file:'.length))
    try {
      holder.prepare('BEGIN IMMEDIATE').run()
      const wedged = await readiness.evaluate()
      expect(wedged.ready).toBe(false)
      expect(wedged.checks.database).toMatch(/^write transaction failed: .*(locked|BUSY)|^no answer within/)
      holder.prepare('ROLLBACK').run()
      // the next polls see it writable again (the timed-out attempt may still be unwinding)
      let last = await readiness.evaluate()
      for (let i = 0; i < 60 && !last.ready; i++) {
        await new Promise((resolve) => setTimeout(resolve, 500))
        last = await readiness.evaluate()
      }
      expect(last).toEqual({ ready: true, checks: { database: 'ok' } })
    } finally {
      holder.close()
    }
  })

  it('names migrations this release ships that the database lacks', async () => {
    const release = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-release-'))
    temporary.push(release)
    fs.cpSync(path.join(root, 'prisma/migrations'), path.join(release, 'prisma/migrations'), { recursive: true })
    fs.mkdirSync(path.join(release, 'prisma/migrations/29990101000000_next_release'))
    fs.writeFileSync(path.join(release, 'prisma/migrations/29990101000000_next_release/migration.sql'), 'SELECT 1;')
    const readiness = createReadiness()
    readiness.register('migrations', migrationsApplied(release))
    expect(await readiness.evaluate()).toEqual({ ready: false, checks: { migrations: '1 migration(s) not applied: 29990101000000_next_release' } })
  })
})

describe('request metrics route labels', () => {
  it('are the route patterns of the build, API call names kept, so the label set stays small', async () => {
    const build = (await import(path.join(root, 'build/server/index.js'))) as { routes: Parameters<typeof routePatterns>[0] }
    const patterns = routePatterns(build.routes)
    expect(routeLabelOf(patterns, '/organization/Xk3_9aQ2LmPz0bC1dE4f/notes', 200)).toBe('/organization/:organizationId/notes')
    expect(routeLabelOf(patterns, '/organization/Xk3_9aQ2LmPz0bC1dE4f/notes/n0te1d', 200)).toBe('/organization/:organizationId/notes/:noteId')
    expect(routeLabelOf(patterns, '/client/v1/organization/serviceTokenList', 200)).toBe('/client/v1/organization/serviceTokenList')
    expect(routeLabelOf(patterns, '/client/v1/agent/Xk3_9aQ2LmPz0bC1dE4f1234', 400)).toBe('/client/v1/agent/:param')
    expect(routeLabelOf(patterns, '/client/v1/openapi.json', 200)).toBe('/client/v1/openapi.json')
    expect(routeLabelOf(patterns, '/readyz', 503)).toBe('/readyz')
    expect(routeLabelOf(patterns, '/anything/at/all', 404)).toBe('(unmatched)')
    expect(routeLabelOf(patterns, '/assets/entry.client-abc123.js', 200)).toBe('/assets/*')
    expect(routeLabelOf(patterns, '/favicon.svg', 200)).toBe('(static file)')
  })

  it('fall back to words and :param without a build (dev server)', () => {
    expect(routeLabelOf(null, '/agents/Xk3_9aQ2LmPz0bC1dE4f', 200)).toBe('/agents/:param')
    expect(routeLabelOf(null, '/', 200)).toBe('/')
  })
})
