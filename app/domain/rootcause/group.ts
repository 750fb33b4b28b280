/**
 * Root-cause grouping (docs/root-cause.md): a pure function over a system's active issues and the
 * devices its agent reports. When an upstream device fails (switch port down, PDU outlet off,
 * processor genlock lost or no input), the downstream symptoms it explains (tiles not responding,
 * no signal, sync lost) are grouped under it, so views and notifications show one cause instead
 * of one row per tile. Topology comes only from what agents report: device `parent` keys, plus
 * the switch's `links` and the PDU's `outlets[].device` properties. No database, no clock.
 */

export type RootCauseIssue = {
  id: string
  systemId: string
  key: string
  component: string
  /** the device concerned when exactly one is affected */
  deviceKey: string | null
  severity: number
  /** how many devices the issue affects (latest history count) */
  latestCount: number
  isActive: boolean
}

export type RootCauseDevice = {
  systemId: string
  key: string
  component: string
  parentKey: string | null
  /** parsed device properties (a JSON string is accepted too) */
  properties?: Record<string, unknown> | string | null
}

export type RootCauseGroup<I extends RootCauseIssue = RootCauseIssue> = {
  cause: I
  /** the devices of the cause (one unless the cause issue spans several) */
  causeDeviceKeys: string[]
  explained: I[]
  /** devices the explained issues affect: their latest counts (a named device may be a group, 35 tiles), each named device once */
  deviceCount: number
  /** the worst severity of the cause and what it explains: 35 critical dark tiles under an error port make a critical group */
  severity: number
}

export type RootCauseResult<I extends RootCauseIssue = RootCauseIssue> = {
  groups: RootCauseGroup<I>[]
  /** explained issue id -> cause issue id */
  explainedBy: Map<string, string>
}

/** Symptom kinds: the last segment of an issue key (`recv.offline` -> `offline`). */
const LOSS_OF_PATH = ['offline', 'noSignal', 'noInput', 'syncLost', 'genlockLost', 'linkDown'] as const

/** Which upstream issue keys are causes, and which downstream symptoms each explains. */
export const ROOT_CAUSE_RULES: Record<string, { component: string; symptoms: readonly string[] }> = {
  'switch.portDown': { component: 'switch', symptoms: LOSS_OF_PATH },
  'switch.down': { component: 'switch', symptoms: LOSS_OF_PATH },
  'pdu.outletOff': { component: 'pdu', symptoms: LOSS_OF_PATH },
  'proc.genlockLost': { component: 'processor', symptoms: ['syncLost'] },
  'proc.noInput': { component: 'processor', symptoms: ['noSignal'] },
}

export const isCauseKey = (key: string) => key in ROOT_CAUSE_RULES
const symptomOf = (key: string) => key.slice(key.lastIndexOf('.') + 1)

function propertiesOf(device: RootCauseDevice): Record<string, unknown> {
  const raw = device.properties
  if (!raw) return {}
  if (typeof raw !== 'string') return raw
  try {
    const parsed: unknown = JSON.parse(raw)
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => Boolean(v) && typeof v === 'object') : []

/**
 * The devices a failing upstream device feeds directly. A switch that reports `links` feeds the
 * devices on its down ports (`portsDown`), or all linked devices when it does not say which
 * port; a PDU that names `outlets[].device` feeds the devices on outlets whose state is 'off'.
 * Otherwise the device's children by `parent` are what it feeds.
 */
function fedBy(device: RootCauseDevice, children: Map<string, RootCauseDevice[]>): string[] {
  const props = propertiesOf(device)
  const byParent = (children.get(device.key) ?? []).map((d) => d.key)
  if (device.component === 'switch') {
    const links = records(props.links).filter((l) => typeof l.device === 'string')
    if (links.length) {
      const down = Array.isArray(props.portsDown) ? props.portsDown.filter((p): p is number => typeof p === 'number') : []
      const onDown = down.length ? links.filter((l) => down.includes(Number(l.port))) : links
      return [...new Set([...onDown.map((l) => String(l.device)), ...byParent])]
    }
  }
  if (device.component === 'pdu') {
    const outlets = records(props.outlets).filter((o) => typeof o.device === 'string')
    if (outlets.length) {
      const off = outlets.filter((o) => o.state === 'off')
      return [...new Set([...(off.length ? off : outlets).map((o) => String(o.device)), ...byParent])]
    }
  }
  return byParent
}

/** Every device downstream of `roots` (themselves excluded), following what each device feeds. */
function downstreamOf(rootKeys: string[], devices: Map<string, RootCauseDevice>, children: Map<string, RootCauseDevice[]>): Set<string> {
  const seen = new Set<string>()
  const queue = rootKeys.flatMap((key) => {
    const device = devices.get(key)
    return device ? fedBy(device, children) : []
  })
  while (queue.length) {
    const key = queue.shift()!
    if (seen.has(key) || rootKeys.includes(key)) continue
    seen.add(key)
    const device = devices.get(key)
    if (device) queue.push(...fedBy(device, children))
  }
  return seen
}

/** Every symptom some rule explains (the SQL pre-filter: issue keys ending in `.<symptom>`). */
export const ROOT_CAUSE_SYMPTOMS = [...new Set(Object.values(ROOT_CAUSE_RULES).flatMap((r) => r.symptoms))]

/**
 * The systems among `issues` (active ones, at least those with cause and symptom keys) where a
 * group can form: a cause and another issue with a symptom its rule explains. A necessary
 * condition of groupSystem, checked before any device is loaded (most upstream failures explain
 * nothing).
 */
export function systemsWithPossibleGroups(issues: { id: string; systemId: string; key: string }[]): string[] {
  const bySystem = new Map<string, { id: string; key: string }[]>()
  for (const i of issues) bySystem.set(i.systemId, [...(bySystem.get(i.systemId) ?? []), i])
  const result: string[] = []
  for (const [systemId, list] of bySystem) {
    const causes = list.filter((i) => isCauseKey(i.key))
    if (causes.some((c) => list.some((i) => i.id !== c.id && ROOT_CAUSE_RULES[c.key]!.symptoms.includes(symptomOf(i.key))))) result.push(systemId)
  }
  return result
}

type Candidate<I> = { cause: I; causeDeviceKeys: string[]; downstream: Set<string>; components: Set<string> }

/** Groups one system's issues; `devices` must be that system's devices. */
function groupSystem<I extends RootCauseIssue>(issues: I[], deviceList: RootCauseDevice[]): RootCauseGroup<I>[] {
  const devices = new Map(deviceList.map((d) => [d.key, d]))
  const children = new Map<string, RootCauseDevice[]>()
  for (const d of deviceList) {
    if (!d.parentKey || d.parentKey === d.key) continue
    children.set(d.parentKey, [...(children.get(d.parentKey) ?? []), d])
  }
  const candidates: Candidate<I>[] = []
  for (const issue of issues) {
    const rule = ROOT_CAUSE_RULES[issue.key]
    if (!rule) continue
    // A cause spanning several devices (no deviceKey) may be any device of its component.
    const causeDeviceKeys = issue.deviceKey
      ? devices.has(issue.deviceKey)
        ? [issue.deviceKey]
        : []
      : deviceList.filter((d) => d.component === rule.component).map((d) => d.key)
    if (!causeDeviceKeys.length) continue
    const downstream = downstreamOf(causeDeviceKeys, devices, children)
    const components = new Set([...downstream].map((key) => devices.get(key)?.component ?? ''))
    candidates.push({ cause: issue, causeDeviceKeys, downstream, components })
  }
  if (!candidates.length) return []

  const explains = (c: Candidate<I>, issue: I) => {
    if (issue.id === c.cause.id) return false
    if (!ROOT_CAUSE_RULES[c.cause.key]!.symptoms.includes(symptomOf(issue.key))) return false
    // An issue on one named device must sit downstream; one spanning several devices is
    // explained when the cause feeds devices of its component.
    return issue.deviceKey ? c.downstream.has(issue.deviceKey) : c.components.has(issue.component)
  }
  // Most upstream first: a cause that explains another cause takes its symptoms too.
  const upstreamRank = (c: Candidate<I>) => c.downstream.size
  const ordered = [...candidates].sort((a, b) => upstreamRank(b) - upstreamRank(a) || a.cause.severity - b.cause.severity || a.cause.id.localeCompare(b.cause.id))

  const owner = new Map<string, Candidate<I>>()
  for (const issue of issues) {
    const c = ordered.find((candidate) => explains(candidate, issue))
    if (c) owner.set(issue.id, c)
  }
  // Follow chains (noInput explained by a switch port) up to the top cause.
  const topOf = (c: Candidate<I>): Candidate<I> => {
    const seen = new Set<string>()
    let current = c
    while (owner.has(current.cause.id) && !seen.has(current.cause.id)) {
      seen.add(current.cause.id)
      current = owner.get(current.cause.id)!
    }
    return current
  }
  const grouped = new Map<string, { candidate: Candidate<I>; explained: I[] }>()
  for (const issue of issues) {
    const c = owner.get(issue.id)
    if (!c) continue
    const top = topOf(c)
    if (top.cause.id === issue.id) continue
    const entry = grouped.get(top.cause.id) ?? { candidate: top, explained: [] }
    entry.explained.push(issue)
    grouped.set(top.cause.id, entry)
  }
  return [...grouped.values()].map(({ candidate, explained }) => ({
    cause: candidate.cause,
    causeDeviceKeys: candidate.causeDeviceKeys,
    explained: explained.sort((a, b) => a.severity - b.severity || a.key.localeCompare(b.key)),
    deviceCount: countDevices(explained),
    severity: explained.reduce((worst, i) => (i.severity >= 0 && i.severity < worst ? i.severity : worst), candidate.cause.severity),
  }))
}

/**
 * Devices the issues affect. An issue counts its latest count (how many devices report it, at
 * least 1): a named device may stand for a group (the 'tiles' row of 35 receivers). Issues on the
 * same named device count it once, at the largest count.
 */
export function countDevices(issues: Pick<RootCauseIssue, 'deviceKey' | 'latestCount'>[]): number {
  const named = new Map<string, number>()
  let unnamed = 0
  for (const i of issues) {
    const count = Math.max(1, i.latestCount)
    if (i.deviceKey) named.set(i.deviceKey, Math.max(named.get(i.deviceKey) ?? 0, count))
    else unnamed += count
  }
  return [...named.values()].reduce((sum, n) => sum + n, unnamed)
}

/**
 * Groups active issues under the upstream causes that explain them. Inactive issues are neither
 * causes nor explained. Issues and devices of any number of systems may be passed; topology never
 * crosses systems. Groups are ordered by their severity (the worst of cause and explained), then by how much they explain.
 */
export function groupByRootCause<I extends RootCauseIssue>(issues: I[], devices: RootCauseDevice[]): RootCauseResult<I> {
  const active = issues.filter((i) => i.isActive)
  const bySystem = new Map<string, { issues: I[]; devices: RootCauseDevice[] }>()
  for (const issue of active) {
    const entry = bySystem.get(issue.systemId) ?? { issues: [], devices: [] }
    entry.issues.push(issue)
    bySystem.set(issue.systemId, entry)
  }
  for (const device of devices) bySystem.get(device.systemId)?.devices.push(device)
  const groups = [...bySystem.values()].flatMap((s) => groupSystem(s.issues, s.devices))
  groups.sort((a, b) => a.severity - b.severity || b.deviceCount - a.deviceCount || a.cause.id.localeCompare(b.cause.id))
  const explainedBy = new Map<string, string>()
  for (const g of groups) for (const i of g.explained) explainedBy.set(i.id, g.cause.id)
  return { groups, explainedBy }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** 'explains 3 issues on 24 devices' */
export const explainsText = (group: { explained: unknown[]; deviceCount: number }) =>
  `explains ${plural(group.explained.length, 'issue')} on ${plural(group.deviceCount, 'device')}`
