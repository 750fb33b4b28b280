import { type SWITCHES } from './catalog'
import { type Condition, type DeviceIdentity, type Fault, SEVERITY, SimDevice } from './types'

type Port = { port: number; label: string; device?: string }

/** Managed network switch; the ports that carry the show are labelled and watched. */
export class NetworkSwitch extends SimDevice {
  readonly component = 'switch' as const
  readonly supportedFaults: readonly Fault[] = ['portDown', 'feedPortDown']
  readonly product: string
  readonly portCount: number
  /** ports with something patched in; a fault takes one of them down */
  readonly linked: Port[]
  private downPort?: Port
  private trafficMbps = 0

  constructor(identity: DeviceIdentity, model: (typeof SWITCHES)[number], linkLabels: string[], linkDevices: (string | undefined)[] = []) {
    super(identity, model.serialPrefix)
    this.product = model.product
    this.software = model.software
    this.firmware = model.firmware
    this.portCount = model.ports
    this.linked = linkLabels.slice(0, model.ports).map((label, i) => ({ port: i + 1, label, ...(linkDevices[i] ? { device: linkDevices[i] } : {}) }))
  }

  tick() {
    // feedPortDown: the port the processor (and so the tile loop) hangs on drops its link.
    if (this.faults.has('feedPortDown')) this.downPort ??= this.linked.find((p) => p.device === 'processor') ?? this.rng.pick(this.linked)
    else if (this.faults.has('portDown')) this.downPort ??= this.rng.pick(this.linked)
    else this.downPort = undefined
    this.trafficMbps = Math.max(0, 420 + this.rng.noise(120))
  }

  properties() {
    const up = this.linked.length - (this.downPort ? 1 : 0)
    return {
      ports: this.portCount,
      portsLinked: this.linked.length,
      portsUp: up,
      portsDown: this.downPort ? [this.downPort.port] : [],
      trafficMbps: Math.round(this.trafficMbps),
      // which device is patched into which port: the portal derives root causes from it
      links: this.linked.filter((p) => p.device).map((p) => ({ port: p.port, label: p.label, device: p.device })),
    }
  }

  conditions(): Condition[] {
    if (!this.downPort) return []
    const { port, label } = this.downPort
    return [this.condition('alert', 'switch.portDown', SEVERITY.error, `${this.name}: port ${port} (${label}) link down`)]
  }
}
