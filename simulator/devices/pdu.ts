import { round } from '../random'
import { type PDUS } from './catalog'
import { type Condition, type DeviceIdentity, type Fault, SEVERITY, SimDevice, drift } from './types'

/** Share of the PDU rating at which `pdu.overCurrent` becomes an error, then critical. */
export const PDU_LOAD_LIMITS = { error: 0.85, critical: 1 } as const

type Outlet = { outlet: number; name: string; baseline: number; current: number }

/** Metered power distribution unit: per-outlet current and the total against its rating. */
export class Pdu extends SimDevice {
  readonly component = 'pdu' as const
  readonly supportedFaults: readonly Fault[] = ['overCurrent']
  readonly product: string
  readonly ratingA: number
  readonly outlets: Outlet[]

  constructor(identity: DeviceIdentity, model: (typeof PDUS)[number], loads: string[]) {
    super(identity, model.serialPrefix)
    this.product = model.product
    this.firmware = model.firmware
    this.ratingA = model.ratingA
    // Healthy load sits around half the rating, spread over the patched outlets.
    const perOutlet = (model.ratingA * 0.5) / Math.max(1, loads.length)
    this.outlets = Array.from({ length: model.outlets }, (_, i) => {
      const name = loads[i] ?? `Outlet ${i + 1}`
      const baseline = loads[i] ? perOutlet * identity.rng.between(0.7, 1.3) : 0
      return { outlet: i + 1, name, baseline, current: baseline }
    })
  }

  tick() {
    const overloaded = this.faults.has('overCurrent')
    for (const [i, outlet] of this.outlets.entries()) {
      if (outlet.baseline === 0) continue
      // The first loaded outlet takes the surge (a tile column at full white, a heater left on).
      const target = overloaded && i === 0 ? outlet.baseline + this.ratingA * 0.6 : outlet.baseline
      outlet.current = Math.max(0, drift(outlet.current, target, this.rng, outlet.baseline * 0.05, overloaded ? 0.6 : 0.3))
    }
  }

  get totalCurrent() {
    return this.outlets.reduce((sum, o) => sum + o.current, 0)
  }

  properties() {
    return {
      ratingA: this.ratingA,
      totalCurrentA: round(this.totalCurrent, 2),
      outlets: this.outlets.map((o) => ({ outlet: o.outlet, name: o.name, currentA: round(o.current, 2) })),
    }
  }

  conditions(): Condition[] {
    const load = this.totalCurrent / this.ratingA
    if (load < PDU_LOAD_LIMITS.error) return []
    const severity = load >= PDU_LOAD_LIMITS.critical ? SEVERITY.critical : SEVERITY.error
    const detail = `${this.name}: ${round(this.totalCurrent)} A of ${this.ratingA} A (${Math.round(load * 100)} %)`
    return [this.condition('alert', 'pdu.overCurrent', severity, detail)]
  }
}
