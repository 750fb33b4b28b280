import { type Fault, type SimDevice } from './devices/types'
import { type Random } from './random'
import { type SimSystem } from './system'

/**
 * Scenarios decide which faults are injected into which devices at each tick. The device models
 * then show the consequences (a tile heats up, genlock reads 'none') and the issue tracker turns
 * them into alerts and deviations that raise and clear over time.
 */
export const SCENARIO_NAMES = ['healthy', 'mixed', 'tempHigh', 'genlockLost', 'switchPortDown', 'switchFailure', 'pduOverCurrent', 'deviations', 'agentOffline'] as const
export type ScenarioName = (typeof SCENARIO_NAMES)[number]

export const SCENARIO_DESCRIPTIONS: Record<ScenarioName, string> = {
  healthy: 'everything nominal: no alerts, no deviations',
  mixed: 'realistic background: a few random faults that come and go, some firmware and input-format deviations',
  tempHigh: 'tiles overheat and cool down in cycles: recv.tempHigh as error (70 °C) then critical (80 °C), then cleared',
  genlockLost: 'the processor loses its genlock reference in cycles: proc.genlockLost',
  switchPortDown: 'a patched switch port drops its link in cycles: switch.portDown',
  switchFailure: "the switch port feeding the processor goes down in cycles and takes the tiles with it: switch.portDown explains recv.offline (root cause), then recovers",
  pduOverCurrent: 'one PDU outlet surges in cycles: pdu.overCurrent as error (85 % of rating) then critical',
  deviations: 'no alerts; tiles on an older firmware (recv.firmwareMismatch) and an input format off the genlock rate (proc.inputFormat)',
  agentOffline: "agents go silent (no reports, no pings) for 10 ticks of every 30, then report again: the portal's 'Agent offline' alarm raises and clears",
}

/** Ticks during which a scenario's agent sends nothing at all (it looks offline to the portal). */
export const SILENT_TICKS: Partial<Record<ScenarioName, (tick: number) => boolean>> = {
  agentOffline: (tick) => tick >= 6 && (tick - 6) % 30 < 10,
}

/** Faults applied during some ticks to some devices; `until` (exclusive) lets finished ones be dropped. */
type Episode = { fault: Fault; devices: SimDevice[]; activeAt: (tick: number) => boolean; until?: number }

/** Applies a scenario's faults to a site's systems; call `apply(tick)` before every tick. */
export class FaultDirector {
  private readonly episodes: Episode[] = []

  constructor(
    private readonly systems: SimSystem[],
    private readonly rng: Random,
    private readonly plan: (director: FaultDirector, tick: number) => void,
  ) {}

  add(episode: Episode) {
    this.episodes.push(episode)
  }

  apply(tick: number) {
    this.plan(this, tick)
    // Recompute from scratch so overlapping episodes on one device cannot clear each other early.
    for (const system of this.systems) for (const device of system.devices) device.faults.clear()
    for (const episode of this.episodes) {
      if (episode.activeAt(tick)) for (const device of episode.devices) device.faults.add(episode.fault)
    }
    const ongoing = this.episodes.filter((e) => e.until === undefined || e.until > tick + 1)
    this.episodes.splice(0, this.episodes.length, ...ongoing)
  }

  get random() {
    return this.rng
  }

  get sites() {
    return this.systems
  }
}

const always = () => true
/** Active for `duration` ticks out of every `period`, starting at `offset`. */
const cycle = (offset: number, duration: number, period: number) => (tick: number) => tick >= offset && (tick - offset) % period < duration

/** A few neighbouring tiles (one cabinet row) that share the same airflow problem. */
function tileCluster(system: SimSystem, rng: Random): SimDevice[] {
  const size = Math.min(system.receivers.length, rng.int(1, 3))
  const start = rng.int(0, system.receivers.length - size)
  return system.receivers.slice(start, start + size)
}

function deviceWith(system: SimSystem, fault: Fault): SimDevice | undefined {
  return system.devices.find((d) => d.supportedFaults.includes(fault))
}

/** Every system gets the same fault in cycles, each with its own phase so a fleet does not pulse in unison. */
function cyclic(fault: Fault, targets: (system: SimSystem, rng: Random) => SimDevice[], duration: number, period: number) {
  return (director: FaultDirector, tick: number) => {
    if (tick !== 0) return
    for (const system of director.sites) {
      const devices = targets(system, director.random)
      if (devices.length) director.add({ fault, devices, activeAt: cycle(1 + director.random.int(0, 4), duration, period) })
    }
  }
}

const single = (fault: Fault) => (system: SimSystem) => {
  const device = deviceWith(system, fault)
  return device ? [device] : []
}

function persistentDeviations(director: FaultDirector, system: SimSystem, probability: { firmware: number; format: number }) {
  const rng = director.random
  if (rng.chance(probability.firmware)) {
    const count = Math.max(1, Math.min(system.receivers.length - 1, rng.int(1, 3)))
    const devices = Array.from({ length: count }, () => rng.pick(system.receivers))
    director.add({ fault: 'outdatedFirmware', devices, activeAt: always })
  }
  if (rng.chance(probability.format)) director.add({ fault: 'inputFormatMismatch', devices: [system.processor], activeAt: always })
}

/** Faults the mixed scenario draws from, with how many devices each takes. */
const RANDOM_FAULTS: { fault: Fault; targets: (system: SimSystem, rng: Random) => SimDevice[] }[] = [
  { fault: 'overheat', targets: tileCluster },
  { fault: 'overheat', targets: tileCluster },
  { fault: 'genlockLost', targets: single('genlockLost') },
  { fault: 'noInput', targets: single('noInput') },
  { fault: 'portDown', targets: single('portDown') },
  { fault: 'overCurrent', targets: single('overCurrent') },
  { fault: 'noSignal', targets: single('noSignal') },
  { fault: 'overheat', targets: (system) => system.devices.filter((d) => d.component === 'projector') },
]

const PLANS: Record<ScenarioName, (director: FaultDirector, tick: number) => void> = {
  healthy: () => {},
  mixed: (director, tick) => {
    const rng = director.random
    for (const system of director.sites) {
      if (tick === 0) persistentDeviations(director, system, { firmware: 0.35, format: 0.15 })
      // A few systems start with something wrong so a fresh demo has issues to show at once.
      if (!rng.chance(tick === 0 ? 0.25 : 0.03)) continue
      const { fault, targets } = rng.pick(RANDOM_FAULTS)
      const devices = targets(system, rng)
      const until = tick + rng.int(3, 15)
      if (devices.length) director.add({ fault, devices, activeAt: (t) => t >= tick && t < until, until })
    }
  },
  tempHigh: cyclic('overheat', tileCluster, 10, 24),
  genlockLost: cyclic('genlockLost', single('genlockLost'), 6, 18),
  switchPortDown: cyclic('portDown', single('portDown'), 6, 20),
  switchFailure: (director, tick) => {
    if (tick !== 0) return
    for (const system of director.sites) {
      const networkSwitch = system.devices.find((d) => d.component === 'switch')
      if (!networkSwitch) continue
      // One phase for the switch and its tiles: they fail and recover together.
      const activeAt = cycle(1 + director.random.int(0, 4), 6, 20)
      director.add({ fault: 'feedPortDown', devices: [networkSwitch], activeAt })
      director.add({ fault: 'linkLost', devices: system.receivers, activeAt })
    }
  },
  pduOverCurrent: cyclic('overCurrent', single('overCurrent'), 6, 20),
  deviations: (director, tick) => {
    if (tick === 0) for (const system of director.sites) persistentDeviations(director, system, { firmware: 1, format: 1 })
  },
  agentOffline: () => {},
}

export function createFaultDirector(scenario: ScenarioName, systems: SimSystem[], rng: Random) {
  return new FaultDirector(systems, rng, PLANS[scenario])
}
