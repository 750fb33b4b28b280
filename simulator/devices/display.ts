import { INPUT_SOURCES, type DISPLAYS } from './catalog'
import { type Condition, type DeviceIdentity, type Fault, SEVERITY, SimDevice } from './types'

/** Confidence or operator monitor: shows what it receives, or warns when the feed is gone. */
export class Display extends SimDevice {
  readonly component = 'display' as const
  readonly supportedFaults: readonly Fault[] = ['noSignal']
  readonly product: string
  readonly inputSource: string
  readonly inputFormat: string

  constructor(identity: DeviceIdentity, model: (typeof DISPLAYS)[number], inputFormat: string) {
    super(identity, model.serialPrefix)
    this.product = model.product
    this.firmware = model.firmware
    this.inputSource = identity.rng.pick(INPUT_SOURCES.filter((s) => s.startsWith('HDMI') || s.startsWith('SDI')))
    this.inputFormat = inputFormat
  }

  tick() {}

  properties() {
    return { power: 'on', inputSource: this.inputSource, inputFormat: this.faults.has('noSignal') ? 'No signal' : this.inputFormat }
  }

  conditions(): Condition[] {
    if (!this.faults.has('noSignal')) return []
    return [this.condition('alert', 'display.noSignal', SEVERITY.warning, `${this.name}: no signal on ${this.inputSource}`)]
  }
}
