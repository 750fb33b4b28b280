/**
 * A relay session is not a bearer URL (issue 10, item 3): its one-time address works once, in the
 * client that redeemed it; the session ends (and says why, in the audit trail) on sign-out,
 * account disable, removal from the organization, agent removal, idle and absolute expiry; request
 * paths are audited per path. Agent cookies stay on the session origin (item 2).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { registerAgent } from '../../ingest/agent-gateway.server'
import { createSession, revokeSession, userActor } from '~/domain/auth/session.server'
import { deleteOrganization } from '~/domain/organizations/organizations.server'
import { prisma } from '~/utils/db.server'
import { RelayClient } from '../../relay/client'
import { confineCookie } from '../../relay/headers'
import { SessionTracker } from '../../relay/session-tracker'
import { startRelay, type Relay } from '../../relay/relay.server'
import { SimulatedSite } from '../../simulator/site'
import { RemoteConnect } from '../../simulator/tunnel'

let relay: Relay
let base: string
let orgId: string
let agentId: string
let remote: RemoteConnect
let ownerId: string
let memberId: string

type Opened = { authCheck: string; origin: string; address: string }

/** `redeemed`: the first page's status (502 for an agent without a tunnel: sessions are judged before any tunnel). */
async function open(userId: string, agent = agentId, redeemed = 200) {
  const { token } = await createSession(userId, { ip: '127.0.0.1', userAgent: 'test' })
  const response = await fetch(`${base}/login`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ agentId: agent }) })
  expect(response.status).toBe(200)
  const { data } = (await response.json()) as { data: Opened }
  const client = new RelayClient({ host: '127.0.0.1', port: relay.port })
  expect((await client.redeem(data.address)).status).toBe(redeemed)
  const row = await prisma.proxySession.findFirstOrThrow({ where: { hostLabel: new URL(data.origin).hostname.split('.')[0] } })
  return { ...data, token, client, id: row.id, page: () => client.get(`${data.origin}/status.json`) }
}

/** The relay re-checks rights at least every 2 s: wait until the session's requests are refused. */
async function refusedWithin(page: () => Promise<{ status: number; body: string }>, ms = 6000, served = 200) {
  const until = Date.now() + ms
  for (;;) {
    const answer = await page()
    if (answer.status !== served || Date.now() > until) return answer
    await new Promise((r) => setTimeout(r, 200))
  }
}

const ended = (id: string) => prisma.proxySession.findUniqueOrThrow({ where: { id } })
const endAudit = (reasonText: string) => prisma.auditRecord.findFirst({ where: { action: 'agent.disconnect', message: { contains: reasonText } } })

beforeAll(async () => {
  const owner = await prisma.user.create({ data: { email: 'owner@sessions.test', name: 'Owner', emailVerified: true } })
  const member = await prisma.user.create({ data: { email: 'member@sessions.test', name: 'Member', emailVerified: true } })
  ownerId = owner.id
  memberId = member.id
  orgId = (await prisma.organization.create({ data: { name: 'Sessions Org', ownerId: owner.id } })).id
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId: owner.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await tx.accessRight.create({ data: { userId: member.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgId } })
    await compileUserAcls(tx, owner.id, orgId)
    await compileUserAcls(tx, member.id, orgId)
  })
  relay = await startRelay({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${relay.port}`
  const site = new SimulatedSite({ seed: 3, index: 0, scenario: 'healthy' })
  site.tick(new Date())
  const registered = await registerAgent({ product: site.product, serial: site.serial, version: site.version, name: site.name }, { ip: '127.0.0.1', receivedAt: new Date() })
  agentId = registered.agentId
  await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId } })
  remote = new RemoteConnect(site)
  await remote.update({ enabled: true, relayUrl: base, remoteConnect: true, agentId, secret: registered.secret })
  await remote.waitUntilOpen()
})

afterAll(async () => {
  await remote?.stop()
  await relay?.close()
})

describe('relay sessions', () => {
  it('binds a session to the client that redeemed its one-time address: replay elsewhere fails', async () => {
    const session = await open(ownerId)
    // another browser with the same URL: the code is spent, and the clean address needs the cookie
    const other = new RelayClient({ host: '127.0.0.1', port: relay.port })
    const replay = await other.get(session.address)
    expect(replay.status).toBe(401)
    expect(replay.body).toContain('already used')
    const bare = await other.get(`${session.origin}/status.json`)
    expect(bare.status).toBe(401)
    expect(bare.body).toContain('another browser')
    // a forged cookie is no better
    other.cookies.set('pf_relay', 'forged-key-value-000000000000000000000')
    expect((await other.get(`${session.origin}/status.json`)).status).toBe(401)
    // the browser that redeemed it still works, and reopening the first address just goes on
    expect((await session.page()).status).toBe(200)
    expect((await session.client.get(session.address)).status).toBe(303)
    // an unredeemed code is refused after a minute
    const { token } = await createSession(ownerId, { ip: '127.0.0.1', userAgent: 'test' })
    const late = (await (await fetch(`${base}/login`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: JSON.stringify({ agentId }) })).json()) as { data: Opened }
    await prisma.proxySession.updateMany({ where: { hostLabel: new URL(late.data.origin).hostname.split('.')[0] }, data: { createdAt: new Date(Date.now() - 61_000) } })
    expect((await new RelayClient({ host: '127.0.0.1', port: relay.port }).get(late.data.address)).status).toBe(401)
  })

  it('ends on portal sign-out, and audits the requests per path', async () => {
    const session = await open(ownerId)
    for (let i = 0; i < 3; i++) expect((await session.page()).status).toBe(200)
    await revokeSession(session.token)
    const refused = await refusedWithin(session.page)
    expect(refused.status).toBe(401)
    expect(refused.body).toContain('signed out')
    expect(await ended(session.id)).toMatchObject({ closedReason: 'signed-out' })
    expect(await endAudit('the user signed out')).not.toBeNull()
    // one record for the whole session: each path once, with its count (the redeeming page load is '/')
    const requests = await prisma.auditRecord.findMany({ where: { action: 'agent.connect.requests' }, orderBy: { createdAt: 'desc' }, take: 1 })
    expect(requests[0].message).toMatch(/requests on 2 paths: \/status\.json ×\d+, \/ ×1$/)
    expect(requests[0].organizationId).toBe(orgId)
  })

  it('ends when the account is disabled and when the user leaves the organization', async () => {
    const disabled = await open(memberId)
    await prisma.user.update({ where: { id: memberId }, data: { disabled: true } })
    expect((await refusedWithin(disabled.page)).status).toBe(401)
    expect(await ended(disabled.id)).toMatchObject({ closedReason: 'user-disabled' })
    await prisma.user.update({ where: { id: memberId }, data: { disabled: false } })

    const removed = await open(memberId)
    await prisma.$transaction(async (tx) => {
      await tx.accessRight.deleteMany({ where: { userId: memberId, organizationId: orgId } })
      await compileUserAcls(tx, memberId, orgId)
    })
    expect((await refusedWithin(removed.page)).status).toBe(401)
    expect(await ended(removed.id)).toMatchObject({ closedReason: 'access-removed' })
    expect(await endAudit('no longer has the connect permission')).not.toBeNull()
  })

  it('ends when idle too long and at its absolute expiry', async () => {
    const idle = await open(ownerId)
    // The relay writes a request's activity a moment later (coalesced), and on a busy machine that
    // can land after a backdate: backdate again until a wait of 2.1 s (the relay's cached record is
    // then re-read before the next request) leaves it in place.
    const backdated = new Date(Date.now() - 31 * 60_000)
    for (let attempt = 0; attempt < 20; attempt++) {
      await prisma.proxySession.update({ where: { id: idle.id }, data: { lastSeen: backdated } })
      await new Promise((r) => setTimeout(r, 2100))
      if ((await ended(idle.id)).lastSeen.getTime() === backdated.getTime()) break
    }
    const idleAnswer = await idle.page()
    expect(idleAnswer.status).toBe(401)
    expect(idleAnswer.body).toContain('idle')
    expect(await ended(idle.id)).toMatchObject({ closedReason: 'idle' })

    const old = await open(ownerId)
    await prisma.proxySession.update({ where: { id: old.id }, data: { expiresAt: new Date(Date.now() - 1000) } })
    const expired = await refusedWithin(old.page)
    expect(expired.status).toBe(401)
    expect(expired.body).toContain('maximum duration')
    expect(await ended(old.id)).toMatchObject({ closedReason: 'expired' })
  })

  it('ends when the agent is removed from the organization', async () => {
    const session = await open(ownerId)
    await prisma.agent.update({ where: { id: agentId }, data: { organizationId: null } })
    try {
      expect((await refusedWithin(session.page)).status).toBe(401)
      expect(await ended(session.id)).toMatchObject({ closedReason: 'agent-removed' })
    } finally {
      await prisma.agent.update({ where: { id: agentId }, data: { organizationId: orgId } })
    }
  })

  it('ends at once when the organization is deleted; the sweep passes over sessions of a vanished organization', async () => {
    /** An organization of the owner's with an agent of its own (no tunnel needed: sessions are judged before any tunnel). */
    const doomed = async (name: string) => {
      const org = await prisma.organization.create({ data: { name, ownerId } })
      await prisma.$transaction(async (tx) => {
        await tx.accessRight.create({ data: { userId: ownerId, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: org.id } })
        await compileUserAcls(tx, ownerId, org.id)
      })
      const registered = await registerAgent({ product: 'DoomBox', serial: `DOOM-${name}`, version: '1.0', name }, { ip: '127.0.0.1', receivedAt: new Date() })
      await prisma.agent.update({ where: { id: registered.agentId }, data: { organizationId: org.id } })
      return { orgId: org.id, agentId: registered.agentId }
    }
    const owner = await prisma.user.findUniqueOrThrow({ where: { id: ownerId } })
    const actor = userActor(owner, { ip: '127.0.0.1', userAgent: 'test' })

    const first = await doomed('Doomed Org')
    const session = await open(ownerId, first.agentId, 502)
    await deleteOrganization(actor, first.orgId)
    expect(await ended(session.id)).toMatchObject({ closedReason: 'organization-deleted' })
    const refused = await refusedWithin(session.page, 30_000, 502)
    expect(refused.status).toBe(401)
    expect(refused.body).toContain('the organization was deleted')
    expect(await prisma.auditRecord.findFirst({ where: { organizationId: null, action: 'agent.disconnect', message: { contains: first.orgId } } })).not.toBeNull()

    // A session left open by an organization removed without ending it (before this fix): the
    // sweep ends it (its end audited at site level), and reports nothing.
    const second = await doomed('Vanished Org')
    const orphan = await open(ownerId, second.agentId, 502)
    await prisma.agent.update({ where: { id: second.agentId }, data: { organizationId: null } })
    await prisma.organization.delete({ where: { id: second.orgId } })
    const failures: string[] = []
    const books = { now: (_key: string, write: () => Promise<unknown>) => write(), soon: () => undefined }
    await new SessionTracker(books).sweep((line) => failures.push(line))
    expect(failures).toEqual([])
    expect(await ended(orphan.id)).toMatchObject({ closedReason: 'agent-removed' })
    expect(await prisma.auditRecord.findFirst({ where: { organizationId: null, action: 'agent.disconnect', message: { contains: 'agent Vanished Org ended' } } })).not.toBeNull()
  })

  it('confines agent cookies to the session origin', () => {
    expect(confineCookie('pf_session=planted; Domain=localhost; Path=/')).toBeNull()
    expect(confineCookie('__Host-pf_session=planted; Path=/; Secure')).toBeNull()
    expect(confineCookie('pf_relay=x')).toBeNull()
    expect(confineCookie('ui=1; Domain=.localhost; Path=/app; SameSite=Lax; HttpOnly')).toBe('ui=1; Path=/app; HttpOnly; Secure; SameSite=None; Partitioned')
  })
})
