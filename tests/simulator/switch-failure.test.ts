import { describe, expect, test } from 'vitest'
import { groupByRootCause } from '../../app/domain/rootcause/group'
import { SimulatedSite } from '../../simulator/site'

const START = Date.UTC(2026, 0, 1, 12)

/** The switchFailure scenario as the portal sees it: one root cause per wall, then recovery. */
describe('switchFailure scenario', () => {
  test('the feed port goes down with the tiles behind it, the root cause groups them, and both recover', () => {
    const site = new SimulatedSite({ seed: 11, index: 0, scenario: 'switchFailure' })
    let grouped: ReturnType<typeof groupByRootCause> | null = null
    let recovered = false
    for (let i = 0; i < 40; i++) {
      site.tick(new Date(START + i * 5000))
      const system = site.systemsSnapshot()[0]!
      const issues = system.alerts.map((a, n) => ({
        id: `${a.key}-${n}`,
        systemId: system.key,
        key: a.key,
        component: a.component,
        deviceKey: a.deviceKey ?? null,
        severity: a.severity,
        latestCount: a.history.at(-1)!.count,
        isActive: a.history.at(-1)!.count > 0,
      }))
      const devices = system.devices.map((d) => ({ systemId: system.key, key: d.key, component: d.component, parentKey: d.parent ?? null, properties: d.properties }))
      const result = groupByRootCause(issues, devices)
      if (!grouped && result.groups.length) grouped = result
      else if (grouped && !issues.some((x) => x.isActive && (x.key === 'switch.portDown' || x.key === 'recv.offline'))) recovered = true
      if (grouped && result.groups.length) {
        const tiles = system.devices.filter((d) => d.component === 'receiver').length
        expect(result.groups[0]!.cause.key).toBe('switch.portDown')
        expect(result.groups[0]!.explained.map((x) => x.key)).toEqual(['recv.offline'])
        expect(result.groups[0]!.deviceCount).toBe(tiles)
      }
    }
    expect(grouped).not.toBeNull()
    expect(recovered).toBe(true)
  })
})
