import { describe, expect, it, vi } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { assignSystemToProject, listAgents, removeAgentFromOrganization, updateAgentLocation } from '~/domain/agents/agents.server'
import { enrollAgent, lookupApplication, selfEnroll } from '~/domain/agents/enrollment.server'
import { formatEnrollmentCode, generateEnrollmentCode, normalizeEnrollmentCode } from '~/domain/agents/enrollment-code'
import { listSelfEnrollOptions, setSelfEnrollTargets } from '~/domain/agents/self-enroll.server'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'

let run = 0
const DAY = 24 * 60 * 60 * 1000


async function user(label: string, extra: { isAdmin?: boolean } = {}) {
  const n = ++run
  return prisma.user.create({ data: { email: `${label}${n}-${Date.now()}@enroll.test`, name: `${label} ${n}`, emailVerified: true, ...extra } })
}

async function fixture() {
  const owner = await user('owner')
  const viewer = await user('viewer')
  const manager = await user('manager')
  const org = await prisma.organization.create({ data: { name: `Stage Co ${++run}`, ownerId: owner.id } })
  const main = await prisma.project.create({ data: { organizationId: org.id, name: 'Main Stage' } })
  const side = await prisma.project.create({ data: { organizationId: org.id, name: 'Side Stage' } })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
    await tx.accessRight.create({ data: { userId: viewer.id, roleId: DEFAULT_ROLE_IDS.orgViewer, organizationId: org.id } })
    await tx.accessRight.create({ data: { userId: manager.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: org.id, projectId: main.id } })
    for (const u of [owner, viewer, manager]) await compileUserAcls(tx, u.id)
  })
  return { owner, viewer, manager, org, main, side }
}

/** An unenrolled agent with two reported systems and a current enrollment code. */
async function agentWithCode(createdAt = new Date()) {
  const n = ++run
  const agent = await prisma.agent.create({ data: { clientName: `LED Processor ${n}`, product: 'VX1000', serial: `SN${n}`, secretHash: 'x' } })
  const systems = await Promise.all(['sys-a', 'sys-b'].map((key) => prisma.system.create({ data: { agentId: agent.id, key, name: `System ${key}` } })))
  const code = await prisma.enrollmentCode.create({ data: { agentId: agent.id, code: generateEnrollmentCode(), createdAt } })
  return { agent, systems, code: code.code }
}

describe('enrollment codes', () => {
  it('normalises typed codes and formats them as XXX-XX-XXX', () => {
    expect(normalizeEnrollmentCode(' ab3-k7 - x9z ')).toBe('AB3K7X9Z')
    expect(formatEnrollmentCode('ab3k7x9z')).toBe('AB3-K7-X9Z')
    expect(generateEnrollmentCode()).toMatch(/^[A-Z2-9]{8}$/)
  })
})

describe('application lookup', () => {
  it('shows the agent behind a current code typed in any case and with dashes', async () => {
    const f = await fixture()
    const { code } = await agentWithCode()
    const result = await lookupApplication(actorFor(f.owner), formatEnrollmentCode(code).toLowerCase())
    expect(result).toMatchObject({ agentProduct: 'VX1000', applicationCode: formatEnrollmentCode(code) })
    expect(result.agentName).toMatch(/^LED Processor/)
  })

  it('refuses empty, malformed, unknown, expired, superseded and used codes', async () => {
    const f = await fixture()
    const actor = actorFor(f.owner, '10.0.1.1')
    await expect(lookupApplication(actor, '')).rejects.toMatchObject({ message: 'Please input enrollment code' })
    await expect(lookupApplication(actor, '--- -')).rejects.toMatchObject({ message: 'Invalid enrollment code' })
    await expect(lookupApplication(actor, 'ZZZ-ZZ-ZZZ')).rejects.toMatchObject({ code: 'enrollment/invalid-code', status: 404 })

    const expired = await agentWithCode(new Date(Date.now() - 15 * DAY))
    await expect(lookupApplication(actor, expired.code)).rejects.toMatchObject({ code: 'enrollment/invalid-code' })

    const superseded = await agentWithCode(new Date(Date.now() - DAY))
    await prisma.enrollmentCode.create({ data: { agentId: superseded.agent.id, code: generateEnrollmentCode() } })
    await expect(lookupApplication(actor, superseded.code)).rejects.toMatchObject({ code: 'enrollment/invalid-code' })

    const used = await agentWithCode()
    await enrollAgent(actor, { applicationCode: used.code, organizationId: f.org.id, projectId: f.main.id })
    await expect(lookupApplication(actor, used.code)).rejects.toMatchObject({ code: 'enrollment/invalid-code' })
  })

  it('rate-limits code guessing per user', async () => {
    const f = await fixture()
    const actor = actorFor(f.owner, '')
    // the limit counts per fixed 10-minute window: the clock stands in the middle of one, so a
    // test run at a window's edge cannot start a new count halfway
    const window = 10 * 60_000
    vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / window) * window + window / 2 })
    try {
      const attempts = Array.from({ length: 30 }, () => lookupApplication(actor, 'AAA-AA-AAA').catch((e) => e.code))
      expect(new Set(await Promise.all(attempts))).toEqual(new Set(['enrollment/invalid-code']))
      await expect(lookupApplication(actor, 'AAA-AA-AAA')).rejects.toMatchObject({ status: 429 })
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('enrolling an agent', () => {
  it('enrolls into an existing project by name, assigns the systems and audits it', async () => {
    const f = await fixture()
    const { agent, code } = await agentWithCode()
    const result = await enrollAgent(actorFor(f.owner), { applicationCode: code, organizationId: f.org.id, projectId: 'Main Stage' })
    expect(result).toMatchObject({ organizationId: f.org.id, projectId: f.main.id, systemsAssigned: 2, organizationCreated: false })
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, include: { systems: true, applications: true } })
    expect(stored.organizationId).toBe(f.org.id)
    expect(stored.enrolledAt).not.toBeNull()
    expect(stored.defaultProjectId).toBe(f.main.id)
    expect(stored.systems.map((s) => s.projectId)).toEqual([f.main.id, f.main.id])
    expect(stored.applications.every((a) => a.usedAt)).toBe(true)
    const record = await prisma.auditRecord.findFirst({ where: { organizationId: f.org.id, action: 'agent.enroll' } })
    expect(record?.message).toContain('Main Stage')
  })

  it('creates a new organization from a typed name and a new project, owned by the enroller', async () => {
    const someone = await user('someone')
    const { agent, code } = await agentWithCode()
    const name = `Fresh Org ${run}`
    const result = await enrollAgent(actorFor(someone), { applicationCode: code, newOrganizationName: name, newProjectName: 'Arena' })
    expect(result.organizationCreated).toBe(true)
    const org = await prisma.organization.findUniqueOrThrow({ where: { id: result.organizationId }, include: { projects: true } })
    expect(org).toMatchObject({ name, ownerId: someone.id })
    expect(org.projects.map((p) => p.name)).toEqual(['Arena'])
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).organizationId).toBe(org.id)
  })

  it('explains a missing or unknown project and leaves the code usable', async () => {
    const f = await fixture()
    const { code } = await agentWithCode()
    const actor = actorFor(f.owner)
    await expect(enrollAgent(actor, { applicationCode: code, organizationId: f.org.id })).rejects.toMatchObject({ message: 'Please specify a project' })
    await expect(enrollAgent(actor, { applicationCode: code, organizationId: f.org.id, newProjectName: ' ' })).rejects.toMatchObject({
      message: 'Project name is required',
    })
    await expect(enrollAgent(actor, { applicationCode: code, organizationId: f.org.id, projectId: 'Backstage' })).rejects.toMatchObject({
      message: `No such project Backstage in org ${f.org.name}`,
    })
    await expect(lookupApplication(actor, code)).resolves.toMatchObject({ agentProduct: 'VX1000' })
  })

  it('needs agent.enroll in the organization', async () => {
    const f = await fixture()
    const { agent, code } = await agentWithCode()
    await expect(enrollAgent(actorFor(f.viewer), { applicationCode: code, organizationId: f.org.id, projectId: f.main.id })).rejects.toMatchObject({ status: 403 })
    expect((await prisma.agent.findUniqueOrThrow({ where: { id: agent.id } })).organizationId).toBeNull()
  })
})

describe('systems and agent removal', () => {
  async function enrolled() {
    const f = await fixture()
    const a = await agentWithCode()
    await enrollAgent(actorFor(f.owner), { applicationCode: a.code, organizationId: f.org.id, projectId: f.main.id })
    return { ...f, ...a }
  }

  it('moves a system to another project and to (None)', async () => {
    const f = await enrolled()
    const owner = actorFor(f.owner)
    const [first] = f.systems
    await assignSystemToProject(owner, { organizationId: f.org.id, agentId: f.agent.id, systemId: first.id, projectId: f.side.id })
    expect((await prisma.system.findUniqueOrThrow({ where: { id: first.id } })).projectId).toBe(f.side.id)
    await assignSystemToProject(owner, { organizationId: f.org.id, agentId: f.agent.id, systemId: first.id, projectId: null })
    expect((await prisma.system.findUniqueOrThrow({ where: { id: first.id } })).projectId).toBeNull()
    const actions = await prisma.auditRecord.findMany({ where: { organizationId: f.org.id, action: { in: ['system.assign', 'system.unassign'] } } })
    expect(actions).toHaveLength(2)
  })

  it('lets a project manager assign only within their project', async () => {
    const f = await enrolled()
    const manager = actorFor(f.manager)
    const [first] = f.systems
    await expect(
      assignSystemToProject(manager, { organizationId: f.org.id, agentId: f.agent.id, systemId: first.id, projectId: f.side.id }),
    ).rejects.toMatchObject({ status: 403 })
    await assignSystemToProject(manager, { organizationId: f.org.id, agentId: f.agent.id, systemId: first.id, projectId: null })
    expect((await prisma.system.findUniqueOrThrow({ where: { id: first.id } })).projectId).toBeNull()
  })

  it('removes an enrolled agent only with agent.delete, unassigning its systems', async () => {
    const f = await enrolled()
    const input = { organizationId: f.org.id, agentId: f.agent.id }
    await expect(removeAgentFromOrganization(actorFor(f.viewer), input)).rejects.toMatchObject({ status: 403 })
    await removeAgentFromOrganization(actorFor(f.owner), input)
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: f.agent.id }, include: { systems: true } })
    expect(stored.organizationId).toBeNull()
    expect(stored.systems.every((s) => s.projectId === null)).toBe(true)
    await expect(removeAgentFromOrganization(actorFor(f.owner), input)).rejects.toMatchObject({ status: 404 })
    expect((await listAgents(actorFor(f.owner), f.org.id)).agents).toHaveLength(0)
  })

  it('switches the location mode and refuses manual mode without a point', async () => {
    const f = await enrolled()
    const owner = actorFor(f.owner)
    const base = { organizationId: f.org.id, agentId: f.agent.id }
    await expect(updateAgentLocation(owner, { ...base, useLocationMode: 'manual' })).rejects.toMatchObject({ message: 'Pick a point on the map' })
    await updateAgentLocation(owner, { ...base, useLocationMode: 'manual', locationManual: { lati: 52.37, long: 4.9 } })
    expect(await prisma.agent.findUniqueOrThrow({ where: { id: f.agent.id } })).toMatchObject({ useLocationMode: 'manual', locationManualLat: 52.37 })
    await expect(updateAgentLocation(actorFor(f.viewer), { ...base, useLocationMode: 'geoip' })).rejects.toMatchObject({ status: 403 })
  })

  it('lists agents with their systems, filtered and paged', async () => {
    const f = await enrolled()
    const second = await agentWithCode()
    await enrollAgent(actorFor(f.owner), { applicationCode: second.code, organizationId: f.org.id, projectId: f.side.id })
    const page = await listAgents(actorFor(f.viewer), f.org.id, { limit: 1 })
    expect(page.agents).toHaveLength(1)
    expect(page.nextCursor).toBe(page.agents[0].id)
    const rest = await listAgents(actorFor(f.viewer), f.org.id, { limit: 1, cursor: page.nextCursor })
    expect(rest.agents[0].id).not.toBe(page.agents[0].id)
    expect(rest.nextCursor).toBeNull()
    const filtered = await listAgents(actorFor(f.owner), f.org.id, { filter: second.agent.serial })
    expect(filtered.agents.map((a) => a.id)).toEqual([second.agent.id])
    expect(filtered.agents[0].systems[0]).toMatchObject({ projectName: 'Side Stage' })
    // A project manager of Main Stage sees only the agent reporting there.
    expect((await listAgents(actorFor(f.manager), f.org.id)).agents.map((a) => a.id)).toEqual([f.agent.id])
  })
})

describe('self-enroll targets', () => {
  it('lets an agent enroll itself only into a pair a site admin allowed', async () => {
    const f = await fixture()
    const admin = await user('admin', { isAdmin: true })
    const { agent } = await agentWithCode()
    const agentActor = { kind: 'agent' as const, agentId: agent.id, ip: '10.1.1.1' }
    await expect(setSelfEnrollTargets(actorFor(f.owner), { targets: [] })).rejects.toMatchObject({ status: 403 })
    await expect(selfEnroll(agentActor, { organizationId: f.org.id, projectId: f.main.id })).rejects.toMatchObject({ status: 403 })

    await setSelfEnrollTargets(actorFor(admin), { targets: [{ organizationId: f.org.id, projectId: f.main.id }] })
    const options = await listSelfEnrollOptions(actorFor(admin))
    expect(options.find((o) => o.projectId === f.main.id)?.enabled).toBe(true)
    expect(options.find((o) => o.projectId === f.side.id)?.enabled).toBe(false)

    await expect(selfEnroll(agentActor, { organizationId: f.org.id, projectId: f.side.id })).rejects.toMatchObject({ status: 403 })
    await selfEnroll(agentActor, { organizationId: f.org.id, projectId: f.main.id })
    const stored = await prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, include: { systems: true } })
    expect(stored.organizationId).toBe(f.org.id)
    expect(stored.systems.every((s) => s.projectId === f.main.id)).toBe(true)
    await expect(selfEnroll(agentActor, { organizationId: f.org.id, projectId: f.main.id })).rejects.toMatchObject({ status: 409 })
  })

  it('refuses a pair whose project is not in that organization', async () => {
    const f = await fixture()
    const other = await fixture()
    const admin = await user('admin', { isAdmin: true })
    await expect(setSelfEnrollTargets(actorFor(admin), { targets: [{ organizationId: f.org.id, projectId: other.main.id }] })).rejects.toMatchObject({
      status: 400,
    })
  })
})
