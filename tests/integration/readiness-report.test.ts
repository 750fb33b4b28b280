/**
 * The pre-show readiness report of a project: version baseline deviations (most common version per
 * component and product), open issues by severity, offline agents and tiles over temperature, over
 * the project and its subprojects only; project.view required; CSV form.
 */
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { emitChange } from '~/domain/events/bus.server'
import { PAGE_DEVIATION_LIMITS, readinessCsv, readinessPage, readinessReport } from '~/domain/readiness/readiness.server'
import { csvLine } from '~/utils/csv'
import { prisma } from '~/utils/db.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { actorFor } from '../setup/actor'

const NOW = Date.UTC(2026, 5, 1, 12)
let orgId: string
let show: string
let other: string
let owner: UserActor
let otherViewer: UserActor

beforeAll(async () => {
  const mk = (key: string) => prisma.user.create({ data: { email: `${key}@ready.test`, name: key, emailVerified: true } })
  const [o, v] = await Promise.all([mk('owner'), mk('other-viewer')])
  orgId = (await prisma.organization.create({ data: { name: 'Ready Org', ownerId: o.id } })).id
  show = (await prisma.project.create({ data: { organizationId: orgId, name: 'Main Stage' } })).id
  const sub = (await prisma.project.create({ data: { organizationId: orgId, name: 'Side Fill', parentId: show } })).id
  other = (await prisma.project.create({ data: { organizationId: orgId, name: 'Other' } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: o.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: v.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId: other } })
    for (const u of [o, v]) await compileUserAcls(tx, u.id, orgId)
  })
  owner = actorFor(o)
  otherViewer = actorFor(v)
  // four agents on the show (one in the subproject), one elsewhere; agent 4 offline for an hour
  const specs = [
    { name: 'Wall A', project: show, version: '2.1', proc: '5.0', tiles: '1.4', seen: NOW - 60_000 },
    { name: 'Wall B', project: show, version: '2.1', proc: '5.0', tiles: '1.4', seen: NOW - 60_000 },
    { name: 'Wall C', project: sub, version: '2.1', proc: '4.9', tiles: '1.4', seen: NOW - 60_000 },
    { name: 'Wall D', project: show, version: '2.0', proc: '5.0', tiles: '1.3', seen: NOW - 3_600_000 },
    { name: 'Elsewhere', project: other, version: '1.0', proc: '1.0', tiles: '0.1', seen: NOW - 9_000_000 },
  ]
  for (const s of specs) {
    const agent = await prisma.agent.create({ data: { clientName: s.name, secretHash: 'x', organizationId: orgId, product: 'Helios', version: s.version, lastSeen: new Date(s.seen) } })
    const system = await prisma.system.create({ data: { agentId: agent.id, key: 'sys', name: `${s.name} system`, projectId: s.project } })
    await prisma.device.create({ data: { systemId: system.id, key: 'proc', component: 'processor', product: 'P1', versionSoftware: s.proc } })
    await prisma.device.create({ data: { systemId: system.id, key: 'tiles', component: 'receiver', product: 'T1', versionFirmware: s.tiles, count: 10 } })
    const issue = (key: string, severity: number, isActive = true) =>
      prisma.issue.create({ data: { systemId: system.id, kind: 'alert', key, component: 'receiver', deviceKey: 'tiles', message: key === 'recv.tempHigh' ? 'Tile too hot' : key, severity, latestAt: new Date(NOW), isActive } })
    if (s.name === 'Wall B') await issue('recv.tempHigh', 3)
    if (s.name === 'Wall C') {
      await issue('proc.noInput', 2)
      await issue('recv.tempHigh', 3, false)
    }
    if (s.name === 'Elsewhere') await issue('recv.tempHigh', 2)
  }
})

describe('readiness report', () => {
  it('lists baseline deviations, open issues by severity, offline agents and hot tiles of the project and its subprojects', async () => {
    const r = await readinessReport(owner, orgId, show, NOW)
    expect(r.project).toMatchObject({ name: 'Main Stage', subProjects: 1 })
    expect(r.summary).toEqual({ agents: 4, agentsOffline: 1, baselineDeviations: 1 + 1 + 10, openIssues: 2, criticalOrErrorIssues: 2, tilesOverTemperature: 1, ready: false })
    const group = (component: string) => r.baselines.find((g) => g.component === component)!
    expect(group('agent')).toMatchObject({ product: 'Helios', baseline: { software: '2.1', count: 3 }, total: 4 })
    expect(group('agent').deviations.map((d) => [d.agentName, d.software])).toEqual([['Wall D', '2.0']])
    expect(group('processor').baseline).toMatchObject({ software: '5.0', count: 3 })
    expect(group('processor').deviations.map((d) => [d.agentName, d.software, d.count])).toEqual([['Wall C', '4.9', 1]])
    expect(group('receiver')).toMatchObject({ baseline: { firmware: '1.4', count: 30 }, total: 40 })
    expect(group('receiver').deviations.map((d) => [d.agentName, d.systemName, d.firmware, d.count])).toEqual([['Wall D', 'Wall D system', '1.3', 10]])
    expect(r.issuesBySeverity.find((s) => s.label === 'Critical')).toMatchObject({ alerts: 1 })
    expect(r.issuesBySeverity.find((s) => s.label === 'Error')).toMatchObject({ alerts: 1 })
    expect(r.openIssues.map((i) => [i.severityLabel, i.key, i.agentName])).toEqual([['Critical', 'proc.noInput', 'Wall C'], ['Error', 'recv.tempHigh', 'Wall B']])
    expect(r.offline.map((a) => [a.name, a.lastSeen])).toEqual([['Wall D', new Date(NOW - 3_600_000).toISOString()]])
    // the cleared tempHigh of Wall C and the hot tile of another project are not listed
    expect(r.tilesOverTemperature.map((i) => [i.agentName, i.deviceKey, i.message])).toEqual([['Wall B', 'tiles', 'Tile too hot']])
    expect(group('receiver').deviationsTotal).toBe(1)
    // the web page's shorter lists (PAGE_LIST_LIMIT): the lists are cut, the counts stay exact
    const cut = await readinessReport(owner, orgId, show, NOW, 0)
    expect(cut.summary).toEqual(r.summary)
    expect(cut.baselines.map((g) => [g.component, g.deviationsTotal, g.deviations.length])).toEqual(r.baselines.map((g) => [g.component, g.deviations.length, 0]))
    expect([cut.offline, cut.openIssues, cut.openIssuesTruncated]).toEqual([[], [], true])
  })

  it('is a ready report on a healthy subproject, and closed to members without project.view there', async () => {
    const sub = await prisma.project.findFirstOrThrow({ where: { name: 'Side Fill' } })
    await prisma.issue.updateMany({ where: { key: 'proc.noInput' }, data: { isActive: false } })
    const r = await readinessReport(owner, orgId, sub.id, NOW)
    expect(r.project.name).toBe('Main Stage / Side Fill')
    expect(r.summary).toMatchObject({ agents: 1, agentsOffline: 0, openIssues: 0, tilesOverTemperature: 0, ready: true })
    await expect(readinessReport(otherViewer, orgId, show, NOW)).rejects.toMatchObject({ status: 403 })
    await expect(readinessReport(owner, orgId, 'nope', NOW)).rejects.toMatchObject({ status: 404 })
    expect((await readinessReport(otherViewer, orgId, other, NOW)).summary.tilesOverTemperature).toBe(1)
  })

  it('downloads as CSV with one section per part', async () => {
    const csv = readinessCsv(await readinessReport(owner, orgId, show, NOW), csvLine)
    const lines = csv.split('\r\n')
    expect(lines[0]).toMatch(/^Readiness report,Main Stage,2026-06-01T12:00:00.000Z$/)
    expect(lines).toContain('Baseline deviation,receiver,T1,Wall D,Wall D system,,1.3,,1.4,10')
    expect(lines).toContain('Open issues,Error,1,0')
    expect(lines).toContain('Tile over temperature,Error,alert,recv.tempHigh,Wall B,Wall B system,receiver,tiles,Tile too hot,2026-06-01T12:00:00.000Z')
    expect(lines.some((l) => l.startsWith('Agent offline,Wall D,'))).toBe(true)
  })

  it('cuts each list at its limit by name, ignoring case, while the counts stay exact', async () => {
    const arena = (await prisma.project.create({ data: { organizationId: orgId, name: 'Arena' } })).id
    // three on the baseline (5.0), three off it; binary order would put Bravo before alpha
    for (const [name, version] of [['delta', '5.0'], ['echo', '5.0'], ['foxtrot', '5.0'], ['charlie', '4.1'], ['Bravo', '3.9'], ['alpha', '4.0']]) {
      const agent = await prisma.agent.create({ data: { clientName: name, secretHash: 'x', organizationId: orgId, product: 'Arena', version, lastSeen: null } })
      const system = await prisma.system.create({ data: { agentId: agent.id, key: 'sys', name: `${name} system`, projectId: arena } })
      await prisma.device.create({ data: { systemId: system.id, key: 'proc', component: 'processor', product: 'P9', versionSoftware: version } })
    }
    const r = await readinessReport(owner, orgId, arena, NOW, 500, 2)
    for (const component of ['agent', 'processor']) {
      const group = r.baselines.find((g) => g.component === component)!
      expect(group).toMatchObject({ baseline: { software: '5.0', count: 3 }, total: 6, deviationsTotal: 3 })
      expect(group.deviations.map((d) => d.agentName)).toEqual(['alpha', 'Bravo'])
    }
    expect(r.summary).toMatchObject({ agents: 6, agentsOffline: 6, baselineDeviations: 6 })
    // never seen: offline, listed by name too
    expect(r.offline.map((a) => [a.name, a.lastSeen, a.systems])).toEqual(['alpha', 'Bravo', 'charlie', 'delta', 'echo', 'foxtrot'].map((n) => [n, null, 1]))
  })

  it('shares the web page report between viewers of the same projects until a change is announced', async () => {
    const arena = (await prisma.project.findFirstOrThrow({ where: { organizationId: orgId, name: 'Arena' } })).id
    // kept a minute (the most the setting allows): on a busy machine the steps below may take longer than the 5 s a shared report lives
    const config = getConfig()
    setConfig({ ...config, FLEET_READ_CACHE_MS: 60_000 })
    onTestFinished(() => setConfig(config))
    const page = await readinessPage(owner, orgId, arena)
    expect(page.baselines.find((g) => g.component === 'processor')!.deviations).toHaveLength(Math.min(3, PAGE_DEVIATION_LIMITS[0]))
    expect(await readinessPage(owner, orgId, arena)).toBe(page)
    await expect(readinessPage(otherViewer, orgId, arena)).rejects.toMatchObject({ status: 403 })
    await prisma.project.update({ where: { id: arena }, data: { name: 'Arena North' } })
    expect((await readinessPage(owner, orgId, arena)).project.name).toBe('Arena')
    emitChange({ organizationId: orgId, kind: 'project' })
    expect((await readinessPage(owner, orgId, arena)).project.name).toBe('Arena North')
  })
})
