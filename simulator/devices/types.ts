import { type Random } from '../random'

/** Device component codes (spec 01 section 3). */
export type Component = 'display' | 'matrix' | 'other' | 'pdu' | 'processor' | 'projector' | 'receiver' | 'switch' | 'system'

/** Severity levels (spec): lower is worse. */
export const SEVERITY = { critical: 2, error: 3, warning: 4, notice: 5, info: 6 } as const
export type Severity = (typeof SEVERITY)[keyof typeof SEVERITY]

/** Faults a scenario can inject into a device; each model reacts to the ones that apply to it. */
export type Fault = 'overheat' | 'genlockLost' | 'noInput' | 'portDown' | 'feedPortDown' | 'linkLost' | 'overCurrent' | 'noSignal' | 'outdatedFirmware' | 'inputFormatMismatch'

/** One device as it appears in updateClientState. */
export type DeviceSnapshot = {
  key: string
  component: Component
  product: string
  serial: string
  name: string
  /** key of the parent device (tiles hang below their processor) */
  parent?: string
  version: { software?: string; firmware?: string }
  properties: Record<string, unknown>
}

/**
 * Something a device shows right now. The system groups conditions with the same kind and key
 * (three hot tiles are one `recv.tempHigh` alert with count 3) and keeps their history.
 */
export type Condition = {
  kind: 'alert' | 'deviation'
  key: string
  component: Component
  severity: Severity
  /** what is wrong with this one device, e.g. 'Tile C3-R2 at 82.1 °C (limit 80 °C)' */
  detail: string
  deviceKey?: string
}

export type Tick = {
  now: Date
  /** simulated time since the previous tick */
  elapsedMs: number
}

export type DeviceIdentity = {
  key: string
  name: string
  parent?: string
  rng: Random
}

/**
 * Shared behaviour of every simulated device: identity, injected faults and the snapshot.
 * Subclasses advance their readings in `tick` and describe them in `properties` / `conditions`.
 */
export abstract class SimDevice {
  abstract readonly component: Component
  abstract readonly product: string
  readonly key: string
  readonly name: string
  readonly parent?: string
  readonly serial: string
  readonly faults = new Set<Fault>()
  protected readonly rng: Random
  software?: string
  firmware?: string

  constructor(identity: DeviceIdentity, serialPrefix: string) {
    this.key = identity.key
    this.name = identity.name
    this.parent = identity.parent
    this.rng = identity.rng
    this.serial = identity.rng.serial(serialPrefix)
  }

  /** Faults this model knows how to show; scenarios only inject these. */
  abstract readonly supportedFaults: readonly Fault[]

  abstract tick(tick: Tick): void
  abstract properties(): Record<string, unknown>

  conditions(): Condition[] {
    return []
  }

  snapshot(): DeviceSnapshot {
    const version: DeviceSnapshot['version'] = {}
    if (this.software) version.software = this.software
    if (this.firmware) version.firmware = this.firmware
    return {
      key: this.key,
      component: this.component,
      product: this.product,
      serial: this.serial,
      name: this.name,
      ...(this.parent ? { parent: this.parent } : {}),
      version,
      properties: this.properties(),
    }
  }

  protected condition(kind: Condition['kind'], key: string, severity: Severity, detail: string): Condition {
    return { kind, key, component: this.component, severity, detail, deviceKey: this.key }
  }
}

/** Mean-reverting random walk: readings wander around a baseline like real sensors. */
export function drift(value: number, baseline: number, rng: Random, spread: number, pull = 0.2) {
  return value + (baseline - value) * pull + rng.noise(spread)
}
