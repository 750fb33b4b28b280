import { type Command, type Option } from 'commander'
import { usageError } from '../errors'

/** The command tree as paths: '' is the root, 'admin users' a nested group (pure). */
function walk(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
  return [{ path, command }, ...command.commands.flatMap((c) => walk(c, [...path, c.name()]))]
}

const optionNames = (command: Command) => command.options.flatMap((o: Option) => [o.long, o.short].filter((n): n is string => Boolean(n))).concat('--help')
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** bash (and zsh through bashcompinit): subcommands and options of the command being typed. */
export function bashCompletion(program: Command): string {
  const nodes = walk(program)
  const name = program.name()
  const known = nodes.filter((n) => n.path.length).map((n) => `"${n.path.join(' ')}"`)
  const cases = nodes.map((n) => `    "${n.path.join(' ')}") words=${quote([...n.command.commands.map((c) => c.name()), ...optionNames(n.command)].join(' '))} ;;`)
  return `# ${name} completion for bash; generated from the CLI's own command tree
_${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" words="" i w
  if [[ "$prev" == "--output" ]]; then COMPREPLY=( $(compgen -W "table csv json" -- "$cur") ); return; fi
  for ((i=1; i<COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    case "\${path:+$path }$w" in
      ${known.join('|')}) path="\${path:+$path }$w" ;;
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}
complete -o default -F _${name} ${name}
`
}

export function zshCompletion(program: Command): string {
  return `#compdef ${program.name()}
# zsh runs the bash completion through bashcompinit, so both come from the same command tree
autoload -U +X bashcompinit && bashcompinit
${bashCompletion(program)}`
}

/** fish: one `complete` line per subcommand and option, offered once its parent commands are typed. */
export function fishCompletion(program: Command): string {
  const name = program.name()
  const lines = [`# ${name} completion for fish; generated from the CLI's own command tree`, `complete -c ${name} -f`]
  for (const { path, command } of walk(program)) {
    const seen = path.map((p) => `__fish_seen_subcommand_from ${p}`)
    const children = command.commands.map((c) => c.name())
    const condition = [...(path.length ? seen : ['__fish_use_subcommand']), ...(children.length && path.length ? [`not __fish_seen_subcommand_from ${children.join(' ')}`] : [])].join('; and ')
    for (const child of command.commands) lines.push(`complete -c ${name} -n ${quote(condition)} -a ${child.name()} -d ${quote(child.description())}`)
    const leafCondition = path.length ? seen.join('; and ') : '__fish_use_subcommand'
    for (const option of command.options as Option[]) {
      if (!option.long) continue
      const argument = option.required || option.optional ? ' -r' : ''
      const values = option.long === '--output' ? ` -a 'table csv json'` : ''
      lines.push(`complete -c ${name} -n ${quote(leafCondition)} -l ${option.long.slice(2)}${option.short ? ` -s ${option.short.slice(1)}` : ''}${argument}${values} -d ${quote(option.description)}`)
    }
  }
  return lines.join('\n') + '\n'
}

export function registerCompletionCommand(program: Command) {
  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish (e.g. `source <(pixelfleet completion bash)`)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => {
      const scripts: Record<string, (p: Command) => string> = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }
      const generate = scripts[shell]
      if (!generate) throw usageError(`Unknown shell '${shell}': bash, zsh or fish`)
      process.stdout.write(generate(program))
    })
}
