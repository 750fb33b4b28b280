import os from 'node:os'
import { type Command } from 'commander'
import { z } from 'zod'
import { deleteConfig, writeConfig } from '../config'
import { resolveContext, parseOptions } from '../context'
import { CliError, ExitCode } from '../errors'
import { emit } from '../output'
import { ask, askHidden } from '../prompt'
import { tokenSpecBody, tokenSpecOptions, withTokenSpecOptions } from './tokens'

type TokenCreated = { id: string; token: string; prefix: string; name: string }
type Authorized = { uid: string; email: string; name: string; admin: boolean }

const loginOptions = tokenSpecOptions.extend({
  email: z.string().email('--email must be an e-mail address').optional(),
  password: z.string().min(1, '--password must not be empty').optional(),
  name: z.string().min(1).max(100).optional(),
})

/** JSON forms (pure): what scripts read. The token itself is never printed. */
export const loginJson = (url: string, email: string, token: TokenCreated) => ({ url, email, tokenId: token.id, tokenPrefix: token.prefix, tokenName: token.name })
export const whoamiJson = (url: string, user: Authorized) => ({ url, id: user.uid, email: user.email, name: user.name, siteAdmin: user.admin })

export function registerAuthCommands(program: Command) {
  withTokenSpecOptions(
    program
      .command('login')
      .description('sign in with e-mail and password; stores a personal API token (full access, never expiring unless --scope/--expires say otherwise) in your config directory')
      .option('--email <email>', 'account e-mail (asked when omitted)')
      .option('--password <password>', 'password (else $PIXELFLEET_PASSWORD, else asked without echo)')
      .option('--name <name>', 'name of the API token, shown in user settings', `CLI on ${os.hostname()}`),
  ).action(async (raw, command: Command) => {
      const ctx = resolveContext(command)
      const options = parseOptions(loginOptions, raw)
      const spec = tokenSpecBody(options)
      const email = options.email ?? (await ask('Email: ', 'E-mail (--email)')).trim()
      const password = options.password ?? process.env.PIXELFLEET_PASSWORD ?? (await askHidden('Password: ', 'Password (--password or PIXELFLEET_PASSWORD)'))
      const token = await ctx.client.call<TokenCreated>('public/auth/tokenCreate', { email, password, name: options.name, ...spec }, { needsLogin: false })
      writeConfig({ url: ctx.url, token: token.token, email, tokenId: token.id }, ctx.configFile)
      emit(ctx, loginJson(ctx.url, email, token), () => `Logged in to ${ctx.url} as ${email} (token ${token.prefix}…, saved in ${ctx.configFile})`)
    })

  program
    .command('logout')
    .description('revoke the stored API token and forget it')
    .action(async (_raw, command: Command) => {
      const ctx = resolveContext(command)
      let revoked = false
      if (ctx.config) {
        try {
          await ctx.client.call('token/revokeCurrent')
          revoked = true
        } catch (error) {
          // A token that no longer works is as good as revoked; anything else (network) is reported.
          if (!(error instanceof CliError && error.exitCode === ExitCode.auth)) throw error
        }
      }
      const removed = deleteConfig(ctx.configFile)
      emit(ctx, { loggedOut: removed, revoked }, () => (removed ? `Logged out of ${ctx.config?.url ?? ctx.url}` : 'Not logged in'))
    })

  program
    .command('whoami')
    .description('show the account the stored token belongs to')
    .action(async (_raw, command: Command) => {
      const ctx = resolveContext(command)
      const user = await ctx.client.call<Authorized>('auth/authorized')
      emit(ctx, whoamiJson(ctx.url, user), () => `${user.name} <${user.email}>${user.admin ? ' (site admin)' : ''} at ${ctx.url}`)
    })
}
