import { type Command } from 'commander'
import { z } from 'zod'
import { CliError, ExitCode } from '../errors'
import { emit } from '../output'
import { askHidden } from '../prompt'

const createUserOptions = z.object({
  email: z.string({ required_error: '--email is required' }).min(1, '--email is required'),
  name: z.string().default('Site Administrator'),
  password: z.string().min(1, '--password must not be empty').optional(),
})

/**
 * `pixelfleet admin create-user`: the first site administrator of an installation. No admin exists
 * yet to grant the right through the portal, so this talks to the database directly (DATABASE_URL,
 * default ./data/pixelfleet.db) on the machine that runs the portal, whether the portal is running
 * or not (when it is not, migrations are applied first).
 */
export function registerAdminCommands(program: Command): Command {
  const admin = program.command('admin').description('site administration: users, organizations, billing, invoices, messages; create-user runs on the portal machine')
  admin
    .command('create-user')
    .description('create a site administrator (or make an existing account one); uses DATABASE_URL')
    .option('--email <email>', 'e-mail address (sign-in name)')
    .option('--name <name>', 'display name', 'Site Administrator')
    .option('--password <password>', 'password (else $PIXELFLEET_PASSWORD, else asked without echo)')
    .action(async (raw: unknown) => {
      const parsed = createUserOptions.safeParse(raw)
      if (!parsed.success) throw new CliError(parsed.error.issues.map((i) => i.message).join('; '), ExitCode.usage, 'cli/usage')
      const options = parsed.data
      const password = options.password ?? process.env.PIXELFLEET_PASSWORD ?? (await askHidden('Password: ', 'Password (--password or PIXELFLEET_PASSWORD)'))
      // Loaded on demand: only this command needs the server side (Prisma, argon2).
      const { loadConfig } = await import('../../server/config')
      const { migrateDatabase } = await import('../../server/migrate')
      const { DatabaseInUseError, lockDatabase } = await import('../../server/db-lock')
      const { setConfig } = await import('../../app/utils/env.server')
      const { disconnectDatabase } = await import('../../app/utils/db.server')
      const { createSiteAdmin } = await import('../../app/domain/users/site-admin-bootstrap.server')
      const { DomainError } = await import('../../app/domain/errors')
      const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' })
      setConfig(config)
      try {
        // A running portal has migrated its database already (and holds it): then only write the user.
        let release: (() => void) | null = null
        try {
          release = lockDatabase(config.DATABASE_URL)
        } catch (error) {
          if (!(error instanceof DatabaseInUseError)) throw error
        }
        if (release) {
          try {
            await migrateDatabase(config.DATABASE_URL)
          } finally {
            release()
          }
        }
        const result = await createSiteAdmin({ email: options.email, name: options.name, password }, 'pixelfleet admin create-user')
        emit({ json: Boolean((raw as { json?: boolean }).json) }, result, () =>
          result.created ? `Created site administrator ${result.email}.` : `${result.email} already had an account: it is now a site administrator with the new password.`,
        )
      } catch (error) {
        if (error instanceof DomainError) throw new CliError(error.message, ExitCode.usage, error.code, error.issues)
        throw error
      } finally {
        await disconnectDatabase()
      }
    })
  return admin
}
