/**
 * pixelfleet: the command-line client of the portal. One root command; each command group lives
 * in cli/commands/. It talks to /client/v1 with a personal API token (see README 'CLI').
 */
import { pathToFileURL } from 'node:url'
import { Command, CommanderError } from 'commander'
import { registerAdminCommands } from './commands/admin'
import { registerAdminApiCommands } from './commands/admin-api'
import { registerAgentsCommands } from './commands/agents'
import { registerApiCommands } from './commands/api'
import { registerAuditCommands } from './commands/audit'
import { registerAuthCommands } from './commands/auth'
import { registerChannelsCommands } from './commands/channels'
import { registerCompletionCommand } from './commands/completion'
import { registerEnrollCommand } from './commands/enroll'
import { registerIssuesCommands } from './commands/issues'
import { registerInvitesCommands, registerMembersCommands } from './commands/members'
import { registerNotesCommands } from './commands/notes'
import { registerOrgsCommands } from './commands/orgs'
import { registerProjectsCommands } from './commands/projects'
import { registerRolesCommands } from './commands/roles'
import { registerSimulateCommand } from './commands/simulate'
import { registerTokensCommands } from './commands/tokens'
import { registerUsageCommands } from './commands/usage'
import { registerWindowsCommands } from './commands/windows'
import { DEFAULT_URL } from './config'
import { markDashIds, unmarkDashIdsBeforeActions } from './dash-ids'
import { wantsJson } from './context'
import { ExitCode, reportError } from './errors'

export function createProgram(): Command {
  const program = new Command('pixelfleet')
    .description('Pixelfleet portal from the command line')
    .version(process.env.npm_package_version ?? '25.3.0', '-V, --version')
    .option('--url <url>', `portal address (default: $PIXELFLEET_URL, the last login's portal, or ${DEFAULT_URL})`)
    .option('--json', 'print machine-readable JSON (same as --output json)')
    .option('--output <format>', 'table (default), csv or json')
    .showHelpAfterError('(run with --help for usage)')
    // Options before a command name belong to pixelfleet, after it to the command: `simulate` hands
    // its own --url (the broker) to the simulator untouched.
    .enablePositionalOptions()
    // Set before the subcommands are added, so they inherit it: main() maps usage errors to exit code 2.
    .exitOverride()
  registerAuthCommands(program)
  registerOrgsCommands(program)
  registerProjectsCommands(program)
  registerMembersCommands(program)
  registerInvitesCommands(program)
  registerRolesCommands(program)
  registerAgentsCommands(program)
  registerEnrollCommand(program)
  registerIssuesCommands(program)
  registerWindowsCommands(program)
  registerChannelsCommands(program)
  registerNotesCommands(program)
  registerAuditCommands(program)
  registerUsageCommands(program)
  registerTokensCommands(program)
  registerAdminApiCommands(registerAdminCommands(program))
  registerApiCommands(program)
  registerSimulateCommand(program)
  registerCompletionCommand(program)
  // --url, --json and --output are accepted after the command name too (`pixelfleet agents list --json`).
  for (const command of leafCommands(program)) {
    if (command.name() === 'simulate' || command.name() === 'completion') continue
    command.option('--url <url>', 'portal address').option('--json', 'print machine-readable JSON').option('--output <format>', 'table, csv or json')
  }
  unmarkDashIdsBeforeActions(program)
  return program
}

function leafCommands(command: Command): Command[] {
  return command.commands.length ? command.commands.flatMap(leafCommands) : [command]
}

/** Runs the CLI and returns the exit code (never calls process.exit itself). */
export async function main(argv: string[]): Promise<number> {
  const program = createProgram()
  try {
    await program.parseAsync(markDashIds(program, argv), { from: 'user' })
    // A delegating command (simulate) reports its own outcome through process.exitCode.
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander already printed its message (or the help / version text).
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? ExitCode.ok : ExitCode.usage
    }
    return reportError(error, { json: wantsJson(argv) })
  }
}

/** `pixelfleet ... | head`: a reader that stops early is normal, not a crash with a stack trace. */
export function exitQuietlyOnClosedPipe() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0)
      throw error
    })
  }
}

// `npm run cli -- ...` runs this file directly; the installed bin goes through bin.js.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  exitQuietlyOnClosedPipe()
  process.exitCode = await main(process.argv.slice(2))
}
