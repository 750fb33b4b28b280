import { DISPLAYS, MATRICES, PDUS, PROCESSORS, PROJECTORS, RECEIVERS, SWITCHES } from './devices/catalog'
import { Display } from './devices/display'
import { Matrix } from './devices/matrix'
import { NetworkSwitch } from './devices/network-switch'
import { Pdu } from './devices/pdu'
import { Processor } from './devices/processor'
import { Projector } from './devices/projector'
import { Receiver } from './devices/receiver'
import { type Condition, type DeviceSnapshot, SEVERITY, type SimDevice, type Tick } from './devices/types'
import { IssueTracker, type IssueRecord } from './issues'
import { type Random } from './random'

/** 'standard' builds full walls with peripherals; 'minimal' one small wall (benchmarks, big fleets). */
export type SiteProfile = 'standard' | 'minimal'

export type SystemSnapshot = {
  key: string
  name: string
  devices: DeviceSnapshot[]
  alerts: IssueRecord[]
  deviations: IssueRecord[]
}

/** One installation an agent watches: a processor, its tiles and the peripherals around it. */
export class SimSystem {
  readonly processor: Processor
  readonly receivers: Receiver[]
  readonly devices: SimDevice[]
  private readonly issues = new IssueTracker()

  constructor(
    readonly key: string,
    readonly name: string,
    rng: Random,
    profile: SiteProfile,
  ) {
    const family = rng.int(0, PROCESSORS.length - 1)
    const processorModel = PROCESSORS[family]
    const receiverModel = processorModel.product.startsWith('Vantor') ? RECEIVERS[1] : RECEIVERS[0]
    const columns = profile === 'minimal' ? 2 : rng.int(4, 12)
    const rows = profile === 'minimal' ? 2 : rng.int(2, Math.min(6, Math.floor(processorModel.maxTiles / columns)))
    const tilesInfo = { tiles: columns * rows, columns, rows }
    const device = (key: string, name: string, parent?: string) => ({ key, name, parent, rng: rng.fork(key) })

    this.processor = new Processor(device('processor', `${name} processor`), processorModel, tilesInfo)
    this.receivers = []
    for (let row = 1; row <= rows; row++) {
      for (let column = 1; column <= columns; column++) {
        const key = `tile-c${column}-r${row}`
        this.receivers.push(new Receiver(device(key, `Tile C${column}-R${row}`, 'processor'), receiverModel))
      }
    }
    this.devices = [this.processor, ...this.receivers]
    if (profile === 'minimal') return

    const peripherals: SimDevice[] = []
    const displays = rng.int(0, 2)
    for (let i = 1; i <= displays; i++) {
      peripherals.push(new Display(device(`display-${i}`, `Confidence monitor ${i}`), rng.pick(DISPLAYS), this.processor.inputFormat))
    }
    if (rng.chance(0.35)) peripherals.push(new Projector(device('projector-1', 'Projector 1'), rng.pick(PROJECTORS)))
    if (rng.chance(0.3)) peripherals.push(new Matrix(device('matrix-1', 'Video router'), MATRICES[0]))
    const patched = [this.processor, ...peripherals]
    const linkLabels = ['Uplink', 'Edge agent', ...patched.map((d) => d.name), 'PDU']
    const linkDevices = [undefined, undefined, ...patched.map((d) => d.key)]
    const networkSwitch = new NetworkSwitch(device('switch-1', `${name} switch`), rng.pick(SWITCHES), linkLabels, linkDevices)
    const pduLoads = [this.processor.name, networkSwitch.name, ...Array.from({ length: Math.min(columns, 6) }, (_, i) => `Tile column ${i + 1}`)]
    const pdu = new Pdu(device('pdu-1', `${name} PDU`), rng.pick(PDUS), pduLoads)
    this.devices.push(networkSwitch, pdu, ...peripherals)
  }

  device(key: string): SimDevice | undefined {
    return this.devices.find((d) => d.key === key)
  }

  tick(tick: Tick) {
    for (const device of this.devices) device.tick(tick)
    this.issues.update(tick.now, [...this.devices.flatMap((d) => d.conditions()), ...this.firmwareDeviations()])
  }

  /** Tiles that run another firmware than most of the wall (a tile swapped in from stock, a failed update). */
  private firmwareDeviations(): Condition[] {
    const byVersion = new Map<string, number>()
    for (const r of this.receivers) byVersion.set(r.firmware ?? '', (byVersion.get(r.firmware ?? '') ?? 0) + 1)
    if (byVersion.size < 2) return []
    const [expected] = [...byVersion.entries()].reduce((a, b) => (b[1] > a[1] ? b : a))
    return this.receivers
      .filter((r) => r.firmware !== expected)
      .map((r) => ({
        kind: 'deviation' as const,
        key: 'recv.firmwareMismatch',
        component: 'receiver' as const,
        severity: SEVERITY.warning,
        detail: `${r.name} runs firmware ${r.firmware}, the wall runs ${expected}`,
        deviceKey: r.key,
      }))
  }

  snapshot(): SystemSnapshot {
    const issues = this.issues.all()
    return {
      key: this.key,
      name: this.name,
      devices: this.devices.map((d) => d.snapshot()),
      alerts: issues.filter((i) => i.kind === 'alert'),
      deviations: issues.filter((i) => i.kind === 'deviation'),
    }
  }

  activeIssues(): IssueRecord[] {
    return this.issues.active()
  }
}
