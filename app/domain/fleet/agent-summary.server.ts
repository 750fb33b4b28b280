import { Prisma } from '@prisma/client'
import { agentOfflineMinutes, isConnected, packetLoss, parseTunnelStatus, remoteConnectionState, weightedAlertsScore } from '../agents/derived'
import { parseJson, prisma } from '~/utils/db.server'
import { type FleetScope } from './scope.server'

const sql = Prisma.sql

/** Device properties the screens read (spec 01 section 3, Device.properties). */
export type DeviceProperties = {
  genlockFrequency?: number | string | null
  inputSource?: string | null
  inputFormat?: string | null
  tilesInfo?: unknown
  [key: string]: unknown
}

/** Components whose versions the Info card lists: processor, switch and tile (receiver). */
export const VERSION_COMPONENTS = ['processor', 'switch', 'receiver'] as const

export type VersionEntry = { component: string; product: string; software: string | null; firmware: string | null; count: number }

/** What the agent's processor and devices say about it, for tables and the Info card. */
export type DeviceSummary = {
  processorInput: string | null
  processorInputFormat: string | null
  processorGenlockFrequency: string | null
  processorTiles: number | null
  tiles: number
  deviceVersions: VersionEntry[]
  /** e.g. 'Processor 4.2.1, Switch 1.0.3, Tile 2.11' */
  deviceVersionsSummary: string
}

const COMPONENT_LABEL: Record<string, string> = { processor: 'Processor', switch: 'Switch', receiver: 'Tile' }

type DeviceRow = { component: string; product: string; versionSoftware: string | null; versionFirmware: string | null; properties: string; count: number }

/** Tile count from a processor's tilesInfo: a number, or an object/array carrying one. */
function tilesFrom(info: unknown): number | null {
  if (typeof info === 'number') return info
  if (Array.isArray(info)) return info.length
  if (info && typeof info === 'object') {
    const o = info as Record<string, unknown>
    for (const key of ['count', 'total', 'tiles', 'connected']) if (typeof o[key] === 'number') return o[key] as number
  }
  return null
}

export function summarizeDevices(devices: DeviceRow[]): DeviceSummary {
  const processor = devices.find((d) => d.component === 'processor')
  const props = parseJson<DeviceProperties>(processor?.properties, {})
  const versions = new Map<string, VersionEntry>()
  for (const d of devices) {
    if (!(VERSION_COMPONENTS as readonly string[]).includes(d.component)) continue
    const key = [d.component, d.product, d.versionSoftware, d.versionFirmware].join('\u0000')
    const entry = versions.get(key) ?? { component: d.component, product: d.product, software: d.versionSoftware, firmware: d.versionFirmware, count: 0 }
    entry.count += d.count
    versions.set(key, entry)
  }
  const deviceVersions = [...versions.values()].sort((a, b) => VERSION_COMPONENTS.indexOf(a.component as never) - VERSION_COMPONENTS.indexOf(b.component as never))
  const summary = VERSION_COMPONENTS.flatMap((c) => {
    const first = deviceVersions.find((v) => v.component === c && (v.software || v.firmware))
    return first ? [`${COMPONENT_LABEL[c]} ${first.software ?? first.firmware}`] : []
  }).join(', ')
  const genlock = props.genlockFrequency
  return {
    processorInput: props.inputSource ?? null,
    processorInputFormat: props.inputFormat ?? null,
    processorGenlockFrequency: genlock == null || genlock === '' ? null : typeof genlock === 'number' ? `${genlock} Hz` : String(genlock),
    processorTiles: tilesFrom(props.tilesInfo),
    tiles: devices.filter((d) => d.component === 'receiver').reduce((n, d) => n + d.count, 0),
    deviceVersions,
    deviceVersionsSummary: summary,
  }
}

export const agentSelect = {
  id: true,
  clientName: true,
  serial: true,
  product: true,
  version: true,
  enabled: true,
  lastSeen: true,
  lastIp: true,
  tunnelStatus: true,
  dataSegsOut: true,
  dsackDups: true,
  totalRetrans: true,
  alertsCount: true,
  alertsSeverity: true,
  deviationsCount: true,
  deviationsSeverity: true,
} satisfies Prisma.AgentSelect

type AgentBase = Prisma.AgentGetPayload<{ select: typeof agentSelect }>

/** The fields every agent row shows, derived the same way everywhere (derived.ts); `offlineMinutes` from agents/presence.server.ts. */
export function agentCore(agent: AgentBase, now: number, offlineMinutes: number) {
  const connected = isConnected(agent.enabled, agent.lastSeen, now, offlineMinutes)
  const remote = remoteConnectionState(connected, agent.tunnelStatus)
  return {
    id: agent.id,
    name: agent.clientName || agent.id,
    serial: agent.serial,
    product: agent.product,
    version: agent.version,
    isConnected: connected,
    /** minutes without a report after which it is offline (and its offline alarm is raised) */
    offlineAfterMinutes: offlineMinutes,
    tunnelStatus: parseTunnelStatus(agent.tunnelStatus) ?? null,
    isTunnelConnected: parseTunnelStatus(agent.tunnelStatus) === true,
    remoteConnectionState: remote.state,
    tunnelStatusMessage: remote.message,
    lastSeen: agent.lastSeen?.toISOString() ?? null,
    lastIp: agent.lastIp,
    packetLoss: packetLoss(agent),
    alertsCount: agent.alertsCount,
    alertsSeverity: agent.alertsSeverity,
    deviationsCount: agent.deviationsCount,
    deviationsSeverity: agent.deviationsSeverity,
    weightedAlertsScore: weightedAlertsScore(agent),
  }
}

/** Whether the viewer may open a remote connection through one of the agent's systems. */
export function canConnect(scope: FleetScope, systems: { projectId: string | null }[]): boolean {
  const a = scope.access
  if (a.can('org.agents.connect') || a.can('org.agents.connect.admin')) return true
  return systems.some((s) => s.projectId && (a.can('project.agents.connect', s.projectId) || a.can('project.agents.connect.admin', s.projectId)))
}

type SystemRow = {
  id: string
  key: string
  name: string
  projectId: string | null
  agentId: string
  alertsCount: number
  alertsSeverity: number
  deviationsCount: number
  deviationsSeverity: number
  offlineAlarmMinutes: number | null
}

/**
 * What a table shows of a few agents (one page) beyond the agent row: its visible systems, their
 * devices' summary, its systems counted (all, assigned) and its offline delay. Three statements for
 * the page: every system of the agents once (with its project's delay), the version columns of
 * their devices from the covering Device(systemId, component, product, versions, count) index, and
 * the processors' properties (one row per system); these were six statements that read the systems
 * three times and every column of every device.
 */
export async function loadAgentExtras(scope: FleetScope, agentIds: string[]) {
  const all = agentIds.length
    ? await prisma.$queryRaw<SystemRow[]>(sql`
      SELECT s."id" AS id, s."key" AS key, s."name" AS name, s."projectId" AS "projectId", s."agentId" AS "agentId",
        s."alertsCount" AS "alertsCount", s."alertsSeverity" AS "alertsSeverity", s."deviationsCount" AS "deviationsCount", s."deviationsSeverity" AS "deviationsSeverity",
        p."offlineAlarmMinutes" AS "offlineAlarmMinutes"
      FROM "System" s LEFT JOIN "Project" p ON p."id" = s."projectId"
      WHERE s."agentId" IN (${Prisma.join(agentIds)}) ORDER BY s."key", s."id"`)
    : []
  const systems = all.filter((s) => scope.canSeeSystem(s.projectId))
  const systemIds = systems.map((s) => s.id)
  const [versionRows, processorRows] = systemIds.length
    ? await Promise.all([
        prisma.$queryRaw<(Omit<DeviceRow, 'properties'> & { systemId: string })[]>(sql`
          SELECT d."systemId" AS "systemId", d."component" AS component, d."product" AS product, d."versionSoftware" AS "versionSoftware", d."versionFirmware" AS "versionFirmware", d."count" AS count
          FROM "Device" d WHERE d."systemId" IN (${Prisma.join(systemIds)}) AND d."component" IN (${Prisma.join(VERSION_COMPONENTS)})`),
        prisma.$queryRaw<{ systemId: string; properties: string }[]>(sql`
          SELECT d."systemId" AS "systemId", d."properties" AS properties FROM "Device" d WHERE d."systemId" IN (${Prisma.join(systemIds)}) AND d."component" = 'processor'`),
      ])
    : [[], []]
  type Entry = { systems: SystemRow[]; devices: DeviceRow[]; delays: (number | null)[]; total: number; assigned: number }
  const byAgent = new Map<string, Entry>(agentIds.map((id) => [id, { systems: [], devices: [], delays: [], total: 0, assigned: 0 }]))
  for (const s of all) {
    const entry = byAgent.get(s.agentId)!
    entry.total++
    if (s.projectId !== null) entry.assigned++
    entry.delays.push(s.offlineAlarmMinutes)
  }
  for (const s of systems) byAgent.get(s.agentId)!.systems.push(s)
  // the device's agent through the systems already loaded; a processor's properties beside its versions
  const agentOfSystem = new Map(systems.map((s) => [s.id, s.agentId]))
  const properties = new Map(processorRows.map((r) => [r.systemId, r.properties]))
  for (const d of versionRows) {
    byAgent.get(agentOfSystem.get(d.systemId)!)!.devices.push({ ...d, count: Number(d.count), properties: d.component === 'processor' ? (properties.get(d.systemId) ?? '{}') : '{}' })
  }
  return new Map(
    [...byAgent].map(([id, { systems, devices, delays, total, assigned }]) => [
      id,
      {
        systems: systems.map(({ offlineAlarmMinutes: _, ...s }) => ({ ...s, name: s.name || s.key, projectName: s.projectId ? (scope.projects.get(s.projectId)?.name ?? null) : null })),
        summary: summarizeDevices(devices),
        /** minutes without a report after which the agent is offline (agents/presence.server.ts's rule) */
        offlineMinutes: agentOfflineMinutes(delays),
        systemsTotal: total,
        systemsAssigned: assigned,
      },
    ]),
  )
}
