import path from 'node:path'
import { VirtualAgent } from './agent'
import { CredentialStore } from './credentials'
import { type FleetOptionsInput, type FleetSettings, describeIssues, fleetOptionsSchema } from './options'
import { type ProgressMode, createProgress } from './progress'
import { seedFrom } from './random'
import { SimulatedSite } from './site'

/** Enrolls one agent by its enrollment code: the domain's enrollment in-process, or the portal API. */
export type Enroller = (request: { applicationCode: string; organizationId: string; projectId: string }) => Promise<unknown>

export type StartFleetOptions = FleetOptionsInput & {
  /** required with organizationId: how an agent's enrollment code is redeemed */
  enroll?: Enroller
  progress?: ProgressMode
  log?: (line: string) => void
  /** aborts connecting; agents already online keep running until `stop()` */
  signal?: AbortSignal
}

export type FleetApplication = { agentId: string; name: string; serial: string; applicationCode: string }

export type Fleet = {
  settings: FleetSettings
  agents: VirtualAgent[]
  failures: { index: number; error: Error }[]
  /** enrollment codes of the agents left unenrolled (no auto-enroll) */
  applications: FleetApplication[]
  stop: () => Promise<void>
}

/** Options that do not validate; the message names each bad option. */
export class FleetOptionsError extends Error {
  name = 'FleetOptionsError'
}

/** Every agent failed to start (broker unreachable, provisioning key refused, ...). */
export class FleetStartError extends Error {
  name = 'FleetStartError'
}

/** How long a freshly enrolled agent waits for its pushed configuration before asking for it. */
const ENROLLED_CONFIG_WAIT_MS = 5000
/** Background problems (a report that timed out) are logged at most this often. */
const PROBLEM_LOG_INTERVAL_MS = 10_000

/**
 * Starts N virtual agents against a broker: each registers (or reuses its saved credentials),
 * connects with its own identity, optionally enrolls into the given organization and projects,
 * then pings and reports on its interval. Resolves when every agent has connected or failed.
 */
export async function startFleet(options: StartFleetOptions): Promise<Fleet> {
  const { enroll, progress: progressMode = 'auto', log = (line: string) => console.log(line), signal, ...raw } = options
  const parsed = fleetOptionsSchema.safeParse(raw)
  if (!parsed.success) throw new FleetOptionsError(describeIssues(parsed.error))
  const settings = parsed.data
  if (settings.organizationId && !enroll) throw new FleetOptionsError('auto-enroll needs a way to enroll (a portal address and API token)')

  const credentials = new CredentialStore(settings.stateDir ? path.resolve(settings.stateDir) : undefined)
  const seed = seedFrom(settings.seed)
  const agents: VirtualAgent[] = []
  const failures: Fleet['failures'] = []
  const applications: FleetApplication[] = []
  const logProblem = throttledLogger(log)
  const progress = createProgress(settings.agents, progressMode, log)

  const startAgent = async (index: number) => {
    const site = new SimulatedSite({ seed, index, scenario: settings.scenario, profile: settings.profile })
    const agent = new VirtualAgent({
      url: settings.url,
      site,
      provisioningKey: settings.provisioningKey,
      credentials,
      reportIntervalMs: settings.interval,
    })
    agent.on('problem', (error) => logProblem(`${site.name} (${site.serial}): ${error.message}`))
    try {
      await agent.connect()
      agents.push(agent)
      if (settings.organizationId && enroll && !agent.enrolled) {
        const projectId = settings.projectIds[(index - settings.firstIndex) % settings.projectIds.length]
        await enrollAgent(agent, enroll, settings.organizationId, projectId)
      } else if (!agent.enrolled) {
        applications.push({ agentId: agent.agentId!, name: site.name, serial: site.serial, applicationCode: await agent.createApplication() })
      }
      if (!signal?.aborted) agent.run()
    } catch (error) {
      failures.push({ index, error: error instanceof Error ? error : new Error(String(error)) })
    }
    progress.update({ total: settings.agents, online: agents.length, failed: failures.length })
  }

  let next = settings.firstIndex
  const end = settings.firstIndex + settings.agents
  const worker = async () => {
    while (next < end && !signal?.aborted) await startAgent(next++)
  }
  await Promise.all(Array.from({ length: Math.min(settings.concurrency, settings.agents) }, worker))
  progress.stop()

  const stop = async () => {
    await Promise.allSettled(agents.map((a) => a.stop()))
  }
  if (agents.length === 0 && failures.length) {
    throw new FleetStartError(`No agent could start: ${failures[0].error.message}`, { cause: failures[0].error })
  }
  if (signal?.aborted) await stop()
  return { settings, agents, failures, applications, stop }
}

async function enrollAgent(agent: VirtualAgent, enroll: Enroller, organizationId: string, projectId: string) {
  const applicationCode = await agent.createApplication()
  await enroll({ applicationCode, organizationId, projectId })
  // The portal pushes the new configuration on the retained config topic; the agent asks if it is late.
  if (!(await agent.waitUntilEnrolled(ENROLLED_CONFIG_WAIT_MS))) throw new Error(`Enrollment into ${organizationId}/${projectId} did not take effect`)
}

function throttledLogger(log: (line: string) => void) {
  let lastAt = 0
  let suppressed = 0
  return (line: string) => {
    const now = Date.now()
    if (now - lastAt < PROBLEM_LOG_INTERVAL_MS) {
      suppressed++
      return
    }
    log(suppressed ? `${line} (and ${suppressed} more problem(s) since the last message)` : line)
    lastAt = now
    suppressed = 0
  }
}
