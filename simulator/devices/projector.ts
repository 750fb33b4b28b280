import { round } from '../random'
import { type PROJECTORS } from './catalog'
import { type Condition, type DeviceIdentity, type Fault, SEVERITY, SimDevice, drift } from './types'

export const PROJECTOR_LIMITS = { temperatureError: 65, temperatureCritical: 75, lampLifeWarning: 0.9 } as const

/** Projector: lamp hours accumulate with simulated time, the temperature climbs when a filter clogs. */
export class Projector extends SimDevice {
  readonly component = 'projector' as const
  readonly supportedFaults: readonly Fault[] = ['overheat']
  readonly product: string
  readonly lampLifeHours: number
  lampHours: number
  temperature: number

  constructor(identity: DeviceIdentity, model: (typeof PROJECTORS)[number]) {
    super(identity, model.serialPrefix)
    this.product = model.product
    this.firmware = model.firmware
    this.lampLifeHours = model.lampLifeHours
    // Some lamps are nearly spent, which shows as a warning from the start.
    this.lampHours = identity.rng.chance(0.15) ? identity.rng.between(18200, 19500) : identity.rng.between(300, 15000)
    this.temperature = identity.rng.between(36, 44)
  }

  tick({ elapsedMs }: { elapsedMs: number }) {
    this.lampHours += elapsedMs / 3_600_000
    this.temperature = this.faults.has('overheat')
      ? Math.min(85, this.temperature + this.rng.between(3, 5))
      : Math.max(20, drift(this.temperature, 40, this.rng, 0.7, 0.3))
  }

  properties() {
    return { power: 'on', lampHours: Math.floor(this.lampHours), lampLifeHours: this.lampLifeHours, temperature: round(this.temperature) }
  }

  conditions(): Condition[] {
    const found: Condition[] = []
    const t = round(this.temperature)
    if (t >= PROJECTOR_LIMITS.temperatureError) {
      const critical = t >= PROJECTOR_LIMITS.temperatureCritical
      found.push(this.condition('alert', 'proj.tempHigh', critical ? SEVERITY.critical : SEVERITY.error, `${this.name} at ${t} °C`))
    }
    if (this.lampHours >= this.lampLifeHours * PROJECTOR_LIMITS.lampLifeWarning) {
      found.push(
        this.condition('alert', 'proj.lampLife', SEVERITY.warning, `${this.name}: lamp at ${Math.floor(this.lampHours)} of ${this.lampLifeHours} hours`),
      )
    }
    return found
  }
}
