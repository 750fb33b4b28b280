/**
 * API token scopes, expiry, service tokens and their audit trail, through /client/v1 as a script
 * would call it: the scope narrows the actor once, and the domain's checks refuse the rest.
 */
import { describe, expect, it } from 'vitest'
import { type UserActor } from '~/domain/actor'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { createApiToken } from '~/domain/auth/api-tokens.server'
import { READ_ONLY_PERMISSIONS } from '~/domain/auth/token-scope'
import { action as apiAction } from '~/routes/client.v1.$'
import { prisma } from '~/utils/db.server'

let counter = 0
const actorOf = (u: { id: string; email: string; name: string; isAdmin?: boolean }): UserActor => ({
  kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: Boolean(u.isAdmin), ip: '10.4.0.1', userAgent: 'vitest',
})

async function call(name: string, token: string, body: object = {}) {
  const request = new Request(`http://portal.test/client/v1/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  const response = await apiAction({ request, params: { '*': name }, context: {} })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { message?: string; code?: string } }
}

/** An organization with its owner and an Organization Admin who is not the owner. */
async function world() {
  const n = ++counter
  const owner = await prisma.user.create({ data: { email: `owner${n}@scopes.test`, name: `Owner ${n}`, emailVerified: true } })
  const admin = await prisma.user.create({ data: { email: `admin${n}@scopes.test`, name: `Admin ${n}`, emailVerified: true, isAdmin: true } })
  const org = await prisma.organization.create({ data: { name: `Scopes ${n}`, ownerId: owner.id } })
  await prisma.$transaction(async (tx) => {
    for (const u of [owner, admin]) {
      await tx.accessRight.create({ data: { userId: u.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
      await compileUserAcls(tx, u.id)
    }
  })
  return { owner, admin, org }
}

describe('API token scopes', () => {
  it('a read-only token reads, but every write answers 403 and changes nothing', async () => {
    const { owner, admin, org } = await world()
    const { token } = await createApiToken(actorOf(owner), { name: 'Dashboard', scope: 'read' })
    expect((await call('project/list', token, { organizationId: org.id })).status).toBe(200)

    const writes: [string, object][] = [
      ['organization/update', { id: org.id, doc: { name: 'Renamed' } }],
      ['project/create', { organizationId: org.id, project: { name: 'Nope' } }],
      ['organization/delete', { id: org.id }], // the owner's own power is not carried by the token
      ['organization/memberRemove', { organizationId: org.id, userId: admin.id }],
      ['auth/nameChange', { uid: owner.id, name: 'Hacker' }],
      ['token/create', { name: 'Wider', scope: 'full' }],
      ['organization/create', { name: 'Another' }],
      ['organization/serviceTokenCreate', { organizationId: org.id, name: 'CI' }],
    ]
    for (const [name, body] of writes) {
      const res = await call(name, token, body)
      expect(res.status, `${name}: ${res.body.message}`).toBe(403)
    }
    const after = await prisma.organization.findUniqueOrThrow({ where: { id: org.id } })
    expect(after.name).toBe(org.name)
    expect(await prisma.project.count({ where: { organizationId: org.id } })).toBe(0)
    expect(await prisma.accessRight.count({ where: { organizationId: org.id } })).toBe(2)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: owner.id } })).name).toBe(owner.name)
    expect(await prisma.apiToken.count({ where: { userId: owner.id } })).toBe(1)
    expect(await prisma.organization.count({ where: { ownerId: owner.id } })).toBe(1)
  })

  it("a site admin's read-only token has no staff powers", async () => {
    const { admin } = await world()
    const { token } = await createApiToken(actorOf(admin), { name: 'Staff read', scope: 'read' })
    expect((await call('admin/users', token, {})).status).toBe(403)
    const full = await createApiToken(actorOf(admin), { name: 'Staff full' })
    expect((await call('admin/users', full.token, {})).status).toBe(200)
  })

  it('a custom scope allows exactly its permissions', async () => {
    const { owner, org } = await world()
    const { token, scope, permissions } = await createApiToken(actorOf(owner), { name: 'Projects bot', scope: 'custom', permissions: ['project.view', 'project.create'] })
    expect({ scope, permissions }).toEqual({ scope: 'custom', permissions: ['project.view', 'project.create'] })
    const created = await call('project/create', token, { organizationId: org.id, project: { name: 'Stage B' } })
    expect(created.status).toBe(200)
    expect((await call('organization/update', token, { id: org.id, doc: { name: 'X' } })).status).toBe(403)
    expect((await call('organization/memberList', token, { organizationId: org.id })).status).toBe(403)
    // bad input is refused with a clear message and creates nothing
    const before = await prisma.apiToken.count()
    await expect(createApiToken(actorOf(owner), { name: 'Bad', scope: 'custom', permissions: ['project.fly'] })).rejects.toMatchObject({ status: 400, message: "Unknown permission 'project.fly'" })
    await expect(createApiToken(actorOf(owner), { name: 'Bad', scope: 'custom' })).rejects.toMatchObject({ status: 400 })
    await expect(createApiToken(actorOf(owner), { name: 'Bad', expiresInDays: 3 })).rejects.toMatchObject({ message: 'Expiry must be 1, 7, 30 or 90 days, or none' })
    expect(await prisma.apiToken.count()).toBe(before)
  })

  it('an expired token is refused with 401 and a message naming it', async () => {
    const { owner } = await world()
    const { token, id, expiresAt } = await createApiToken(actorOf(owner), { name: 'Short', expiresInDays: 1 })
    expect(expiresAt!.getTime() - Date.now()).toBeGreaterThan(23 * 3600_000)
    expect((await call('auth/authorized', token)).status).toBe(200)
    await prisma.apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const res = await call('auth/authorized', token)
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('mvr-auth/token-expired')
    expect(res.body.message).toContain('"Short" expired')
  })

  it('records last use at most once a minute', async () => {
    const { owner } = await world()
    const { token, id } = await createApiToken(actorOf(owner), { name: 'Busy' })
    await call('auth/authorized', token)
    const first = (await prisma.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt!
    await call('auth/authorized', token)
    expect((await prisma.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(first)
  })

  it('audits a change made through a token with the token name', async () => {
    const { owner, org } = await world()
    const { token } = await createApiToken(actorOf(owner), { name: 'Deploy script' })
    expect((await call('project/create', token, { organizationId: org.id, project: { name: 'Via token' } })).status).toBe(200)
    const record = await prisma.auditRecord.findFirstOrThrow({ where: { organizationId: org.id }, orderBy: { createdAt: "desc" } })
    expect(record.userName).toBe(`${owner.name} via token Deploy script`)
  })

  it('audits every call through a token, reads and refusals too, with the token name and the answer', async () => {
    const { owner, org } = await world()
    const { token } = await createApiToken(actorOf(owner), { name: 'Poller', scope: 'read' })
    expect((await call('project/list', token, { organizationId: org.id })).status).toBe(200)
    expect((await call('project/create', token, { organizationId: org.id, project: { name: 'Nope' } })).status).toBe(403)
    const records = await prisma.auditRecord.findMany({ where: { userId: owner.id, action: 'api.call' }, orderBy: { createdAt: 'asc' } })
    expect(records.map((r) => [r.userName, r.message, r.organizationId])).toEqual([
      [`${owner.name} via token Poller`, 'project/list answered 200', null],
      [`${owner.name} via token Poller`, 'project/create answered 403', null],
    ])
  })
})

describe('organization service tokens', () => {
  it('belong to the organization: they survive the creator leaving, act only there, and are audited by name', async () => {
    const { owner, admin, org } = await world()
    const other = await prisma.organization.create({ data: { name: `Other ${counter}`, ownerId: owner.id } })
    const created = await call('organization/serviceTokenCreate', (await createApiToken(actorOf(admin), { name: 'admin cli' })).token, {
      organizationId: org.id, name: 'CI', scope: 'full', expiresInDays: 90,
    })
    expect(created.status).toBe(200)
    const ci = created.body as unknown as { token: string; id: string; createdByName: string; permissions: string[] }
    expect(ci.createdByName).toBe(admin.name)
    expect(ci.permissions).toContain('project.create')
    expect(ci.permissions).not.toContain('org.delete')

    // the admin is removed from the organization by the owner
    expect((await call('organization/memberRemove', (await createApiToken(actorOf(owner), { name: 'owner' })).token, { organizationId: org.id, userId: admin.id })).status).toBe(200)
    expect(await prisma.accessRight.count({ where: { organizationId: org.id, userId: admin.id } })).toBe(0)

    const made = await call('project/create', ci.token, { organizationId: org.id, project: { name: 'Built by CI' } })
    expect(made.status, made.body.message).toBe(200)
    const record = await prisma.auditRecord.findFirstOrThrow({ where: { organizationId: org.id, action: { startsWith: 'project' } }, orderBy: { createdAt: "desc" } })
    expect(record.userName).toBe('Service account via token CI')
    // only its own organization, and nothing reserved to the owner or the account
    expect((await call('project/list', ci.token, { organizationId: other.id })).status).toBe(403)
    expect((await call('organization/delete', ci.token, { id: org.id })).status).toBe(403)
    expect((await call('organization/create', ci.token, { name: 'Spawned' })).status).toBe(403)

    const ownerActor = actorOf(owner)
    const { token: ownerFull } = await createApiToken(ownerActor, { name: 'owner 2' })
    const listed = await call('organization/serviceTokenList', ownerFull, { organizationId: org.id })
    expect((listed.body.tokens as { name: string }[]).map((t) => t.name)).toEqual(['CI'])
    expect((await call('organization/serviceTokenRevoke', ownerFull, { organizationId: org.id, id: ci.id })).status).toBe(200)
    expect((await call('project/list', ci.token, { organizationId: org.id })).status).toBe(401)
    const audits = await prisma.auditRecord.findMany({ where: { organizationId: org.id, action: { startsWith: 'serviceToken' } }, select: { action: true } })
    expect(audits.map((a) => a.action).sort()).toEqual(['serviceToken.create', 'serviceToken.revoke'])
  })

  it('need org.update, and a read-only service token gets only view and list permissions', async () => {
    const { owner, org } = await world()
    const member = await prisma.user.create({ data: { email: `member${counter}@scopes.test`, name: 'Member', emailVerified: true } })
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.create({ data: { userId: member.id, roleId: DEFAULT_ROLE_IDS.orgMember, organizationId: org.id } })
      await compileUserAcls(tx, member.id)
    })
    const { token: memberToken } = await createApiToken(actorOf(member), { name: 'member' })
    expect((await call('organization/serviceTokenCreate', memberToken, { organizationId: org.id, name: 'Sneaky' })).status).toBe(403)
    expect((await call('organization/serviceTokenList', memberToken, { organizationId: org.id })).status).toBe(403)
    const { token: ownerToken } = await createApiToken(actorOf(owner), { name: 'owner' })
    const read = await call('organization/serviceTokenCreate', ownerToken, { organizationId: org.id, name: 'Monitor', scope: 'read' })
    const perms = (read.body as { permissions: string[] }).permissions
    expect(perms.length).toBeGreaterThan(0)
    expect(perms.every((p) => READ_ONLY_PERMISSIONS.includes(p as never))).toBe(true)
    const token = (read.body as { token: string }).token
    expect((await call('project/list', token, { organizationId: org.id })).status).toBe(200)
    expect((await call('project/create', token, { organizationId: org.id, project: { name: 'No' } })).status).toBe(403)
  })
})
