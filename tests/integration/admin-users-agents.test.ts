/**
 * Admin > Users and Admin > Agents through /client/v1 (spec 01 sections 2, 7, 9): who may call,
 * the edit rules (own account, vendor domain), disabling that cuts a user off at once, paging and
 * the agents' name filter; and the developer pages refused to everyone but site admins.
 */
import { describe, expect, it } from 'vitest'
import { adminStatus } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS, Scope } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { createApiToken, listEndedApiTokens } from '~/domain/auth/api-tokens.server'
import { createSession, resolveToken } from '~/domain/auth/session.server'
import { createRole } from '~/domain/roles/roles.server'
import { action as apiAction } from '~/routes/client.v1.$'
import { loader as devIndexLoader } from '~/routes/dev._index'
import { loader as devMailLoader } from '~/routes/dev.mail'
import { loader as devOtherLoader } from '~/routes/dev.$'
import { getCurrentUser } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

let n = 0
const info = { ip: '10.7.0.1', userAgent: 'vitest' }

async function person(label: string, extra: { isAdmin?: boolean; email?: string; emailVerified?: boolean; isAgent?: boolean; createdAt?: Date } = {}) {
  const { email, ...rest } = extra
  const u = await prisma.user.create({ data: { email: email ?? `${label}-${++n}@admin.test`, name: `${label} ${n}`, emailVerified: true, ...rest } })
  const actor: UserActor = { kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: Boolean(extra.isAdmin), ip: info.ip, userAgent: 'vitest' }
  const { token } = await createSession(u.id, info)
  return { ...u, actor, token }
}

async function call(name: string, token: string | null, body: object = {}) {
  const request = new Request(`http://portal.test/client/v1/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  })
  const response = await apiAction({ request, params: { '*': name }, context: {} })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { items?: { [k: string]: unknown }[]; nextPageToken?: string | null } }
}

const siteAdmin = () => person('staff', { isAdmin: true, email: `staff-${++n}@pixelfleet.io` })

/** An organization owner, and a holder of cloud.admin (a global role) who is not a site admin. */
async function outsiders() {
  const admin = await siteAdmin()
  const owner = await person('owner')
  const org = await prisma.organization.create({ data: { name: `Org ${++n}`, ownerId: owner.id } })
  const cloud = await person('cloud')
  const { id: roleId } = await createRole(admin.actor, { organizationId: '', name: `Staff ${n}`, resourceType: Scope.Global, permissions: ['cloud.admin', 'org.view'] })
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, organizationId: org.id, roleId: DEFAULT_ROLE_IDS.orgAdmin } })
    await tx.accessRight.create({ data: { userId: cloud.id, organizationId: org.id, roleId } })
    await compileUserAcls(tx, owner.id)
    await compileUserAcls(tx, cloud.id)
  })
  expect(await adminStatus(cloud.actor)).toEqual({ isSiteAdmin: false, isCloudAdmin: true })
  return { admin, owner, cloud, org }
}

describe('admin calls are for site admins only', () => {
  it('refuses every added call to an organization owner, a cloud.admin holder and anonymous callers, changing nothing', async () => {
    const { admin, owner, cloud, org } = await outsiders()
    const target = await person('target', { email: `target-${++n}@pixelfleet.io` })
    const agent = await prisma.agent.create({ data: { clientName: 'Refused Agent', secretHash: 'x', organizationId: org.id } })
    const calls: [string, object][] = [
      ['admin/users', { limit: 25 }],
      ['admin/updateUser', { uid: target.id, disabled: true }],
      ['admin/updateUser', { uid: target.id, customClaims: { admin: true } }],
      ['admin/userAclData', { userId: target.id }],
      ['admin/agents', { limit: 20, filter: 'Refused' }],
      ['admin/tunnelConnections', { agentId: agent.id }],
    ]
    for (const [name, body] of calls) {
      expect((await call(name, owner.token, body)).status, `${name} as owner`).toBe(403)
      expect((await call(name, cloud.token, body)).status, `${name} as cloud admin`).toBe(403)
      expect(await call(name, null, body), `${name} anonymous`).toMatchObject({ status: 403, body: { code: 'permission-denied' } })
      expect((await call(name, admin.token, body)).status, `${name} as site admin`).toBe(200)
      if (name === 'admin/updateUser') await prisma.user.update({ where: { id: target.id }, data: { disabled: false, isAdmin: false } })
    }
    // refused before the payload is even read: no hints from validation errors
    for (const body of [{}, { uid: 42 }, { limit: 'all' }]) expect((await call('admin/updateUser', owner.token, body)).status).toBe(403)
    // The refused calls changed nothing: only the site admin's two changes (and their undo) happened.
    expect(await prisma.auditRecord.count({ where: { userId: { in: [owner.id, cloud.id] }, action: { startsWith: 'user.' } } })).toBe(0)
  })
})

describe('admin/updateUser', () => {
  it('refuses changes to one’s own account, grants admin only to verified vendor addresses and audits each change', async () => {
    const admin = await siteAdmin()
    const own = await call('admin/updateUser', admin.token, { uid: admin.id, disabled: true })
    expect(own.status).toBe(403)
    expect((await call('admin/updateUser', admin.token, { uid: admin.id, customClaims: { admin: false } })).status).toBe(403)
    expect((await prisma.user.findUniqueOrThrow({ where: { id: admin.id } })).isAdmin).toBe(true)

    const outsider = await person('outsider') // @admin.test, verified
    const unverifiedVendor = await person('vendor', { email: `new-${++n}@pixelfleet.io`, emailVerified: false })
    const lookalike = await person('lookalike', { email: `x-${++n}@evilpixelfleet.io` })
    for (const u of [outsider, unverifiedVendor, lookalike]) {
      const refused = await call('admin/updateUser', admin.token, { uid: u.id, customClaims: { admin: true } })
      expect(refused).toMatchObject({ status: 400, body: { code: 'invalid-argument' } })
      expect((await prisma.user.findUniqueOrThrow({ where: { id: u.id } })).isAdmin).toBe(false)
    }
    const vendor = await person('vendor', { email: `Colleague-${++n}@PixelFleet.io` })
    const granted = await call('admin/updateUser', admin.token, { uid: vendor.id, customClaims: { admin: true } })
    expect(granted).toMatchObject({ status: 200, body: { uid: vendor.id, customClaims: { admin: true }, disabled: false } })
    const revoked = await call('admin/updateUser', admin.token, { uid: vendor.id, customClaims: { admin: false } })
    expect(revoked.body.customClaims).toEqual({})

    expect((await call('admin/updateUser', admin.token, { uid: vendor.id, customClaims: { mvr_agent: true } })).status).toBe(400)
    const agentAccount = await person('agent', { isAgent: true })
    expect((await call('admin/updateUser', admin.token, { uid: agentAccount.id, disabled: true })).status).toBe(404)

    const audits = await prisma.auditRecord.findMany({ where: { userId: admin.id, action: { not: 'api.call' } }, orderBy: { createdAt: 'asc' } })
    expect(audits.map((a) => a.action)).toEqual(['user.admin.grant', 'user.admin.revoke'])
    expect(audits[0].message).toContain(vendor.email)
  })

  it('disabling cuts off browser sessions, API tokens and relay sessions on the next request, audited; enabling does not revive them', async () => {
    const admin = await siteAdmin()
    const user = await person('leaver')
    const { token: apiToken } = await createApiToken(user.actor, { name: 'CI job' })
    const agent = await prisma.agent.create({ data: { clientName: 'Relay target', secretHash: 'x' } })
    const proxy = await prisma.proxySession.create({
      data: { userId: user.id, userEmail: user.email, agentId: agent.id, authCheckHash: `hash-${++n}`, expiresAt: new Date(Date.now() + 3600_000) },
    })
    expect((await call('auth/authorized', user.token)).status).toBe(200)
    expect((await call('auth/authorized', apiToken)).status).toBe(200)

    const done = await call('admin/updateUser', admin.token, { uid: user.id, disabled: true })
    expect(done).toMatchObject({ status: 200, body: { disabled: true } })
    const disabledAnswer = { status: 403, body: { code: 'mvr-auth/disabled', message: 'Account was administratively disabled' } }
    expect(await call('auth/authorized', user.token)).toMatchObject(disabledAnswer)
    expect(await call('auth/authorized', apiToken)).toMatchObject(disabledAnswer)
    // again: the reason stays known while the account is disabled
    expect(await call('organization/list', apiToken)).toMatchObject(disabledAnswer)
    // the browser: any page signs it out to the login page with the message
    const page = new Request('http://portal.test/organization/list', { headers: { authorization: `Bearer ${user.token}` } })
    const thrown = await getCurrentUser(page).catch((e: unknown) => e)
    expect(thrown).toBeInstanceOf(Response)
    expect((thrown as Response).headers.get('location')).toBe('/login?error=mvr-auth/disabled')
    expect(await prisma.auditRecord.count({ where: { userId: admin.id, action: 'user.disable' } })).toBe(1)
    expect((await prisma.proxySession.findUniqueOrThrow({ where: { id: proxy.id } })).closedAt).not.toBeNull()

    await call('admin/updateUser', admin.token, { uid: user.id, disabled: false })
    expect((await resolveToken(user.token)).status).toBe('none')
    expect((await resolveToken(apiToken)).status).toBe('none')
    const ended = await listEndedApiTokens(user.actor)
    expect(ended).toMatchObject([{ name: 'CI job', endedReason: 'account disabled' }])
    expect(await prisma.auditRecord.count({ where: { userId: admin.id, action: 'user.enable' } })).toBe(1)
  })
})

describe('admin/users paging', () => {
  it('lists 25 per page newest first, hides agent accounts and stops on a short page', async () => {
    const admin = await siteAdmin()
    const base = Date.UTC(2031, 0, 1)
    // 30 people created after everyone else (some sharing a time), plus hidden agent accounts
    for (let i = 0; i < 30; i++) await person('paged', { createdAt: new Date(base + Math.floor(i / 3) * 1000) })
    await person('robot', { isAgent: true, createdAt: new Date(base + 60_000) })
    const total = await prisma.user.count({ where: { isAgent: false } })

    const seen: string[] = []
    let pageToken: string | null = null
    let pages = 0
    do {
      const page = await call('admin/users', admin.token, { limit: 25, pageToken })
      expect(page.status).toBe(200)
      const items = page.body.items!
      seen.push(...items.map((u) => u.uid as string))
      pages++
      if (pages === 1) {
        expect(items).toHaveLength(25)
        expect((items[0].displayName as string).startsWith('paged')).toBe(true)
        expect(items[0]).toMatchObject({ emailVerified: true, disabled: false, customClaims: {} })
        expect(Object.keys(items[0]).sort()).toEqual(['customClaims', 'disabled', 'displayName', 'email', 'emailVerified', 'times', 'uid'])
      }
      pageToken = page.body.nextPageToken ?? null
      if (items.length < 25) expect(pageToken).toBeNull()
    } while (pageToken)
    expect(seen).toHaveLength(total)
    expect(new Set(seen).size).toBe(total)
    expect((await prisma.user.findMany({ where: { id: { in: seen } } })).some((u) => u.isAgent)).toBe(false)
    expect((await call('admin/users', admin.token, { pageToken: 'not-a-token' })).status).toBe(400)
  })
})

describe('admin/agents', () => {
  it('filters by any whitespace-separated word of the name, case-insensitively, and pages 20 at a time', async () => {
    const admin = await siteAdmin()
    const owner = await person('agent-owner')
    const org = await prisma.organization.create({ data: { name: 'Touring Co', ownerId: owner.id } })
    const tag = `zq${++n}`
    const names = [
      ...Array.from({ length: 23 }, (_, i) => `${tag}-Stage-${String(i).padStart(2, '0')}`),
      `${tag}-FOH Rack`,
      `Backline ${tag.toUpperCase()}-tower`,
      `Unrelated ${n}`,
    ]
    for (const clientName of names) await prisma.agent.create({ data: { clientName, secretHash: 'x', organizationId: clientName.includes('FOH') ? org.id : null } })

    const first = await call('admin/agents', admin.token, { filter: `  ${tag.toUpperCase()}-stage   nomatchword ` })
    expect(first.body.items).toHaveLength(20)
    expect(first.body.nextPageToken).toBeTruthy()
    const second = await call('admin/agents', admin.token, { filter: `${tag}-STAGE nomatchword`, pageToken: first.body.nextPageToken })
    expect(second.body.items).toHaveLength(3)
    expect(second.body.nextPageToken).toBeNull()
    const stage = [...first.body.items!, ...second.body.items!].map((a) => a.clientName)
    expect(stage).toEqual(names.slice(0, 23))

    const anyWord = await call('admin/agents', admin.token, { filter: `foh ${tag}-TOWER` })
    expect(anyWord.body.items!.map((a) => a.clientName)).toEqual([`Backline ${tag.toUpperCase()}-tower`, `${tag}-FOH Rack`])
    expect(anyWord.body.items![1]).toMatchObject({ organizationId: org.id, organizationName: 'Touring Co', enabled: true, enrollmentCodes: [] })
    expect((await call('admin/agents', admin.token, { filter: `${tag}` })).body.items).toHaveLength(20)
  })

  it('marks only the newest unused code of an unenrolled agent within 14 days as current, and lists open tunnels', async () => {
    const admin = await siteAdmin()
    const agent = await prisma.agent.create({ data: { clientName: `Codes ${++n}`, secretHash: 'x' } })
    const day = 24 * 3600_000
    await prisma.enrollmentCode.create({ data: { agentId: agent.id, code: `OLDC${n}XYZ`.slice(0, 8), createdAt: new Date(Date.now() - 20 * day) } })
    await prisma.enrollmentCode.create({ data: { agentId: agent.id, code: `NEWC${n}XYZ`.slice(0, 8), createdAt: new Date(Date.now() - day) } })
    await prisma.tunnelConnection.create({ data: { agentId: agent.id, address: '203.0.113.9', port: 50123, forwards: JSON.stringify({ 8080: { connectionsActive: 2 } }) } })
    await prisma.tunnelConnection.create({ data: { agentId: agent.id, address: '203.0.113.9', port: 50000, closedAt: new Date() } })

    const listed = await call('admin/agents', admin.token, { filter: agent.clientName })
    expect(listed.body.items![0].enrollmentCodes).toEqual([
      expect.objectContaining({ current: true }),
      expect.objectContaining({ current: false }),
    ])
    const tunnels = await call('admin/tunnelConnections', admin.token, { agentId: agent.id })
    expect(tunnels.body.items).toEqual([expect.objectContaining({ address: '203.0.113.9', port: 50123, forwards: { 8080: { connectionsActive: 2 } } })])
  })
})

describe('developer pages', () => {
  const get = (path: string, token: string | null) => new Request(`http://portal.test${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} })
  const status = async (fn: () => unknown) => {
    try {
      await fn()
      return 200
    } catch (e) {
      if (e instanceof Response) return e.status
      if (e && typeof e === 'object' && 'init' in e) return (e as { init: { status: number } }).init.status
      throw e
    }
  }

  it('refuses /dev, /dev/mail and any other /dev page to signed-in non-admins and anonymous visitors', async () => {
    const admin = await siteAdmin()
    const member = await person('member')
    const loaders = [
      ['/dev', devIndexLoader],
      ['/dev/mail', devMailLoader],
      ['/dev/elsewhere', devOtherLoader],
    ] as const
    for (const [path, loader] of loaders) {
      for (const token of [member.token, null]) {
        expect(await status(() => loader({ request: get(path, token), params: {}, context: {} })), `${path} ${token ? 'member' : 'anonymous'}`).toBe(403)
      }
    }
    expect(await status(() => devIndexLoader({ request: get('/dev', admin.token), params: {}, context: {} }))).toBe(200)
    expect(await status(() => devMailLoader({ request: get('/dev/mail', admin.token), params: {}, context: {} }))).toBe(200)
  })
})
