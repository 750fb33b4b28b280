/** cli/dash-ids.ts: ids that start with '-' reach commands intact, as operands and as option values; flags stay flags. */
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { markDashIds, unmarkDashIdsBeforeActions } from '../../cli/dash-ids'

async function parse(argv: string[]) {
  let seen: { ids: unknown[]; opts: Record<string, unknown>; root: Record<string, unknown> } | undefined
  const program = new Command('pf').exitOverride().option('--json').option('--output <format>')
  program
    .command('revoke')
    .argument('<id>')
    .argument('[more...]')
    .option('--org <id>')
    .option('-f, --follow')
    .action((id: string, more: string[], opts: Record<string, unknown>) => {
      seen = { ids: [id, ...more], opts, root: program.opts() }
    })
  unmarkDashIdsBeforeActions(program)
  await program.parseAsync(markDashIds(program, argv), { from: 'user' })
  return seen!
}

describe('ids that start with a dash on the command line', () => {
  it('reaches the command as operands, variadic operands and option values, without the marker', async () => {
    const seen = await parse(['--output', '-AbCdEfGhIjKlMnOpQrS', 'revoke', '-AbCdEfGhIjKlMnOpQrS', '--org', '--XyZ0123456789abcde', '-_23456789012345678z', '--json', '-f'])
    expect(seen.ids).toEqual(['-AbCdEfGhIjKlMnOpQrS', '-_23456789012345678z'])
    expect(seen.opts).toEqual({ org: '--XyZ0123456789abcde', follow: true })
    expect(seen.root).toEqual({ output: '-AbCdEfGhIjKlMnOpQrS', json: true })
  })

  it('leaves other dash-led words as options: an unknown one is still a usage error', async () => {
    await expect(parse(['revoke', 'id1', '--nope'])).rejects.toThrow(/unknown option '--nope'/)
    // not an id's shape (19 characters): still an unknown option
    await expect(parse(['revoke', '-AbCdEfGhIjKlMnOpQr'])).rejects.toThrow(/unknown option/)
  })

  it('keeps arguments after -- as they are', async () => {
    const seen = await parse(['revoke', '--', '-AbCdEfGhIjKlMnOpQrS'])
    expect(seen.ids).toEqual(['-AbCdEfGhIjKlMnOpQrS'])
  })
})
