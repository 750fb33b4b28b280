/**
 * One presence model (docs/decisions/037-one-presence-model.md): the Connected tag of every list,
 * the Connected filter and its counts, the project's system tags and counts, the agent list of the
 * API (the CLI's source), the readiness report and the offline alarm all follow last seen plus
 * the offline delay of the agent's projects. Before, the tag used a fixed 30 minutes while the
 * alarm fired after the project's 5.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { listAgents } from '~/domain/agents/agents.server'
import { sweepOfflineAgents } from '~/domain/alarms/offline.server'
import { OFFLINE_ISSUE } from '~/domain/alarms/state'
import { agentDetail } from '~/domain/fleet/agent-detail.server'
import { agentFacets, agentsTable } from '~/domain/fleet/agents-table.server'
import { type AgentTableQuery } from '~/domain/fleet/agents-table-state'
import { clearProjectSystemCounts } from '~/domain/fleet/project-system-counts.server'
import { projectSystemTags } from '~/domain/fleet/project-systems.server'
import { projectAgents, projectOverview } from '~/domain/fleet/project.server'
import { readinessReport } from '~/domain/readiness/readiness.server'
import { prisma } from '~/utils/db.server'

const MIN = 60_000
let orgId: string
let strictId: string
let patientId: string
let owner: UserActor
const ids: Record<string, string> = {}

const query = (connected: string[]): AgentTableQuery => ({ page: 1, limit: 25, sorting: [], filters: { name: '', product: [], version: [], connected, input: [] } })

beforeAll(async () => {
  const user = await prisma.user.create({ data: { email: 'owner@presence.test', name: 'Owner', emailVerified: true } })
  const org = await prisma.organization.create({ data: { name: 'Presence', ownerId: user.id } })
  orgId = org.id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: user.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, user.id, orgId)
  })
  owner = { kind: 'user', userId: user.id, email: user.email, name: user.name, isSiteAdmin: false, ip: '', userAgent: '' }
  strictId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Strict', offlineAlarmMinutes: 10 } })).id
  patientId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Patient', offlineAlarmMinutes: 120 } })).id
  const now = Date.now()
  // [name, minutes since last seen, projects of its systems (null = unassigned)]; margins of minutes, so a slow run decides the same
  // null minutes: enrolled, never seen, so no systems yet (SQL's NULL last seen must count as disconnected, not as unknown)
  const fleet: [string, number | null, (string | null)[]][] = [
    ['strict-20', 20, [strictId]], // within the former 30-minute window, past its project's 10
    ['patient-20', 20, [patientId]],
    ['both-20', 20, [strictId, patientId]], // the shortest delay of its projects decides
    ['unassigned-now', 0, [null]],
    ['patient-180', 180, [patientId]],
    ['never-seen', null, []],
  ]
  for (const [name, minutes, projects] of fleet) {
    const agent = await prisma.agent.create({ data: { clientName: name, secretHash: 'x', organizationId: orgId, lastSeen: minutes === null ? null : new Date(now - minutes * MIN) } })
    ids[name] = agent.id
    for (const [i, projectId] of projects.entries()) await prisma.system.create({ data: { agentId: agent.id, key: `sys-${i}`, name: `${name} ${i}`, projectId } })
  }
  clearProjectSystemCounts()
})

const connectedNames = ['patient-20', 'unassigned-now']
const offlineNames = ['strict-20', 'both-20', 'patient-180', 'never-seen']

describe('one presence model', () => {
  it('decides the Connected tag, the Connected filter and its counts in the agents table', async () => {
    const all = await agentsTable(owner, orgId, query([]))
    expect(Object.fromEntries(all.rows.map((r) => [r.name, r.isConnected]))).toEqual({
      'strict-20': false,
      'patient-20': true,
      'both-20': false,
      'unassigned-now': true,
      'patient-180': false,
      'never-seen': false,
    })
    expect(Object.fromEntries(all.rows.map((r) => [r.name, r.offlineAfterMinutes]))).toMatchObject({ 'strict-20': 10, 'patient-20': 120, 'both-20': 10, 'unassigned-now': 5 })
    expect((await agentsTable(owner, orgId, query(['Connected']))).rows.map((r) => r.name).sort()).toEqual(connectedNames)
    expect((await agentsTable(owner, orgId, query(['Disconnected']))).rows.map((r) => r.name).sort()).toEqual([...offlineNames].sort())
    const facets = await agentFacets(owner, orgId)
    expect(facets.connected).toEqual([
      { value: 'Connected', count: 2 },
      { value: 'Disconnected', count: 4 },
    ])
  })

  it('decides the API agent list (the CLI), the agent page and the project pages', async () => {
    const listed = await listAgents(owner, orgId, {})
    expect(listed.agents.filter((a) => a.isConnected).map((a) => a.name).sort()).toEqual(connectedNames)
    expect((await agentDetail(owner, orgId, ids['strict-20']!)).agent.isConnected).toBe(false)
    expect((await agentDetail(owner, orgId, ids['patient-20']!)).agent.isConnected).toBe(true)

    const tags = await projectSystemTags(owner, orgId)
    expect(tags[strictId]!.tags.map((t) => t.state)).toEqual(['disconnected', 'disconnected'])
    expect(tags[strictId]!.connected).toBe(0)
    // Patient holds patient-20 (connected), both-20 (offline by Strict's delay) and patient-180
    expect(tags[patientId]!.connected).toBe(1)
    expect(tags[patientId]!.tags.find((t) => t.agentId === ids['both-20'])!.state).toBe('disconnected')

    const patientAgents = await projectAgents(owner, orgId, patientId)
    expect(Object.fromEntries(patientAgents.rows.map((r) => [r.name, r.isConnected]))).toEqual({ 'both-20': false, 'patient-180': false, 'patient-20': true })
    expect((await projectOverview(owner, orgId, patientId)).cards.systems).toEqual({ total: 3, connected: 1 })
  })

  it('decides the readiness report', async () => {
    const strict = await readinessReport(owner, orgId, strictId)
    expect(strict.offline.map((a) => a.name).sort()).toEqual(['both-20', 'strict-20'])
    expect(strict.summary.agentsOffline).toBe(2)
    expect(strict.summary.ready).toBe(false)
    expect(strict.offlineAfterMinutes).toBe(10)
    const patient = await readinessReport(owner, orgId, patientId)
    expect(patient.offline.map((a) => a.name).sort()).toEqual(['both-20', 'patient-180'])
  })

  it('decides the offline alarm: an agent shows disconnected exactly when one of its systems has an active offline alarm', async () => {
    await sweepOfflineAgents(new Date())
    const alarmed = await prisma.issue.findMany({
      where: { kind: OFFLINE_ISSUE.kind, key: OFFLINE_ISSUE.key, isActive: true, system: { agent: { organizationId: orgId } } },
      select: { system: { select: { agentId: true, projectId: true } } },
    })
    const alarmedAgents = new Set(alarmed.map((i) => i.system.agentId))
    const table = await agentsTable(owner, orgId, query([]))
    // an agent that never reported has no system to hold an alarm
    for (const row of table.rows.filter((r) => r.systemsTotal > 0)) expect({ name: row.name, alarmed: alarmedAgents.has(row.id) }).toEqual({ name: row.name, alarmed: !row.isConnected })
    // both-20's Patient system waits for Patient's own delay (120 minutes); its Strict system is alarmed
    expect(alarmed.filter((i) => i.system.agentId === ids['both-20']).map((i) => i.system.projectId)).toEqual([strictId])
  })
})
