import path from 'node:path'
import { systemActor } from '../app/domain/actor'
import { enrollAgent } from '../app/domain/agents/enrollment.server'
import { DEMO_ORG_ID, DEMO_PROJECTS } from '../prisma/seed-data'
import { type Fleet, startFleet } from './fleet'

/** Fixed, so every start of the demo brings back the same agents (serials decide their state files). */
const DEMO_SEED = 'pixelfleet-demo'
const DEMO_INTERVAL = '15s'

export type DemoFleetOptions = {
  agents: number
  mqttPort: number
  provisioningKey: string
  databaseUrl: string
  log: (line: string) => void
}

/**
 * Credentials live beside the SQLite file (`./data/simulator/pixelfleet/` for the default
 * database), one folder per database so two portals on one machine never share agents.
 */
export function demoStateDir(databaseUrl: string) {
  if (!databaseUrl.startsWith('file:')) return path.resolve('data/simulator/default')
  const file = databaseUrl.slice('file:'.length)
  return path.join(path.dirname(file), 'simulator', path.parse(file).name)
}

/**
 * The demo fleet of `npm start`: a few simulated agents enrolled into the demo organization's
 * projects through the domain's enrollment (as the system), so the demo shows live agents at
 * once. Runs in the background; a restart reconnects the same agents instead of adding new ones.
 */
export function startDemoFleet(options: DemoFleetOptions): { stop: () => Promise<void> } {
  const controller = new AbortController()
  const started = startFleet({
    agents: options.agents,
    scenario: 'mixed',
    seed: DEMO_SEED,
    interval: DEMO_INTERVAL,
    url: `mqtt://127.0.0.1:${options.mqttPort}`,
    provisioningKey: options.provisioningKey,
    stateDir: demoStateDir(options.databaseUrl),
    organizationId: DEMO_ORG_ID,
    projectIds: DEMO_PROJECTS.map((p) => p.id),
    enroll: (request) => enrollAgent(systemActor('demo fleet'), request),
    progress: 'off',
    log: options.log,
    signal: controller.signal,
  }).then(
    (fleet) => {
      const failed = fleet.failures.length ? ` (${fleet.failures.length} failed: ${fleet.failures[0].error.message})` : ''
      options.log(`Demo fleet: ${fleet.agents.length} simulated agent(s) reporting to the demo organization${failed}`)
      return fleet
    },
    (error: Error) => {
      options.log(`Demo fleet did not start: ${error.message}`)
      return null
    },
  )
  return {
    stop: async () => {
      controller.abort()
      const fleet: Fleet | null = await started
      await fleet?.stop()
    },
  }
}
