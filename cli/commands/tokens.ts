import { type Command } from 'commander'
import { z } from 'zod'
import { withContext } from '../context'
import { printDone, printRows } from '../output'

type Token = { id: string; name: string; prefix: string; createdAt: string; lastUsedAt: string | null; expiresAt?: string | null }

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
