import { describe, expect, test } from 'vitest'
import { explainsText, groupByRootCause, systemsWithPossibleGroups, type RootCauseDevice, type RootCauseIssue } from '../../app/domain/rootcause/group'

let seq = 0
const issue = (key: string, component: string, over: Partial<RootCauseIssue> = {}): RootCauseIssue => ({
  id: `i${++seq}`,
  systemId: 's1',
  key,
  component,
  deviceKey: null,
  severity: 3,
  latestCount: 1,
  isActive: true,
  ...over,
})
const device = (key: string, component: string, parentKey: string | null = null, properties: Record<string, unknown> = {}, systemId = 's1'): RootCauseDevice => ({
  systemId,
  key,
  component,
  parentKey,
  properties,
})

/** The simulator's wall: a switch whose port 3 feeds the processor, tiles below the processor. */
function wall(systemId = 's1', switchProps: Record<string, unknown> = {}) {
  return [
    device('switch-1', 'switch', null, {
      portsDown: [3],
      links: [
        { port: 1, label: 'Uplink' },
        { port: 3, label: 'processor', device: 'processor' },
        { port: 4, label: 'Monitor', device: 'display-1' },
      ],
      ...switchProps,
    }, systemId),
    device('processor', 'processor', null, {}, systemId),
    device('tile-c1-r1', 'receiver', 'processor', {}, systemId),
    device('tile-c2-r1', 'receiver', 'processor', {}, systemId),
    device('tile-c3-r1', 'receiver', 'processor', {}, systemId),
    device('display-1', 'display', null, {}, systemId),
    device('pdu-1', 'pdu', null, {}, systemId),
  ]
}

describe('root cause grouping', () => {
  test('a switch port down explains the tiles behind the processor on that port', () => {
    const cause = issue('switch.portDown', 'switch', { deviceKey: 'switch-1' })
    const tiles = issue('recv.offline', 'receiver', { latestCount: 3, severity: 2 })
    const hot = issue('recv.tempHigh', 'receiver', { deviceKey: 'tile-c1-r1' })
    const monitor = issue('display.noSignal', 'display', { deviceKey: 'display-1' })
    const { groups, explainedBy } = groupByRootCause([cause, tiles, hot, monitor], wall('s1', { portsDown: [3] }))
    expect(groups).toHaveLength(1)
    expect(groups[0]!.cause.id).toBe(cause.id)
    // Temperature is not a loss-of-path symptom; the monitor sits on port 4 which is up.
    expect(groups[0]!.explained.map((i) => i.id)).toEqual([tiles.id])
    expect(groups[0]!.deviceCount).toBe(3)
    expect(explainedBy.get(tiles.id)).toBe(cause.id)
    expect(explainedBy.has(hot.id)).toBe(false)
    expect(explainedBy.has(monitor.id)).toBe(false)
    expect(explainsText(groups[0]!)).toBe('explains 1 issue on 3 devices')
  })

  test('a group counts the devices its issues report and takes the worst severity of cause and explained', () => {
    // the field case: one 'tiles' device row standing for 35 receivers, all dark (critical), under an error port
    const devices = [device('switch-1', 'switch'), device('tiles', 'receiver', 'switch-1')]
    const cause = issue('switch.portDown', 'switch', { deviceKey: 'switch-1', severity: 3 })
    const dark = issue('recv.offline', 'receiver', { deviceKey: 'tiles', latestCount: 35, severity: 2 })
    const noSignal = issue('recv.noSignal', 'receiver', { deviceKey: 'tiles', latestCount: 12, severity: 4 })
    const { groups } = groupByRootCause([cause, dark, noSignal], devices)
    expect(groups[0]!.deviceCount).toBe(35) // was 1: the named device counted once, whatever its count
    expect(groups[0]!.severity).toBe(2) // was the cause's 3 (Error)
    expect(groups[0]!.cause.severity).toBe(3)
    expect(explainsText(groups[0]!)).toBe('explains 2 issues on 35 devices')
    // a milder explained issue leaves the cause's severity
    const mild = groupByRootCause([cause, noSignal], devices)
    expect(mild.groups[0]!).toMatchObject({ severity: 3, deviceCount: 12 })
  })

  test('a switch without links falls back to parent relations; one without port detail takes all links', () => {
    const devices = [device('switch-1', 'switch'), device('tile-a', 'receiver', 'switch-1'), device('tile-b', 'receiver', 'switch-1')]
    const cause = issue('switch.portDown', 'switch', { deviceKey: 'switch-1' })
    const a = issue('recv.offline', 'receiver', { deviceKey: 'tile-a' })
    const b = issue('recv.noSignal', 'receiver', { deviceKey: 'tile-b' })
    const { groups } = groupByRootCause([cause, a, b], devices)
    expect(groups[0]!.explained.map((i) => i.id).sort()).toEqual([a.id, b.id].sort())
    expect(groups[0]!.deviceCount).toBe(2)

    const monitor = issue('display.noSignal', 'display', { deviceKey: 'display-1' })
    const all = groupByRootCause([cause, monitor], wall('s1', { portsDown: [] }))
    expect(all.groups[0]!.explained.map((i) => i.id)).toEqual([monitor.id])
  })

  test('a PDU outlet off explains the devices on the outlets that are off', () => {
    const devices = [
      device('pdu-1', 'pdu', null, { outlets: [{ outlet: 1, device: 'processor', state: 'off' }, { outlet: 2, device: 'display-1', state: 'on' }] }),
      device('processor', 'processor'),
      device('tile-1', 'receiver', 'processor'),
      device('display-1', 'display'),
    ]
    const cause = issue('pdu.outletOff', 'pdu', { deviceKey: 'pdu-1', severity: 2 })
    const proc = issue('proc.offline', 'processor', { deviceKey: 'processor' })
    const tile = issue('recv.offline', 'receiver', { deviceKey: 'tile-1' })
    const monitor = issue('display.offline', 'display', { deviceKey: 'display-1' })
    const { groups } = groupByRootCause([cause, proc, tile, monitor], devices)
    expect(groups).toHaveLength(1)
    expect(groups[0]!.explained.map((i) => i.id).sort()).toEqual([proc.id, tile.id].sort())
    expect(groups[0]!.deviceCount).toBe(2)
  })

  test('processor genlock lost explains sync lost tiles, no input explains no signal, not the other way round', () => {
    const devices = wall()
    const genlock = issue('proc.genlockLost', 'processor', { deviceKey: 'processor' })
    const sync = issue('recv.syncLost', 'receiver', { latestCount: 3 })
    const noSignal = issue('recv.noSignal', 'receiver', { deviceKey: 'tile-c1-r1' })
    const result = groupByRootCause([genlock, sync, noSignal], devices)
    expect(result.groups).toHaveLength(1)
    expect(result.groups[0]!.explained.map((i) => i.id)).toEqual([sync.id])

    const noInput = issue('proc.noInput', 'processor', { deviceKey: 'processor', severity: 2 })
    const both = groupByRootCause([noInput, noSignal], devices)
    expect(both.groups[0]!.cause.id).toBe(noInput.id)
    expect(both.groups[0]!.explained.map((i) => i.id)).toEqual([noSignal.id])
    // The monitor has no parent: nothing reported ties it to the processor.
    const monitor = issue('display.noSignal', 'display', { deviceKey: 'display-1' })
    expect(groupByRootCause([noInput, monitor], devices).groups).toHaveLength(0)
  })

  test('chains fold into the most upstream cause', () => {
    const port = issue('switch.portDown', 'switch', { deviceKey: 'switch-1' })
    const noInput = issue('proc.noInput', 'processor', { deviceKey: 'processor', severity: 2 })
    const tiles = issue('recv.noSignal', 'receiver', { latestCount: 3 })
    const { groups, explainedBy } = groupByRootCause([tiles, noInput, port], wall())
    expect(groups).toHaveLength(1)
    expect(groups[0]!.cause.id).toBe(port.id)
    expect(groups[0]!.explained.map((i) => i.id)).toEqual([noInput.id, tiles.id])
    expect(explainedBy.get(tiles.id)).toBe(port.id)
    expect(groups[0]!.deviceCount).toBe(4)
  })

  test('inactive issues, other systems and causes with nothing to explain form no group', () => {
    const cause = issue('switch.portDown', 'switch', { deviceKey: 'switch-1' })
    const cleared = issue('recv.offline', 'receiver', { latestCount: 3, isActive: false })
    const elsewhere = issue('recv.offline', 'receiver', { systemId: 's2', latestCount: 2 })
    const devices = [...wall('s1'), ...wall('s2')]
    expect(groupByRootCause([cause, cleared, elsewhere], devices).groups).toHaveLength(0)
    const inactiveCause = { ...cause, isActive: false }
    const live = issue('recv.offline', 'receiver', { latestCount: 3 })
    expect(groupByRootCause([inactiveCause, live], devices).groups).toHaveLength(0)
    // A cause naming a device the agent does not report explains nothing.
    expect(groupByRootCause([issue('switch.portDown', 'switch', { deviceKey: 'gone' }), live], devices).groups).toHaveLength(0)
  })

  test('a cause spanning several devices uses every device of its component; several systems group separately', () => {
    const s1 = issue('switch.portDown', 'switch')
    const s1tiles = issue('recv.offline', 'receiver', { latestCount: 3 })
    const s2 = issue('switch.portDown', 'switch', { systemId: 's2', deviceKey: 'switch-1', severity: 2 })
    const s2tile = issue('recv.offline', 'receiver', { systemId: 's2', deviceKey: 'tile-c2-r1' })
    const { groups } = groupByRootCause([s1, s1tiles, s2, s2tile], [...wall('s1'), ...wall('s2')])
    expect(groups.map((g) => g.cause.id)).toEqual([s2.id, s1.id])
    expect(groups[0]!.explained.map((i) => i.id)).toEqual([s2tile.id])
    expect(groups[1]!.explained.map((i) => i.id)).toEqual([s1tiles.id])
  })

  test('cyclic parent relations and JSON string properties are handled', () => {
    const devices = [
      { systemId: 's1', key: 'switch-1', component: 'switch', parentKey: 'tile-a', properties: JSON.stringify({ links: [{ port: 1, device: 'tile-a' }] }) },
      { systemId: 's1', key: 'tile-a', component: 'receiver', parentKey: 'switch-1', properties: 'not json' },
    ]
    const cause = issue('switch.portDown', 'switch', { deviceKey: 'switch-1' })
    const a = issue('recv.offline', 'receiver', { deviceKey: 'tile-a' })
    const { groups } = groupByRootCause([cause, a], devices)
    expect(groups[0]!.explained.map((i) => i.id)).toEqual([a.id])
  })

  test('the pre-check keeps exactly the systems where a cause has another issue it may explain (no devices needed)', () => {
    const lone = issue('switch.portDown', 'switch', { systemId: 'a' })
    const unrelated = [issue('proc.noInput', 'processor', { systemId: 'b' }), issue('recv.tempHigh', 'receiver', { systemId: 'b' })]
    const explainable = [issue('switch.portDown', 'switch', { systemId: 'c', deviceKey: 'switch-1' }), issue('recv.offline', 'receiver', { systemId: 'c', latestCount: 3 })]
    // a cause that is itself a symptom of another cause (genlock lost behind a PDU outlet)
    const chained = [issue('pdu.outletOff', 'pdu', { systemId: 'd' }), issue('proc.genlockLost', 'processor', { systemId: 'd' })]
    // noInput explains noSignal only; its own symptom kind (noInput) is not explained by itself
    const wrongSymptom = [issue('proc.genlockLost', 'processor', { systemId: 'e' }), issue('recv.noSignal', 'receiver', { systemId: 'e' })]
    const all = [lone, ...unrelated, ...explainable, ...chained, ...wrongSymptom]
    expect(systemsWithPossibleGroups(all).sort()).toEqual(['c', 'd'])
    // never drops a system that groups: the full grouping over every system finds groups only in kept ones
    const devices = ['a', 'b', 'c', 'd', 'e'].flatMap((s) => wall(s))
    const grouped = new Set(groupByRootCause(all, devices).groups.map((g) => g.cause.systemId))
    expect(grouped.has('c')).toBe(true)
    for (const system of grouped) expect(systemsWithPossibleGroups(all)).toContain(system)
  })
})
