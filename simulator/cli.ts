/**
 * `npm run simulate -- [options]` (and `pixelfleet simulate [options]`): runs a fleet of virtual
 * agents against a portal's MQTT broker until Ctrl+C or --duration. README 'Simulator' lists the options.
 */
import { pathToFileURL } from 'node:url'
import { Command, CommanderError, Option } from 'commander'
import { ApiClient } from '../cli/client'
import { DEFAULT_URL, normalizeUrl, readConfig, type StoredConfig } from '../cli/config'
import { ExitCode } from '../cli/errors'
import { type Enroller, type Fleet, FleetOptionsError, FleetStartError, type StartFleetOptions, startFleet } from './fleet'
import { isBadCredentials } from './mqtt-rpc'
import { parseDuration } from './options'
import { SCENARIO_DESCRIPTIONS, SCENARIO_NAMES } from './scenarios'

type CliOptions = {
  agents?: string
  interval?: string
  scenario?: string
  seed?: string
  firstIndex?: string
  url?: string
  provisioningKey?: string
  stateDir?: string
  state: boolean
  profile?: string
  concurrency?: string
  org?: string
  project: string[]
  portal?: string
  token?: string
  duration?: string
  progress: boolean
  json: boolean
}

const collect = (value: string, previous: string[]) => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)]

function createProgram() {
  const scenarios = SCENARIO_NAMES.map((name) => `  ${name.padEnd(15)} ${SCENARIO_DESCRIPTIONS[name]}`).join('\n')
  return new Command('simulate')
    .description('Run simulated agents (LED processors, tiles, switches, PDUs, displays, projectors) against a Pixelfleet broker.')
    .option('-n, --agents <count>', 'number of agents', '10')
    .option('-i, --interval <duration>', 'state report interval per agent (e.g. 5s, 500ms, 1m)', '10s')
    .option('-s, --scenario <name>', `fault scenario: ${SCENARIO_NAMES.join(', ')}`, 'mixed')
    .option('--seed <seed>', 'seed for repeatable agents and faults (number or text)', '1')
    .option('--first-index <n>', 'index of the first agent (run several fleets with one seed)', '0')
    .option('-u, --url <url>', 'broker address: mqtt://host:port or ws://host:port/mqtt (default: $PIXELFLEET_MQTT_URL or mqtt://localhost:1883)')
    .option('--provisioning-key <key>', 'provisioning key of the portal (default: $PROVISIONING_KEY or the demo key)')
    .option('--state-dir <dir>', 'where agent ids and secrets are kept so a restart reuses them', './data/simulator')
    .option('--no-state', 'keep no credentials: every run registers new agents')
    .addOption(new Option('--profile <profile>', "'minimal' = one small wall per agent, for large fleets").choices(['standard', 'minimal']).default('standard'))
    .option('--concurrency <n>', 'agents connecting at the same time', '20')
    .option('--org <organizationId>', 'auto-enroll into this organization')
    .option('--project <projectId>', 'auto-enroll into this project (repeat or comma-separate to spread agents)', collect, [])
    .option('--portal <url>', 'portal address for auto-enroll (default: $PIXELFLEET_URL, the CLI login, or derived from --url)')
    .option('--token <token>', 'API token for auto-enroll (default: $PIXELFLEET_TOKEN or the `pixelfleet login` token)')
    .option('--duration <duration>', 'stop after this long (default: until Ctrl+C)')
    .option('--no-progress', 'no progress bar or progress lines')
    .option('--json', 'print the started agents (and enrollment codes) as JSON')
    .addHelpText('after', `\nScenarios:\n${scenarios}\n\nExample:\n  npm run simulate -- --agents 20 --scenario tempHigh --seed 7 --interval 5s --url mqtt://localhost:1883 --org <id> --project <id>`)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })
}

/** Portal address for auto-enroll: explicit, environment, last CLI login, or the web port behind a ws:// broker URL. */
function portalUrl(options: CliOptions, brokerUrl: string, stored: StoredConfig | null): string {
  if (options.portal ?? process.env.PIXELFLEET_URL) return normalizeUrl((options.portal ?? process.env.PIXELFLEET_URL)!)
  if (stored) return normalizeUrl(stored.url)
  const broker = new URL(brokerUrl)
  if (broker.protocol === 'ws:' || broker.protocol === 'wss:') return `${broker.protocol === 'wss:' ? 'https' : 'http'}://${broker.host}`
  return DEFAULT_URL
}

/** Auto-enroll through the portal's JSON API, as the person whose API token this is. */
function apiEnroller(options: CliOptions, brokerUrl: string): Enroller {
  const stored = readConfig()
  const url = portalUrl(options, brokerUrl, stored)
  const token = options.token ?? (process.env.PIXELFLEET_TOKEN || (stored && normalizeUrl(stored.url) === url ? stored.token : null))
  if (!token) throw new FleetOptionsError(`auto-enroll needs an API token for ${url}: run \`pixelfleet login\`, or pass --token / set PIXELFLEET_TOKEN`)
  const client = new ApiClient(url, token)
  return ({ applicationCode, organizationId, projectId }) => client.call('agent/enroll', { id: organizationId, applicationCode, projectId })
}

function fleetOptions(options: CliOptions): StartFleetOptions {
  const url = options.url ?? process.env.PIXELFLEET_MQTT_URL ?? 'mqtt://localhost:1883'
  const seed = /^\d+$/.test(options.seed ?? '') ? Number(options.seed) : options.seed
  return {
    agents: options.agents,
    interval: options.interval,
    scenario: options.scenario as StartFleetOptions['scenario'],
    seed,
    firstIndex: options.firstIndex,
    url,
    provisioningKey: options.provisioningKey ?? process.env.PROVISIONING_KEY,
    stateDir: options.state ? options.stateDir : null,
    profile: options.profile as StartFleetOptions['profile'],
    concurrency: options.concurrency,
    organizationId: options.org,
    projectIds: options.project,
    enroll: options.org ? apiEnroller(options, url) : undefined,
    progress: options.progress && !options.json ? 'auto' : 'off',
    log: (line) => console.error(line),
  } as StartFleetOptions
}

function describeStart(fleet: Fleet, json: boolean) {
  const agents = fleet.agents.map((a) => ({
    agentId: a.agentId,
    name: a.site.name,
    serial: a.site.serial,
    enrolled: a.enrolled,
    applicationCode: fleet.applications.find((x) => x.agentId === a.agentId)?.applicationCode ?? null,
  }))
  const failures = fleet.failures.map((f) => ({ index: f.index, error: f.error.message }))
  if (json) return void console.log(JSON.stringify({ scenario: fleet.settings.scenario, intervalMs: fleet.settings.interval, agents, failures }))
  const { settings } = fleet
  console.log(
    `${fleet.agents.length} agent(s) online${failures.length ? `, ${failures.length} failed` : ''}: scenario ${settings.scenario}, ` +
      `reporting every ${settings.interval / 1000} s to ${settings.url}. Ctrl+C stops them.`,
  )
  for (const failure of failures.slice(0, 5)) console.error(`  agent #${failure.index} failed: ${failure.error}`)
  const codes = fleet.applications.slice(0, 20)
  if (codes.length) {
    console.log('Enrollment codes (enroll at /enroll/<code> or with `pixelfleet enroll <code>`):')
    for (const a of codes) console.log(`  ${a.applicationCode}  ${a.name} (${a.serial})`)
    if (fleet.applications.length > codes.length) console.log(`  ... and ${fleet.applications.length - codes.length} more (use --json for all)`)
  }
}

/** Resolves on Ctrl+C / SIGTERM or after the duration, whichever comes first. */
function untilStopped(durationMs: number | null): Promise<string> {
  return new Promise((resolve) => {
    const finish = (reason: string) => {
      process.off('SIGINT', onInt)
      process.off('SIGTERM', onTerm)
      clearTimeout(timer)
      resolve(reason)
    }
    const onInt = () => finish('SIGINT')
    const onTerm = () => finish('SIGTERM')
    const timer = durationMs === null ? undefined : setTimeout(() => finish('duration'), durationMs)
    process.on('SIGINT', onInt)
    process.on('SIGTERM', onTerm)
  })
}

/** Runs the simulator command line (`npm run simulate`, and `pixelfleet simulate` loads it on demand); returns the exit code (0 ok, 2 bad options, 3 key refused, 6 broker unreachable, 1 other). */
export async function runSimulatorCli(argv: string[]): Promise<number> {
  const program = createProgram()
  let options: CliOptions
  try {
    options = program.parse(argv, { from: 'user' }).opts<CliOptions>()
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage
    throw error
  }
  const durationMs = options.duration === undefined ? null : parseDuration(options.duration)
  if (durationMs === null && options.duration !== undefined) {
    console.error('duration: must be a duration such as 30s, 10m or 2h')
    return ExitCode.usage
  }
  const controller = new AbortController()
  const abortOnSignal = () => controller.abort()
  process.once('SIGINT', abortOnSignal)
  let fleet: Fleet
  try {
    fleet = await startFleet({ ...fleetOptions(options), signal: controller.signal })
  } catch (error) {
    if (error instanceof FleetOptionsError) {
      console.error(error.message)
      return ExitCode.usage
    }
    if (error instanceof FleetStartError) {
      console.error(error.message)
      return isBadCredentials(error.cause) ? ExitCode.auth : ExitCode.network
    }
    console.error(error instanceof Error ? error.message : String(error))
    return ExitCode.unexpected
  } finally {
    process.off('SIGINT', abortOnSignal)
  }
  if (controller.signal.aborted) return ExitCode.ok
  describeStart(fleet, options.json)
  const reason = await untilStopped(durationMs)
  if (!options.json) console.error(`${reason === 'duration' ? 'Duration reached' : reason}: stopping ${fleet.agents.length} agent(s)...`)
  await fleet.stop()
  return ExitCode.ok
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await runSimulatorCli(process.argv.slice(2))
}
