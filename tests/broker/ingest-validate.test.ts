// The compiled fast path of request validation (ingest/validate.server.ts)
// must give exactly zod's result: the same parsed value for valid payloads (defaults, stripped and
// passthrough keys, key order) and zod's own issues for invalid ones.
import { describe, expect, it } from 'vitest'
import { agentCallSchemas, type AgentCall } from '../../protocol'
import { fastSafeParse } from '../../ingest/validate.server'

const device = { id: 'rx-1', component: 'receiver', product: 'Tile', serial: 'T1', name: 'Tile row 1', parent: 'proc', count: 3 }
const state = {
  requestId: 'r-1',
  systems: [
    {
      id: 'main',
      name: 'Stage',
      devices: [
        { id: 'proc', component: 'processor', product: 'MX40', versionSoftware: '3.2.1', versionFirmware: null, properties: { genlockFrequency: 50, inputSource: 'HDMI 1', extra: { a: [1, 2] } } },
        device,
        { id: 'sw', component: 'switch' },
      ],
      alerts: [{ key: 'recv.tempHigh', component: 'receiver', device: 'rx-1', message: 'Hot', severity: 3, history: [{ timestamp: '2026-11-24T06:00:00.000Z', count: 1 }] }],
      deviations: [{ key: 'fw', component: 'receiver', severity: 5, history: [{ timestamp: 1_764_000_000_000, count: 0 }, { timestamp: '2026-11-24T07:00:00+01:00', count: 2 }] }],
      unknownKey: 'stripped',
    },
    { id: 'second' },
  ],
}

/** Valid and invalid variants of a report: each changes one thing. */
const variants: [string, unknown][] = [
  ['as is', state],
  ['no requestId', { systems: state.systems }],
  ['empty', {}],
  ['not an object', 'text'],
  ['null', null],
  ['array', [state]],
  ['requestId too long', { ...state, requestId: 'x'.repeat(65) }],
  ['requestId empty', { ...state, requestId: '' }],
  ['systems not an array', { systems: {} }],
  ['too many systems', { systems: Array.from({ length: 101 }, (_, i) => ({ id: `s${i}` })) }],
  ['bad component', { systems: [{ id: 's', devices: [{ ...device, component: 'toaster' }] }] }],
  ['negative count', { systems: [{ id: 's', devices: [{ ...device, count: -1 }] }] }],
  ['fractional count', { systems: [{ id: 's', devices: [{ ...device, count: 1.5 }] }] }],
  ['count as text', { systems: [{ id: 's', devices: [{ ...device, count: '3' }] }] }],
  ['name too long', { systems: [{ id: 's', name: 'n'.repeat(201) }] }],
  ['empty device id', { systems: [{ id: 's', devices: [{ ...device, id: '' }] }] }],
  ['bad severity', { systems: [{ id: 's', alerts: [{ key: 'k', component: 'system', severity: 1 }] }] }],
  ['severity -1', { systems: [{ id: 's', alerts: [{ key: 'k', component: 'system', severity: -1 }] }] }],
  ['bad timestamp', { systems: [{ id: 's', alerts: [{ key: 'k', component: 'system', severity: 2, history: [{ timestamp: '2026-13-01T00:00:00Z', count: 1 }] }] }] }],
  ['timestamp without offset', { systems: [{ id: 's', alerts: [{ key: 'k', component: 'system', severity: 2, history: [{ timestamp: '2026-11-01T00:00:00', count: 1 }] }] }] }],
  ['negative timestamp', { systems: [{ id: 's', alerts: [{ key: 'k', component: 'system', severity: 2, history: [{ timestamp: -5, count: 1 }] }] }] }],
  ['genlock as text', { systems: [{ id: 's', devices: [{ ...device, properties: { genlockFrequency: '59.94' } }] }] }],
  ['genlock as object', { systems: [{ id: 's', devices: [{ ...device, properties: { genlockFrequency: {} } }] }] }],
  ['parent null', { systems: [{ id: 's', devices: [{ ...device, parent: null }] }] }],
  ['__proto__ key', JSON.parse('{"systems":[{"id":"s","__proto__":{"x":1}}]}')],
]

const calls: [AgentCall, unknown][] = [
  ['ping', { requestId: 'p', metrics: { dataSegsOut: 1, dsackDups: 0, totalRetrans: 2 }, tunnel: 'Relay unreachable' }],
  ['ping', { metrics: { dataSegsOut: 1, dsackDups: 0, totalRetrans: 2 }, tunnel: null }],
  ['ping', { metrics: { dataSegsOut: 1, dsackDups: 0 } }],
  ['ping', { metrics: { dataSegsOut: 1, dsackDups: 0, totalRetrans: 2 }, tunnel: 5 }],
  ['setClientConfig', { config: { brightness: 80, nested: { a: [1] } } }],
  ['setClientConfig', { config: [] }],
  ['getClientConfig', { requestId: 'g', other: 1 }],
  ['createApplication', {}],
  ['getTunnelConfig', { requestId: 7 }],
  ['selfEnroll', { organizationId: 'o', projectId: '' }],
]

describe('fast request validation', () => {
  it('gives zod\'s result for every updateClientState variant', () => {
    const schema = agentCallSchemas.updateClientState.request
    for (const [name, payload] of variants) {
      const expected = schema.safeParse(payload)
      const actual = fastSafeParse(schema, payload)
      expect(actual.success, name).toBe(expected.success)
      if (expected.success && actual.success) {
        expect(actual.data, name).toEqual(expected.data)
        // same key order: ingest hashes JSON of the parsed devices
        expect(JSON.stringify(actual.data), name).toBe(JSON.stringify(expected.data))
      } else if (!expected.success && !actual.success) {
        expect(JSON.stringify(actual.error.issues), name).toBe(JSON.stringify(expected.error.issues))
      }
    }
  })

  it('gives zod\'s result for the other calls', () => {
    for (const [call, payload] of calls) {
      const schema = agentCallSchemas[call].request
      const expected = schema.safeParse(payload)
      const actual = fastSafeParse(schema, payload)
      expect(JSON.stringify(actual), `${call} ${JSON.stringify(payload)}`).toBe(JSON.stringify(expected))
    }
  })

  it('applies defaults as fresh values, never shared between reports', () => {
    const schema = agentCallSchemas.updateClientState.request
    const a = fastSafeParse(schema, { systems: [{ id: 's' }] })
    const b = fastSafeParse(schema, { systems: [{ id: 's' }] })
    if (!a.success || !b.success) throw new Error('expected both valid')
    expect(a.data.systems[0].devices).toEqual([])
    expect(a.data.systems[0].devices).not.toBe(b.data.systems[0].devices)
  })
})
