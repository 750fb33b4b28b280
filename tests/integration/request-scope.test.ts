/**
 * The per-request memo of session, organization list and access (app/utils/request-scope.server.ts)
 * and the site-row cache: one GET request looks each up once; another request, another user or an
 * action never sees those results; a revoked right counts from the next request; a new site
 * message shows at once.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { createSession } from '~/domain/auth/session.server'
import { listMemberOrganizations } from '~/domain/organizations/membership.server'
import { activeSiteMessages } from '~/domain/site/cloud-state.server'
import { createSiteMessage } from '~/domain/site/messages.server'
import { getCurrentUser } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

let orgId: string
let aliceId: string
let aliceToken: string
let bobToken: string
const request = (token: string, method = 'GET') => new Request('http://portal.test/organization', { method, headers: { authorization: `Bearer ${token}` } })

beforeAll(async () => {
  const [alice, bob, owner] = await Promise.all(['alice', 'bob', 'owner'].map((name) => prisma.user.create({ data: { email: `${name}@request-scope.test`, name, emailVerified: true } })))
  aliceId = alice.id
  orgId = (await prisma.organization.create({ data: { name: 'Scope Org', ownerId: owner.id } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: alice.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, alice.id, orgId)
  })
  aliceToken = (await createSession(alice.id, { ip: '', userAgent: '' })).token
  bobToken = (await createSession(bob.id, { ip: '', userAgent: '' })).token
})

describe('request-scoped lookups', () => {
  it('one GET request shares its session and access; another request or an action loads its own', async () => {
    const req = request(aliceToken)
    const [a, b] = await Promise.all([getCurrentUser(req), getCurrentUser(req)])
    expect(a!.actor).toBe(b!.actor)
    const access = await getOrganizationAccess(a!.actor, orgId)
    expect(await getOrganizationAccess(b!.actor, orgId)).toBe(access)
    expect(await listMemberOrganizations(a!.actor)).toBe(await listMemberOrganizations(b!.actor))

    const next = await getCurrentUser(request(aliceToken))
    expect(next!.actor).not.toBe(a!.actor)
    expect(await getOrganizationAccess(next!.actor, orgId)).not.toBe(access)
    const post = request(aliceToken, 'POST')
    const [p1, p2] = [await getCurrentUser(post), await getCurrentUser(post)]
    expect(p1!.actor).not.toBe(p2!.actor)
  })

  it("never serves one user's access to another", async () => {
    const alice = await getCurrentUser(request(aliceToken))
    const bob = await getCurrentUser(request(bobToken))
    expect(bob!.user.name).toBe('bob')
    expect((await getOrganizationAccess(alice!.actor, orgId)).can('org.view')).toBe(true)
    // Bob is no member: the same 403 while Alice's access is in memory, and no organization listed
    await expect(getOrganizationAccess(bob!.actor, orgId)).rejects.toMatchObject({ status: 403 })
    expect(await listMemberOrganizations(bob!.actor)).toEqual([])
  })

  it('a revoked right takes effect on the next request', async () => {
    const before = await getCurrentUser(request(aliceToken))
    expect((await getOrganizationAccess(before!.actor, orgId)).can('org.view')).toBe(true)
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.deleteMany({ where: { userId: aliceId, organizationId: orgId } })
      await compileUserAcls(tx, aliceId, orgId)
    })
    const after = await getCurrentUser(request(aliceToken))
    await expect(getOrganizationAccess(after!.actor, orgId)).rejects.toMatchObject({ status: 403 })
    expect((await listMemberOrganizations(after!.actor)).map((o) => o.id)).not.toContain(orgId)
  })

  it('a new site message shows at once although site rows are cached', async () => {
    expect(await activeSiteMessages()).toEqual([])
    const now = Date.now()
    await createSiteMessage({ kind: 'user', userId: aliceId, email: 'alice@request-scope.test', name: 'alice', isSiteAdmin: true, ip: '', userAgent: '' }, { text: 'Upgrade tonight', type: 'info', starts: new Date(now - 1000), ends: new Date(now + 3600_000) })
    expect((await activeSiteMessages()).map((m) => m.text)).toEqual(['Upgrade tonight'])
  })
})
