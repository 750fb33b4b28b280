/** Issue 10 item 11: production refuses the demo key and demo passwords unless SEED_DEMO=true. */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { main as cli } from '../../cli/index'
import { withoutVitest } from '../../server/build'
import { ConfigError, loadConfig } from '../../server/config'
import { applySafeDefaults } from '../../server/safe-defaults'
import { verifyPassword } from '~/domain/auth/crypto.server'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { seedDemo } from '../../prisma/seed-data'
import { runToExit } from '../setup/run-to-exit'
import { createTestDatabase } from '../setup/test-db'

const root = path.resolve(import.meta.dirname, '../..')
const production = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'production', DATABASE_URL: getConfig().DATABASE_URL, LOG_LEVEL: 'silent', ...env })

describe('safe defaults', () => {
  it('refuses the demo provisioning key in production without SEED_DEMO, and boxes a warning with it', async () => {
    const testConfig = getConfig()
    try {
      await expect(applySafeDefaults(production({}))).rejects.toThrow(/PROVISIONING_KEY is the public demo key/)
      const lines: string[] = []
      await applySafeDefaults(production({ SEED_DEMO: 'true' }), (l) => lines.push(l))
      expect(lines.join('\n')).toMatch(/^\+-+\+\n\| DEMO MODE \(SEED_DEMO=true\)/)
      // Development and tests are not production: no refusal.
      await expect(applySafeDefaults({ ...testConfig })).resolves.toBeUndefined()
    } finally {
      setConfig(testConfig)
    }
  })

  it('refuses demo accounts with the published password in production, and creates the first admin from ADMIN_EMAIL', async () => {
    const testConfig = getConfig()
    try {
      await seedDemo()
      await expect(applySafeDefaults(production({ PROVISIONING_KEY: 'a-real-secret-key' }))).rejects.toThrow(/demo accounts with the published demo password \(admin@pixelfleet\.io/)
      await prisma.user.updateMany({ where: { email: { endsWith: 'pixelfleet.io' } }, data: { disabled: true } })
      const log: string[] = []
      await applySafeDefaults(production({ PROVISIONING_KEY: 'a-real-secret-key', ADMIN_EMAIL: 'Ops@Example.com', ADMIN_PASSWORD: 'Strong-admin-pass-1' }), (l) => log.push(l))
      const admin = await prisma.user.findUniqueOrThrow({ where: { email: 'ops@example.com' } })
      expect(admin).toMatchObject({ isAdmin: true, emailVerified: true })
      expect(await verifyPassword(admin.passwordHash, 'Strong-admin-pass-1')).toBe(true)
      expect(log.join('\n')).toContain('Created the site administrator ops@example.com')
      expect(await prisma.auditRecord.count({ where: { action: 'user.createSiteAdmin' } })).toBe(1)
      // A second start with the variables still set leaves the account alone.
      await applySafeDefaults(production({ PROVISIONING_KEY: 'a-real-secret-key', ADMIN_EMAIL: 'ops@example.com', ADMIN_PASSWORD: 'Other-admin-pass-2' }), () => undefined)
      expect(await verifyPassword((await prisma.user.findUniqueOrThrow({ where: { email: 'ops@example.com' } })).passwordHash, 'Strong-admin-pass-1')).toBe(true)
      expect(() => production({ ADMIN_EMAIL: 'not-an-address' })).toThrow(ConfigError)
    } finally {
      setConfig(testConfig)
    }
  })

  it('creates a site admin with `pixelfleet admin create-user` straight in the database', async () => {
    const testConfig = getConfig()
    const saved = { ...process.env }
    const out: string[] = []
    const write = process.stdout.write.bind(process.stdout)
    try {
      Object.assign(process.env, { DATABASE_URL: testConfig.DATABASE_URL, NODE_ENV: 'test' })
      // As if the portal were running on this database (its lock, held by a live process).
      // (a file database's lock; PostgreSQL takes none)
      if (testConfig.DATABASE_URL.startsWith('file:')) fs.writeFileSync(`${testConfig.DATABASE_URL.slice('file:'.length)}.lock`, `${process.ppid}\n`)
      process.stdout.write = ((chunk: string) => (out.push(String(chunk)), true)) as typeof process.stdout.write
      const code = await cli(['admin', 'create-user', '--email', 'first@example.com', '--name', 'First Admin', '--password', 'First-admin-pass-1'])
      process.stdout.write = write
      expect(code, out.join('')).toBe(0)
      expect(out.join('')).toContain('Created site administrator first@example.com.')
      setConfig(testConfig)
      const user = await prisma.user.findUniqueOrThrow({ where: { email: 'first@example.com' } })
      expect(user).toMatchObject({ isAdmin: true, name: 'First Admin', emailVerified: true })
      expect(await cli(['admin', 'create-user', '--email', 'weak@example.com', '--password', 'short'])).toBe(2)
    } finally {
      process.stdout.write = write
      process.env = saved
      setConfig(testConfig)
    }
  })

  it('stops `npm start:prod` with one line when production would run on the demo key', async () => {
    const db = createTestDatabase('safe-defaults')
    try {
      const result = await runToExit(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
        cwd: root,
        env: { ...withoutVitest(process.env), NODE_ENV: 'production', DATABASE_URL: db.url, PORT: '0', MQTT_PORT: '0', RELAY_PORT: '0', PIXELFLEET_SKIP_BUILD: '1' },
      })
      expect(result.status).toBe(1)
      expect(result.stderr.trim()).toMatch(/^Refusing to start: PROVISIONING_KEY is the public demo key/)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    } finally {
      db.remove()
    }
  })
})
