import { round } from '../random'
import { type RECEIVERS } from './catalog'
import { type Condition, type DeviceIdentity, type Fault, SEVERITY, SimDevice, drift } from './types'

/** Tile temperatures at which `recv.tempHigh` is raised as an error, then as critical. */
export const TILE_TEMPERATURE_LIMITS = { error: 70, critical: 80 } as const

/** Receiver card behind one LED tile; its temperature drifts and climbs when it overheats. */
export class Receiver extends SimDevice {
  readonly component = 'receiver' as const
  readonly supportedFaults: readonly Fault[] = ['overheat', 'outdatedFirmware', 'linkLost']
  readonly product: string
  private readonly model: (typeof RECEIVERS)[number]
  private readonly baseline: number
  temperature: number

  constructor(identity: DeviceIdentity, model: (typeof RECEIVERS)[number]) {
    super(identity, model.serialPrefix)
    this.model = model
    this.product = model.product
    this.firmware = model.firmware
    this.baseline = identity.rng.between(39, 50)
    this.temperature = this.baseline + identity.rng.noise(2)
  }

  tick() {
    // A tile that missed the last update keeps reporting the previous firmware.
    this.firmware = this.faults.has('outdatedFirmware') ? this.model.previousFirmware : this.model.firmware
    if (this.faults.has('overheat')) this.temperature = Math.min(92, this.temperature + this.rng.between(3.5, 6.5))
    else this.temperature = Math.max(20, drift(this.temperature, this.baseline, this.rng, 0.5, 0.3))
  }

  /** Whole degrees, as receiver cards report them; it also keeps unchanged tiles out of the portal's writes. */
  properties() {
    return { temperature: Math.round(this.temperature) }
  }

  conditions(): Condition[] {
    // Behind a dead link the tile cannot be read at all: not responding, nothing else.
    if (this.faults.has('linkLost')) return [this.condition('alert', 'recv.offline', SEVERITY.critical, `${this.name} not responding`)]
    const t = round(this.temperature)
    if (t >= TILE_TEMPERATURE_LIMITS.critical) {
      return [this.condition('alert', 'recv.tempHigh', SEVERITY.critical, `${this.name} at ${t} °C (limit ${TILE_TEMPERATURE_LIMITS.critical} °C)`)]
    }
    if (t >= TILE_TEMPERATURE_LIMITS.error) {
      return [this.condition('alert', 'recv.tempHigh', SEVERITY.error, `${this.name} at ${t} °C (limit ${TILE_TEMPERATURE_LIMITS.error} °C)`)]
    }
    return []
  }
}
