import { type Random } from '../random'
import { FRAME_RATES, INPUT_SOURCES, type PROCESSORS, RESOLUTIONS } from './catalog'
import { type Condition, type DeviceIdentity, type Fault, SEVERITY, SimDevice } from './types'

export type TilesInfo = { tiles: number; columns: number; rows: number }

/** Video format text as processors show it, e.g. '3840x2160p59.94'. */
export const formatText = (resolution: string, rate: number) => `${resolution}p${rate}`

/** LED processor: one video input, a genlock reference, and a wall of tiles on its outputs. */
export class Processor extends SimDevice {
  readonly component = 'processor' as const
  readonly supportedFaults: readonly Fault[] = ['genlockLost', 'noInput', 'inputFormatMismatch']
  readonly product: string
  readonly tilesInfo: TilesInfo
  readonly inputSource: string
  readonly resolution: string
  /** the show's frame rate; genlock and input normally both run at it */
  readonly frameRate: number
  /** what the input would carry when a wrong source is patched in */
  private readonly mismatchedRate: number
  temperature: number

  constructor(identity: DeviceIdentity, model: (typeof PROCESSORS)[number], tilesInfo: TilesInfo) {
    super(identity, model.serialPrefix)
    const rng: Random = identity.rng
    this.product = model.product
    this.software = model.software
    this.firmware = model.firmware
    this.tilesInfo = tilesInfo
    this.inputSource = rng.pick(INPUT_SOURCES)
    this.resolution = rng.pick(RESOLUTIONS)
    this.frameRate = rng.pick(FRAME_RATES.slice(0, 3))
    this.mismatchedRate = this.frameRate === 50 ? 59.94 : 50
    this.temperature = rng.between(34, 42)
  }

  tick() {
    this.temperature = Math.max(25, this.temperature + this.rng.noise(0.6) + (38 - this.temperature) * 0.1)
  }

  get genlockFrequency(): number | 'none' {
    return this.faults.has('genlockLost') ? 'none' : this.frameRate
  }

  get inputFormat(): string {
    if (this.faults.has('noInput')) return 'No signal'
    return formatText(this.resolution, this.faults.has('inputFormatMismatch') ? this.mismatchedRate : this.frameRate)
  }

  properties() {
    return {
      inputSource: this.inputSource,
      inputFormat: this.inputFormat,
      genlockFrequency: this.genlockFrequency,
      tilesInfo: this.tilesInfo,
      temperature: Math.round(this.temperature * 10) / 10,
    }
  }

  conditions(): Condition[] {
    const found: Condition[] = []
    if (this.faults.has('genlockLost')) {
      found.push(this.condition('alert', 'proc.genlockLost', SEVERITY.error, `${this.name}: genlock reference ${this.frameRate} Hz lost, running free`))
    }
    if (this.faults.has('noInput')) {
      found.push(this.condition('alert', 'proc.noInput', SEVERITY.critical, `${this.name}: no signal on ${this.inputSource}`))
    } else if (this.faults.has('inputFormatMismatch') && !this.faults.has('genlockLost')) {
      found.push(
        this.condition('deviation', 'proc.inputFormat', SEVERITY.notice, `${this.name}: input ${this.inputFormat} does not match genlock ${this.frameRate} Hz`),
      )
    }
    return found
  }
}
