import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { systemActor } from '~/domain/actor'
import { enrollAgent, lookupApplication } from '~/domain/agents/enrollment.server'
import { emitChange } from '~/domain/events/bus.server'
import { prisma } from '~/utils/db.server'
import { DEFAULT_PROVISIONING_KEY } from '../../protocol'
import { DEMO_ORG_ID, DEMO_PROJECTS, seedDemo } from '../../prisma/seed-data'
import { type Enroller, type Fleet, FleetOptionsError, FleetStartError, startFleet } from '../../simulator/fleet'
import { runSimulatorCli } from '../../simulator/cli'
import { demoStateDir, startDemoFleet } from '../../simulator/demo.server'
import { startTestBroker } from '../broker/mqtt-helpers'

const broker = startTestBroker()
const stateDirs: string[] = []
const fleets: Fleet[] = []

afterAll(async () => {
  await Promise.all(fleets.map((f) => f.stop()))
  for (const dir of stateDirs) fs.rmSync(dir, { recursive: true, force: true })
})

function stateDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelfleet-sim-'))
  stateDirs.push(dir)
  return dir
}

/** Polls until `check` returns a value that is not undefined/false (the ingest writes in batches). */
async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const enrollAsSystem: Enroller = (request) => enrollAgent(systemActor('simulator test'), request)

async function start(options: Partial<Parameters<typeof startFleet>[0]>) {
  const fleet = await startFleet({ url: broker.url, progress: 'off', log: () => {}, interval: '300ms', ...options })
  fleets.push(fleet)
  return fleet
}

describe('simulated fleet against the real broker', () => {
  test('agents register, enroll into the projects, and their systems, devices and alerts reach the portal', async () => {
    await seedDemo()
    const projectIds = [DEMO_PROJECTS[1].id, DEMO_PROJECTS[4].id]
    const dir = stateDir()
    const fleet = await start({ agents: 3, scenario: 'tempHigh', seed: 11, stateDir: dir, organizationId: DEMO_ORG_ID, projectIds, enroll: enrollAsSystem })
    expect(fleet.failures).toEqual([])
    expect(fleet.agents).toHaveLength(3)
    expect(fleet.applications).toEqual([])

    const ids = fleet.agents.map((a) => a.agentId!)
    const agents = await prisma.agent.findMany({ where: { id: { in: ids } }, include: { systems: true } })
    expect(agents.map((a) => a.organizationId)).toEqual([DEMO_ORG_ID, DEMO_ORG_ID, DEMO_ORG_ID])
    expect(agents.map((a) => a.product)).toEqual(['Pixelfleet Edge Agent', 'Pixelfleet Edge Agent', 'Pixelfleet Edge Agent'])
    expect(new Set(agents.flatMap((a) => a.systems.map((s) => s.projectId)))).toEqual(new Set(projectIds))
    expect(agents.every((a) => a.dataSegsOut > 0 && a.lastSeen)).toBe(true)

    const processor = await prisma.device.findFirst({ where: { system: { agentId: ids[0] }, component: 'processor' } })
    expect(JSON.parse(processor!.properties)).toMatchObject({ inputSource: expect.any(String), inputFormat: expect.any(String), tilesInfo: { tiles: expect.any(Number) } })
    expect(await prisma.device.count({ where: { system: { agentId: { in: ids } }, component: 'receiver' } })).toBeGreaterThan(3)

    // Tiles overheat within a few reports: the portal stores recv.tempHigh with its history.
    const issue = await eventually(
      () => prisma.issue.findFirst({ where: { system: { agentId: { in: ids } }, key: 'recv.tempHigh', latestCount: { gt: 0 } }, include: { history: true } }).then((i) => i ?? undefined),
      'recv.tempHigh in the database',
    )
    expect(issue).toMatchObject({ kind: 'alert', component: 'receiver', isActive: true })
    expect([2, 3]).toContain(issue.severity)

    // Enrolled agents learn where the relay is, and obey configuration the portal pushes.
    const [first] = fleet.agents
    expect(await eventually(() => Promise.resolve(first.tunnelConfig), 'the tunnel config')).toMatchObject({ enabled: true, relayUrl: expect.any(String) })
    await first.setClientConfig({ reportIntervalSeconds: 2 })
    expect(first.interval).toBe(2000)
    // A change made on the portal side reaches the agent on its retained config topic.
    await prisma.agent.update({ where: { id: first.agentId }, data: { config: JSON.stringify({ reportIntervalSeconds: 3 }) } })
    emitChange({ organizationId: DEMO_ORG_ID, kind: 'agent', ids: [first.agentId!] })
    await eventually(() => Promise.resolve(first.interval === 3000), 'the pushed report interval')

    // A restarted fleet with the same state directory is the same agents: nothing duplicated, still enrolled.
    await fleet.stop()
    const agentCount = await prisma.agent.count()
    const again = await start({ agents: 3, scenario: 'tempHigh', seed: 11, stateDir: dir, organizationId: DEMO_ORG_ID, projectIds, enroll: enrollAsSystem })
    expect(again.agents.map((a) => a.agentId).sort()).toEqual([...ids].sort())
    expect(again.agents.every((a) => a.enrolled)).toBe(true)
    expect(await prisma.agent.count()).toBe(agentCount)
    await again.stop()
  })

  test('without auto-enroll each agent shows an enrollment code a person can look up', async () => {
    const fleet = await start({ agents: 2, scenario: 'healthy', seed: 'codes', stateDir: null })
    expect(fleet.applications).toHaveLength(2)
    const [first] = fleet.applications
    expect(first.applicationCode).toMatch(/^[A-Z2-9]{3}-[A-Z2-9]{2}-[A-Z2-9]{3}$/)
    const lookup = await lookupApplication(systemActor('simulator test'), first.applicationCode)
    expect(lookup).toMatchObject({ agentProduct: 'Pixelfleet Edge Agent', agentName: first.name })
    await fleet.stop()
  })

  test('an agent whose saved credentials the portal does not know registers again', async () => {
    const dir = stateDir()
    const fleet = await start({ agents: 1, scenario: 'healthy', seed: 'forgotten', stateDir: dir })
    const firstId = fleet.agents[0].agentId!
    await fleet.stop()
    await prisma.agent.delete({ where: { id: firstId } })
    const again = await start({ agents: 1, scenario: 'healthy', seed: 'forgotten', stateDir: dir })
    expect(again.agents[0].agentId).not.toBe(firstId)
    expect(await prisma.agent.findUnique({ where: { id: again.agents[0].agentId! } })).not.toBeNull()
    await again.stop()
  })

  test('bad options and an unreachable broker fail with clear messages', async () => {
    await expect(startFleet({ agents: 0, progress: 'off' })).rejects.toThrow(FleetOptionsError)
    await expect(startFleet({ scenario: 'meltdown' as never, progress: 'off' })).rejects.toThrow(/scenario must be one of healthy, mixed/)
    await expect(startFleet({ interval: 'soon', progress: 'off' })).rejects.toThrow(/interval must be a duration/)
    await expect(startFleet({ organizationId: DEMO_ORG_ID, progress: 'off' })).rejects.toThrow(/needs a project/)
    await expect(startFleet({ url: 'http://localhost:1', progress: 'off' })).rejects.toThrow(/must start with mqtt:\/\//)
    await expect(startFleet({ agents: 1, provisioningKey: 'not-the-key', url: broker.url, stateDir: null, progress: 'off', log: () => {} })).rejects.toThrow(FleetStartError)
  })
})

describe('demo fleet of npm start', () => {
  test('enrolls its agents into the demo projects once; a restart brings back the same agents', async () => {
    await seedDemo()
    const databaseUrl = `file:${path.join(stateDir(), 'demo.db')}`
    expect(demoStateDir(databaseUrl)).toBe(path.join(path.dirname(databaseUrl.slice(5)), 'simulator', 'demo'))
    const mqttPort = Number(new URL(broker.url).port)
    const lines: string[] = []
    const options = { agents: 2, mqttPort, provisioningKey: DEFAULT_PROVISIONING_KEY, databaseUrl, log: (line: string) => lines.push(line) }
    const before = await prisma.agent.count()
    const enrolledBefore = await prisma.agent.count({ where: { organizationId: DEMO_ORG_ID } })

    const demo = startDemoFleet(options)
    await eventually(() => Promise.resolve(lines.find((l) => l.startsWith('Demo fleet: 2 simulated agent(s)'))), 'the demo fleet to start')
    expect(await prisma.agent.count({ where: { organizationId: DEMO_ORG_ID } })).toBe(enrolledBefore + 2)
    const audits = await prisma.auditRecord.findMany({ where: { organizationId: DEMO_ORG_ID, action: 'agent.enroll' } })
    expect(audits.some((a) => a.userName.includes('demo fleet'))).toBe(true)
    await demo.stop()

    const restarted = startDemoFleet(options)
    await eventually(() => Promise.resolve(lines.filter((l) => l.startsWith('Demo fleet: 2')).length === 2), 'the demo fleet to restart')
    await restarted.stop()
    expect(await prisma.agent.count()).toBe(before + 2)
  })
})

describe('simulate command line', () => {
  test('bad options exit with code 2 and name the option', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(await runSimulatorCli(['--agents', 'many'])).toBe(2)
    expect(await runSimulatorCli(['--scenario', 'meltdown'])).toBe(2)
    expect(errors.mock.calls.flat().join('\n')).toMatch(/agents: Expected number|scenario must be one of/)
    expect(await runSimulatorCli(['--duration', 'forever'])).toBe(2)
    expect(await runSimulatorCli(['--org', DEMO_ORG_ID, '--token', 'x'])).toBe(2)
    errors.mockRestore()
  })

  test('a refused provisioning key exits with code 3', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const code = await runSimulatorCli(['--agents', '1', '--url', broker.url, '--no-state', '--no-progress', '--provisioning-key', 'not-the-right-key'])
    expect(code).toBe(3)
    expect(errors.mock.calls.flat().join('\n')).toMatch(/No agent could start: .*Bad username or password/i)
    errors.mockRestore()
  })

  test('--json prints the started agents with their enrollment codes, --duration stops them', async () => {
    const printed = vi.spyOn(console, 'log').mockImplementation(() => {})
    const code = await runSimulatorCli(['--agents', '2', '--url', broker.url, '--no-state', '--seed', 'json', '--json', '--duration', '500ms'])
    expect(code).toBe(0)
    const report = JSON.parse(String(printed.mock.calls[0][0]))
    printed.mockRestore()
    expect(report).toMatchObject({ scenario: 'mixed', failures: [] })
    expect(report.agents).toHaveLength(2)
    expect(report.agents[0]).toMatchObject({ enrolled: false, applicationCode: expect.stringMatching(/^\w{3}-\w{2}-\w{3}$/) })
  })
})
