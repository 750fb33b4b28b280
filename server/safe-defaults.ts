import { DEFAULT_PROVISIONING_KEY } from '../protocol'
import { verifyPassword } from '../app/domain/auth/crypto.server'
import { createSiteAdmin } from '../app/domain/users/site-admin-bootstrap.server'
import { prisma } from '../app/utils/db.server'
import { setConfig } from '../app/utils/env.server'
import { DEMO_PASSWORD, DEMO_USERS } from '../prisma/seed-data'
import { ConfigError, type Config } from './config'

/**
 * Safe by default (docs/decisions/008-safe-defaults.md): the demo data (published provisioning key,
 * accounts with the password printed in the README) is for the demo. In production
 * (NODE_ENV=production) the portal refuses to start with either unless SEED_DEMO=true says the
 * demo is wanted, and then says so loudly. `npm start` is the demo and passes --demo, which makes
 * SEED_DEMO default to true; `npm run start:prod` does not.
 */
export async function applySafeDefaults(config: Config, log: (text: string) => void = console.warn) {
  setConfig(config)
  const production = config.NODE_ENV === 'production'
  if (production && config.SEED_DEMO) {
    log(
      box([
        'DEMO MODE (SEED_DEMO=true): this portal runs with the demo accounts, whose password',
        `is published in the README, and the public demo provisioning key.`,
        'Anyone who can reach it can sign in as the site administrator.',
        'For a real deployment: npm run start:prod with PROVISIONING_KEY and ADMIN_EMAIL/ADMIN_PASSWORD',
        '(or `pixelfleet admin create-user`), see README "Safe defaults".',
      ]),
    )
  }
  if (production && !config.SEED_DEMO) {
    if (config.PROVISIONING_KEY === DEFAULT_PROVISIONING_KEY) {
      throw new ConfigError(
        'Refusing to start: PROVISIONING_KEY is the public demo key. Set your own (e.g. PROVISIONING_KEY=$(openssl rand -hex 24)), or SEED_DEMO=true for the demo.',
      )
    }
    const demoAccounts = await prisma.user.findMany({ where: { email: { in: Object.values(DEMO_USERS).map((u) => u.email) }, disabled: false } })
    const exposed: string[] = []
    for (const user of demoAccounts) if (await verifyPassword(user.passwordHash, DEMO_PASSWORD)) exposed.push(user.email)
    if (exposed.length > 0) {
      throw new ConfigError(
        `Refusing to start: the database holds demo accounts with the published demo password (${exposed.join(', ')}). ` +
          'Change their passwords or disable them, or set SEED_DEMO=true for the demo.',
      )
    }
  }
  if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
    // First start only: an existing account is left alone, so the variables may stay set.
    const existing = await prisma.user.findUnique({ where: { email: config.ADMIN_EMAIL.trim().toLowerCase() } })
    if (!existing) {
      const admin = await createSiteAdmin({ email: config.ADMIN_EMAIL, name: config.ADMIN_NAME, password: config.ADMIN_PASSWORD }, 'ADMIN_EMAIL at start')
      log(`Created the site administrator ${admin.email} (ADMIN_EMAIL). You can now unset ADMIN_PASSWORD.`)
    }
  } else if (config.ADMIN_EMAIL || config.ADMIN_PASSWORD) {
    throw new ConfigError('Set both ADMIN_EMAIL and ADMIN_PASSWORD to create the first site administrator (or neither).')
  }
}

/** A boxed block of text for the start-up log. */
export function box(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length))
  const edge = `+${'-'.repeat(width + 2)}+`
  return [edge, ...lines.map((l) => `| ${l.padEnd(width)} |`), edge].join('\n')
}
