// The state report the ingest benchmarks send (bench/ingest.ts, bench/scaleout.ts --report state).
import { type UpdateClientStateRequest } from '../protocol'

/** One processor, 8 receiver rows, a switch, a PDU; an alert whose history gains an entry each minute. ~2.4 KB, ISO timestamps like the simulator's. */
export function stateOf(agent: number, minute: number, alertCount: number): UpdateClientStateRequest {
  return {
    systems: [
      {
        id: 'main',
        name: `Stage ${agent}`,
        devices: [
          { id: 'proc', component: 'processor', product: 'MX40', serial: `P${agent}`, name: 'Processor', versionSoftware: '3.2.1', properties: { genlockFrequency: 50, inputSource: 'HDMI 1', inputFormat: '1080p50' } },
          ...Array.from({ length: 8 }, (_, t) => ({ id: `rx-${t}`, component: 'receiver' as const, product: 'Tile', serial: `T${agent}-${t}`, name: `Tile row ${t}`, parent: 'proc', count: 3 })),
          { id: 'sw', component: 'switch', product: 'SW24', name: 'Switch' },
          { id: 'pdu', component: 'pdu', product: 'PDU8', name: 'PDU', properties: { current: 7.2 } },
        ],
        alerts: [{ key: 'recv.tempHigh', component: 'receiver', device: 'rx-1', message: 'Receiver over temperature', severity: 3, history: [{ timestamp: new Date(minute).toISOString(), count: alertCount }] }],
        deviations: [{ key: 'fw.mismatch', component: 'receiver', message: 'Firmware differs', severity: 5, history: [{ timestamp: new Date(minute - (minute % 3_600_000)).toISOString(), count: 2 }] }],
      },
    ],
  }
}
