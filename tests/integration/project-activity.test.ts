/**
 * A project's Activity tab: listAuditRecords with `projectId` returns the records of that project
 * and its sub-projects only, and is readable with org.audit.view (organization level) or with
 * project.update on the project, not with project.view alone.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { DomainError } from '~/domain/errors'
import { prisma } from '~/utils/db.server'
import { actorFor } from '../setup/actor'


let orgId: string
let stageId: string
let stageLeftId: string
let volumeId: string
let member: UserActor
let stageManager: UserActor
let stageViewer: UserActor

beforeAll(async () => {
  const mk = (key: string) => prisma.user.create({ data: { email: `${key}@project-activity.test`, name: key, emailVerified: true } })
  const [o, m, pm, pv] = await Promise.all([mk('owner'), mk('member'), mk('manager'), mk('viewer')])
  orgId = (await prisma.organization.create({ data: { name: 'Activity Org', ownerId: o.id } })).id
  stageId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage' } })).id
  stageLeftId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Stage Left', parentId: stageId } })).id
  volumeId = (await prisma.project.create({ data: { organizationId: orgId, name: 'Volume' } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: m.id, roleId: DEFAULT_ROLE_IDS.orgMember, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: pm.id, roleId: DEFAULT_ROLE_IDS.projectManager, organizationId: orgId, projectId: stageId } })
    await tx.accessRight.create({ data: { userId: pv.id, roleId: DEFAULT_ROLE_IDS.projectViewer, organizationId: orgId, projectId: stageId } })
    for (const u of [m, pm, pv]) await compileUserAcls(tx, u.id, orgId)
  })
  member = actorFor(m)
  stageManager = actorFor(pm)
  stageViewer = actorFor(pv)
  const record = (projectId: string | null, message: string, secondsAgo: number) => ({
    organizationId: orgId,
    projectId,
    userName: 'tester',
    action: 'test',
    message,
    createdAt: new Date(Date.now() - secondsAgo * 1000),
  })
  await prisma.auditRecord.createMany({
    data: [
      record(null, 'Organization renamed', 50),
      record(stageId, 'Stage renamed', 40),
      record(stageLeftId, 'Stage Left created', 30),
      record(volumeId, 'Volume renamed', 20),
      ...Array.from({ length: 21 }, (_, i) => record(stageLeftId, `Stage Left change ${i}`, 10 - i * 0.1)),
    ],
  })
})

const messages = (page: { records: { message: string }[] }) => page.records.map((r) => r.message)

describe("a project's activity log", () => {
  it('holds the records of the project and its sub-projects, newest first, paged by cursor', async () => {
    const first = await listAuditRecords(member, { organizationId: orgId, projectId: stageId })
    expect(first.records).toHaveLength(20)
    const second = await listAuditRecords(member, { organizationId: orgId, projectId: stageId, cursor: first.nextCursor })
    expect(second.nextCursor).toBeNull()
    const all = [...messages(first), ...messages(second)]
    expect(all).toHaveLength(23)
    expect(all[0]).toBe('Stage Left change 20')
    expect(all.slice(-2)).toEqual(['Stage Left created', 'Stage renamed'])
    expect(all).not.toContain('Volume renamed')
    expect(all).not.toContain('Organization renamed')

    // a leaf project: its own records only
    expect(messages(await listAuditRecords(member, { organizationId: orgId, projectId: volumeId }))).toEqual(['Volume renamed'])
    // without projectId: the whole organization
    const organizationLog = await listAuditRecords(member, { organizationId: orgId, limit: 100 })
    expect(messages(organizationLog)).toContain('Organization renamed')
    expect(organizationLog.records).toHaveLength(25)
  })

  it('is readable with project.update on the project, not with project.view alone nor on another project', async () => {
    // a project manager of Stage: Stage and (inherited) Stage Left, but neither Volume nor the organization's log
    expect(messages(await listAuditRecords(stageManager, { organizationId: orgId, projectId: stageLeftId, limit: 100 }))).toContain('Stage Left created')
    await expect(listAuditRecords(stageManager, { organizationId: orgId, projectId: volumeId })).rejects.toMatchObject({ status: 403 })
    await expect(listAuditRecords(stageManager, { organizationId: orgId })).rejects.toMatchObject({ status: 403 })
    // a project viewer of Stage sees the project, not its log
    await expect(listAuditRecords(stageViewer, { organizationId: orgId, projectId: stageId })).rejects.toBeInstanceOf(DomainError)
    await expect(listAuditRecords(stageViewer, { organizationId: orgId, projectId: stageId })).rejects.toMatchObject({ status: 403 })
    // a project of another organization (or none) is refused, not searched
    await expect(listAuditRecords(member, { organizationId: orgId, projectId: 'no-such-project-0000' })).rejects.toMatchObject({ status: 403 })
  })
})
