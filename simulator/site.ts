import { AGENT_PRODUCT, SITE_NAMES, SYSTEM_NAMES } from './devices/catalog'
import { Random } from './random'
import { type FaultDirector, type ScenarioName, createFaultDirector, SILENT_TICKS } from './scenarios'
import { type SiteProfile, SimSystem, type SystemSnapshot } from './system'

export type SiteOptions = {
  /** fleet seed; the site's own stream is forked from it by index */
  seed: number
  index: number
  scenario: ScenarioName
  profile?: SiteProfile
}

/** TCP counters an agent reads from its kernel socket (cumulative, like tcp_info). */
export type TcpMetrics = { dataSegsOut: number; dsackDups: number; totalRetrans: number }

/**
 * Everything one virtual agent watches, without any networking: its identity, its systems and
 * their devices, the scenario's fault injection, and the TCP counters it reports with each ping.
 * Pure and deterministic: the same seed, index and tick times give the same reports.
 */
export class SimulatedSite {
  readonly product = AGENT_PRODUCT.product
  readonly version = AGENT_PRODUCT.version
  readonly serial: string
  readonly name: string
  readonly systems: SimSystem[]
  readonly tcp: TcpMetrics
  private readonly faults: FaultDirector
  private readonly rng: Random
  /** share of segments this site's uplink has to resend */
  private readonly lossRate: number
  private ticks = 0
  private lastTick?: Date
  private readonly silentAt: (tick: number) => boolean

  constructor(options: SiteOptions) {
    const rng = new Random(options.seed).fork(`agent-${options.index}`)
    this.rng = rng.fork('telemetry')
    this.serial = rng.serial(AGENT_PRODUCT.serialPrefix)
    const round = Math.floor(options.index / SITE_NAMES.length)
    this.name = `${SITE_NAMES[options.index % SITE_NAMES.length]}${round ? ` ${round + 1}` : ''}`
    const systemCount = options.profile === 'minimal' ? 1 : rng.pick([1, 1, 1, 2, 2, 3])
    const names = [...SYSTEM_NAMES]
    this.systems = Array.from({ length: systemCount }, (_, i) => {
      const name = names.splice(rng.int(0, names.length - 1), 1)[0]
      return new SimSystem(`sys-${i + 1}`, name, rng.fork(`system-${i + 1}`), options.profile ?? 'standard')
    })
    this.faults = createFaultDirector(options.scenario, this.systems, rng.fork('faults'))
    this.silentAt = SILENT_TICKS[options.scenario] ?? (() => false)
    this.lossRate = this.rng.chance(0.2) ? this.rng.between(0.01, 0.04) : this.rng.between(0.0005, 0.006)
    this.tcp = { dataSegsOut: this.rng.int(2_000, 20_000), dsackDups: 0, totalRetrans: 0 }
    this.tcp.totalRetrans = Math.round(this.tcp.dataSegsOut * this.lossRate)
    this.tcp.dsackDups = Math.round(this.tcp.totalRetrans * 0.2)
  }

  /** Advances the simulation to `now`: scenario faults, device readings, issue history, TCP counters. */
  tick(now: Date) {
    const elapsedMs = this.lastTick ? Math.max(0, now.getTime() - this.lastTick.getTime()) : 0
    this.faults.apply(this.ticks)
    for (const system of this.systems) system.tick({ now, elapsedMs })
    this.advanceTcp(elapsedMs)
    this.ticks++
    this.lastTick = now
  }

  get tickCount() {
    return this.ticks
  }

  /** The scenario keeps the agent quiet now (after the last tick): no report, no ping. */
  get silent(): boolean {
    return this.ticks > 0 && this.silentAt(this.ticks - 1)
  }

  systemsSnapshot(): SystemSnapshot[] {
    return this.systems.map((s) => s.snapshot())
  }

  private advanceTcp(elapsedMs: number) {
    // Roughly 30 segments a second of MQTT and tunnel traffic, with this site's loss rate.
    const sent = Math.round((elapsedMs / 1000) * this.rng.between(20, 40))
    const resent = Math.round(sent * this.lossRate * this.rng.between(0.6, 1.4))
    this.tcp.dataSegsOut += sent
    this.tcp.totalRetrans += resent
    // Some retransmits turn out to be spurious; the receiver reports them as duplicate SACKs.
    this.tcp.dsackDups += Math.round(resent * this.rng.between(0.1, 0.3))
  }
}
