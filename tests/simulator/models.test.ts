import { describe, expect, test } from 'vitest'
import { updateClientStateRequestSchema } from '../../protocol'
import { toSystemReports } from '../../simulator/report'
import { Random } from '../../simulator/random'
import { type ScenarioName } from '../../simulator/scenarios'
import { SimulatedSite } from '../../simulator/site'

const START = Date.UTC(2026, 0, 1, 12)
const STEP_MS = 5000

/** Runs a site for `ticks` report intervals and returns its snapshot after each one. */
function run(scenario: ScenarioName, ticks: number, options: { seed?: number; index?: number } = {}) {
  const site = new SimulatedSite({ seed: options.seed ?? 7, index: options.index ?? 0, scenario })
  const snapshots = []
  for (let i = 0; i < ticks; i++) {
    site.tick(new Date(START + i * STEP_MS))
    snapshots.push(site.systemsSnapshot())
  }
  return { site, snapshots }
}

const issuesOf = (snapshot: ReturnType<SimulatedSite['systemsSnapshot']>, kind: 'alerts' | 'deviations', key: string) =>
  snapshot.flatMap((s) => s[kind].filter((i) => i.key === key))

describe('seeded randomness', () => {
  test('the same seed gives the same numbers, another seed and another fork do not', () => {
    const draw = (r: Random) => Array.from({ length: 5 }, () => r.float())
    expect(draw(new Random(42))).toEqual(draw(new Random(42)))
    expect(draw(new Random(42))).not.toEqual(draw(new Random(43)))
    expect(draw(new Random(42).fork('a'))).not.toEqual(draw(new Random(42).fork('b')))
  })
})

describe('device models', () => {
  test('a seed reproduces the same agent, systems, devices and readings', () => {
    const a = run('mixed', 12)
    const b = run('mixed', 12)
    expect(b.site.serial).toBe(a.site.serial)
    expect(b.site.name).toBe(a.site.name)
    expect(b.snapshots).toEqual(a.snapshots)
    expect(b.site.tcp).toEqual(a.site.tcp)

    const other = run('mixed', 12, { seed: 8 })
    expect(other.site.serial).not.toBe(a.site.serial)
  })

  test('agents of one fleet differ from each other', () => {
    const serials = new Set(Array.from({ length: 20 }, (_, index) => new SimulatedSite({ seed: 1, index, scenario: 'healthy' }).serial))
    expect(serials.size).toBe(20)
  })

  test('a processor reports input, format, genlock and tiles, and its tiles hang below it', () => {
    const { snapshots } = run('healthy', 1)
    const system = snapshots[0][0]
    const processor = system.devices.find((d) => d.component === 'processor')!
    expect(processor.properties).toMatchObject({
      inputSource: expect.stringMatching(/^(HDMI|SDI|DP|12G-SDI) \d$/),
      inputFormat: expect.stringMatching(/^\d+x\d+p[\d.]+$/),
      genlockFrequency: expect.any(Number),
    })
    const tiles = system.devices.filter((d) => d.component === 'receiver')
    expect(processor.properties.tilesInfo).toMatchObject({ tiles: tiles.length })
    expect(tiles.every((t) => t.parent === processor.key && t.version.firmware)).toBe(true)
    expect(system.devices.map((d) => d.component)).toEqual(expect.arrayContaining(['switch', 'pdu']))
  })

  test('tile temperatures drift from one report to the next', () => {
    const { snapshots } = run('healthy', 3)
    const temperatures = (i: number) => snapshots[i][0].devices.filter((d) => d.component === 'receiver').map((d) => d.properties.temperature)
    expect(temperatures(1)).not.toEqual(temperatures(0))
    expect(temperatures(2).every((t) => typeof t === 'number' && t > 25 && t < 65)).toBe(true)
  })

  test('TCP counters only grow, with retransmits a small share of segments sent', () => {
    const { site } = run('healthy', 1)
    const before = { ...site.tcp }
    site.tick(new Date(START + 60_000))
    expect(site.tcp.dataSegsOut).toBeGreaterThan(before.dataSegsOut)
    expect(site.tcp.totalRetrans).toBeGreaterThanOrEqual(before.totalRetrans)
    expect(site.tcp.totalRetrans).toBeLessThan(site.tcp.dataSegsOut * 0.1)
    expect(site.tcp.dsackDups).toBeLessThanOrEqual(site.tcp.totalRetrans)
  })
})

describe('scenarios', () => {
  test('healthy raises no alert and no deviation', () => {
    const { snapshots } = run('healthy', 40)
    const issues = snapshots.flat().flatMap((s) => [...s.alerts, ...s.deviations].filter((i) => i.key !== 'proj.lampLife'))
    expect(issues).toEqual([])
  })

  test('tempHigh raises recv.tempHigh on receivers, escalates to critical, then clears with history', () => {
    const { snapshots } = run('tempHigh', 40)
    const first = snapshots.findIndex((s) => issuesOf(s, 'alerts', 'recv.tempHigh').some((i) => i.history.at(-1)!.count > 0))
    expect(first).toBeGreaterThan(0)
    const raised = issuesOf(snapshots[first], 'alerts', 'recv.tempHigh')[0]
    expect(raised).toMatchObject({ component: 'receiver', severity: 3 })
    expect(raised.message).toMatch(/Tile C\d+-R\d+ at [\d.]+ °C/)

    const severities = snapshots.flatMap((s) => issuesOf(s, 'alerts', 'recv.tempHigh').map((i) => i.severity))
    expect(severities).toContain(2)

    const cleared = snapshots.slice(first).find((s) => issuesOf(s, 'alerts', 'recv.tempHigh').some((i) => i.history.at(-1)!.count === 0))
    expect(cleared).toBeDefined()
    const history = issuesOf(cleared!, 'alerts', 'recv.tempHigh').find((i) => i.history.at(-1)!.count === 0)!.history
    expect(history[0].count).toBeGreaterThan(0)
    expect(history.at(-1)!.timestamp.getTime()).toBeGreaterThan(history[0].timestamp.getTime())
  })

  test.each([
    ['genlockLost', 'proc.genlockLost', 'processor'],
    ['switchPortDown', 'switch.portDown', 'switch'],
    ['pduOverCurrent', 'pdu.overCurrent', 'pdu'],
  ] as const)('%s raises %s on the %s and clears it again', (scenario, key, component) => {
    const { snapshots } = run(scenario, 40)
    // The first system's alert (each system has the fault in its own phase).
    const counts = snapshots.map((s) => s[0].alerts.find((a) => a.key === key)?.history.at(-1)!.count ?? null)
    const raisedAt = counts.findIndex((c) => c !== null && c > 0)
    expect(raisedAt).toBeGreaterThanOrEqual(0)
    expect(counts.slice(raisedAt)).toContain(0)
    expect(issuesOf(snapshots[raisedAt], 'alerts', key)[0].component).toBe(component)
  })

  test('genlock lost shows as genlockFrequency none on the processor', () => {
    const { snapshots } = run('genlockLost', 20)
    const lost = snapshots.find((s) => s[0].alerts.some((i) => i.key === 'proc.genlockLost' && i.history.at(-1)!.count > 0))!
    expect(lost[0].devices.find((d) => d.component === 'processor')!.properties.genlockFrequency).toBe('none')
  })

  test('deviations reports tiles on another firmware and an input format off the genlock rate', () => {
    const { snapshots } = run('deviations', 2)
    const last = snapshots[1]
    const firmware = issuesOf(last, 'deviations', 'recv.firmwareMismatch')
    expect(firmware.length).toBe(last.length)
    expect(firmware[0]).toMatchObject({ component: 'receiver', severity: 4 })
    expect(firmware[0].message).toMatch(/runs firmware [\d.]+, the wall runs [\d.]+/)
    expect(issuesOf(last, 'deviations', 'proc.inputFormat')[0]).toMatchObject({ component: 'processor', severity: 5 })
    expect(last.flatMap((s) => s.alerts.filter((a) => a.key !== 'proj.lampLife'))).toEqual([])
  })

  test('a mixed fleet shows some faults that come and go', () => {
    const sites = Array.from({ length: 6 }, (_, index) => run('mixed', 60, { index }))
    const keys = new Set(sites.flatMap(({ snapshots }) => snapshots.flat().flatMap((s) => s.alerts.map((a) => a.key))))
    expect(keys.size).toBeGreaterThanOrEqual(2)
    const clearedSomewhere = sites.some(({ snapshots }) => snapshots.at(-1)!.some((s) => s.alerts.some((a) => a.history.at(-1)!.count === 0)))
    expect(clearedSomewhere).toBe(true)
  })

  test('reports validate against the protocol schema', () => {
    const { site } = run('mixed', 5)
    const parsed = updateClientStateRequestSchema.safeParse({ systems: toSystemReports(site.systemsSnapshot()) })
    expect(parsed.success).toBe(true)
  })
})
