import { type MATRICES } from './catalog'
import { type DeviceIdentity, type Fault, SimDevice } from './types'

/** Video routing matrix: reports its size and how many crosspoints are in use. */
export class Matrix extends SimDevice {
  readonly component = 'matrix' as const
  readonly supportedFaults: readonly Fault[] = []
  readonly product: string
  readonly size: number
  routes: number

  constructor(identity: DeviceIdentity, model: (typeof MATRICES)[number]) {
    super(identity, model.serialPrefix)
    this.product = model.product
    this.firmware = model.firmware
    this.size = model.size
    this.routes = identity.rng.int(6, model.size)
  }

  tick() {
    // Operators re-route now and then.
    if (this.rng.chance(0.1)) this.routes = Math.min(this.size, Math.max(1, this.routes + this.rng.int(-2, 2)))
  }

  properties() {
    return { inputs: this.size, outputs: this.size, routes: this.routes }
  }
}
