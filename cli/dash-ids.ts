/**
 * Record ids are 20 url-safe characters (nanoid), so 1 in 64 starts with '-': commander would read
 * `pixelfleet invites revoke -AbC...` as an unknown option and stop with a usage error. A token of
 * exactly that shape that is not one of the CLI's own flags crosses commander behind a marker that
 * makes it an operand (or an option's value), and the marker is taken off before the action runs.
 * `--` still ends the options as usual; `simulate` hands its arguments on untouched.
 */
import { type Command } from 'commander'

const ID_SHAPE = /^-[A-Za-z0-9_-]{19}$/
/** Cannot occur in a real command-line argument. */
const MARK = '\u0000'

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)]
}

/** `argv` with every dash-led id marked (see above). */
export function markDashIds(program: Command, argv: string[]): string[] {
  const flags = new Set(allCommands(program).flatMap((command) => command.options.flatMap((option) => [option.short, option.long].filter((flag): flag is string => Boolean(flag)))))
  const out: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--' || arg === 'simulate') return [...out, ...argv.slice(i)]
    out.push(ID_SHAPE.test(arg) && !flags.has(arg) ? MARK + arg : arg)
  }
  return out
}

const unmark = (value: unknown): unknown => (typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : Array.isArray(value) ? value.map(unmark) : value)

/** Takes the marks off the arguments and option values of the command about to run (a hook on `program`). */
export function unmarkDashIdsBeforeActions(program: Command) {
  program.hook('preAction', (_program, action) => {
    action.processedArgs = action.processedArgs.map(unmark)
    action.args = action.args.map((arg) => unmark(arg) as string)
    for (let command: Command | null = action; command; command = command.parent) {
      for (const [key, value] of Object.entries(command.opts())) if (unmark(value) !== value) command.setOptionValue(key, unmark(value))
    }
  })
}
