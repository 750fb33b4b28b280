import { type Command } from 'commander'
import { z } from 'zod'
import { withContext } from '../context'
import { usageError } from '../errors'
import { printDone, printRecord, printRows } from '../output'

type Token = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; expiresAt?: string | null }
type CreatedToken = Token & { token: string; scope: string; permissions: string[] }

/** `--scope` and `--expires` of a new token (login and tokens create): the API's scope and expiry fields. */
export const tokenSpecOptions = z.object({
  scope: z.enum(['full', 'read', 'custom'], { errorMap: () => ({ message: '--scope must be full, read or custom' }) }).optional(),
  permissions: z.string().optional(),
  expires: z
    .enum(['1', '7', '30', '90', 'never'], { errorMap: () => ({ message: '--expires must be 1, 7, 30 or 90 (days) or never' }) })
    .optional(),
})

/** The API body's scope fields from the options (pure): --permissions is a comma-separated list for --scope custom. */
export function tokenSpecBody(options: z.output<typeof tokenSpecOptions>) {
  const permissions = options.permissions?.split(',').map((p) => p.trim()).filter(Boolean)
  if (permissions?.length && options.scope !== 'custom') throw usageError('--permissions needs --scope custom')
  return {
    ...(options.scope ? { scope: options.scope } : {}),
    ...(permissions ? { permissions } : {}),
    ...(options.expires ? { expiresInDays: options.expires === 'never' ? null : Number(options.expires) } : {}),
  }
}

/** Adds --scope, --permissions and --expires to a command. */
export const withTokenSpecOptions = (command: Command) =>
  command
    .option('--scope <scope>', 'full (default), read (read-only) or custom')
    .option('--permissions <list>', 'with --scope custom: comma-separated permissions, e.g. org.view,project.view')
    .option('--expires <days>', '1, 7, 30 or 90 days, or never (default)')

/** `pixelfleet tokens ...` (token/* calls): your personal API tokens. */
export function registerTokensCommands(program: Command) {
  const tokens = program.command('tokens').description('your personal API tokens')
  tokens
    .command('list')
    .description('your API tokens (the secret itself is only shown when created)')
    .action(
      withContext(z.object({}), async (ctx) => {
        const { tokens: list } = await ctx.client.call<{ tokens: Token[] }>('token/list')
        printRows(ctx, { tokens: list }, list, [
          ['id', (t) => t.id],
          ['name', (t) => t.name],
          ['prefix', (t) => t.prefix],
          ['created', (t) => t.createdAt],
          ['last used', (t) => t.lastUsedAt ?? 'Never'],
          ['expires', (t) => t.expiresAt ?? 'Never'],
        ], 'No API tokens.')
      }),
    )
  withTokenSpecOptions(
    tokens
      .command('create')
      .description('create an API token for scripts and CI; its secret is printed once')
      .requiredOption('--name <name>', 'name shown in your token list'),
  ).action(
    withContext(tokenSpecOptions.extend({ name: z.string().trim().min(1, '--name must not be empty') }), async (ctx, options) => {
      const created = await ctx.client.call<CreatedToken>('token/create', { name: options.name, ...tokenSpecBody(options) })
      printRecord(ctx, created, [
        ['id', created.id],
        ['name', created.name],
        ['scope', created.scope === 'custom' ? `custom (${created.permissions.join(', ')})` : created.scope],
        ['expires', created.expiresAt ?? 'Never'],
        ['token', created.token],
      ])
    }),
  )
  tokens
    .command('revoke')
    .description('revoke an API token')
    .argument('<tokenId>', 'token id')
    .action(
      withContext(z.object({}), async (ctx, _o, [id]) => {
        const result = await ctx.client.call('token/revoke', { id })
        printDone(ctx, { id, ...result }, `Revoked token ${id}`)
      }),
    )
}
