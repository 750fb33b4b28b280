/**
 * Organization isolation: a member of organization B (an Organization Admin there, so strong in
 * its own organization) visits every organization-scoped route loader and /client/v1 call with
 * the ids of organization A. Each must refuse (403) and nothing in A may change.
 *
 * Routes are discovered from app/routes with fs and API calls from the apiCalls registry, so new
 * ones are covered without touching this file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { apiCalls } from '~/api/index.server'
import { inputKeys } from '~/api/closed-schema.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { sha256 } from '~/domain/auth/crypto.server'
import { createSession } from '~/domain/auth/session.server'
import { commitSessionCookie } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

const INVITE_CODE = 'isolation-invite-code'
const ENROLLMENT_CODE = 'ABCDEFGH'
const ROUTES_DIR = path.resolve(import.meta.dirname, '../../app/routes')
const ORG_ROUTE_PREFIX = '_app.organization.$organizationId'

/**
 * /client/v1 calls that are not about one organization's data, so "refused" is not the expected
 * answer for a signed-in user of another organization. Every other non-public call must refuse.
 */
const NOT_ORGANIZATION_SCOPED = new Set([
  'auth/authorized', // the caller's own sign-in check
  'auth/logout', // ends the caller's own session
  'auth/nameChange', // the caller's own account
  'auth/emailChange',
  'auth/passwordChange',
  'user/updateProfile', // the caller's own profile and preferences
  'user/subscriptions', // lists the caller's own subscriptions
  'token/create', // the caller's own API tokens
  'token/list',
  'token/revoke',
  'token/revokeCurrent',
  'organization/list', // the caller's own organizations
  'organization/create', // creates a new organization owned by the caller
  'invite/mine', // invites addressed to the caller's own verified e-mail
  'agent/applicationLookup', // looks up an enrollment code, not an organization
  'relay', // the relay's base address; access is checked by the relay's /login per agent
])

type World = Awaited<ReturnType<typeof buildWorld>>

async function buildWorld() {
  const ownerA = await prisma.user.create({ data: { email: 'owner@a.isolation.test', name: 'Owner A', emailVerified: true } })
  const memberA = await prisma.user.create({ data: { email: 'member@a.isolation.test', name: 'Member A', emailVerified: true } })
  const outsider = await prisma.user.create({ data: { email: 'admin@b.isolation.test', name: 'Admin B', emailVerified: true } })
  const orgA = await prisma.organization.create({ data: { name: 'Org A', description: 'secret', ownerId: ownerA.id } })
  const orgB = await prisma.organization.create({ data: { name: 'Org B', ownerId: outsider.id } })
  const project = await prisma.project.create({ data: { organizationId: orgA.id, name: 'A Stage' } })
  const subProject = await prisma.project.create({ data: { organizationId: orgA.id, name: 'A Left', parentId: project.id } })
  const role = await prisma.role.create({ data: { name: 'A Custom', organizationId: orgA.id, orgRef: orgA.id, resourceType: 1, permissions: '["org.view"]' } })
  const agent = await prisma.agent.create({ data: { clientName: 'A Processor', secretHash: 'x', organizationId: orgA.id, product: 'P', serial: 'S1' } })
  const system = await prisma.system.create({ data: { agentId: agent.id, key: 'sys-1', name: 'A System', projectId: project.id } })
  const note = await prisma.note.create({ data: { organizationId: orgA.id, content: 'A note', resourcePath: `/organization/${orgA.id}/projects`, authorId: ownerA.id } })
  // The invite link code is known (as if leaked): acceptance must still need the recipient's e-mail.
  const invite = await prisma.invite.create({
    data: { organizationId: orgA.id, recipient: 'guest@a.isolation.test', roleId: DEFAULT_ROLE_IDS.orgViewer, codeHash: sha256(INVITE_CODE), senderId: ownerA.id, sent: '[]' },
  })
  // An unenrolled agent with a current code: enrolling it into A must still need A's permission.
  const newAgent = await prisma.agent.create({ data: { clientName: 'Unenrolled', secretHash: 'x', product: 'P', serial: 'S2' } })
  await prisma.enrollmentCode.create({ data: { agentId: newAgent.id, code: ENROLLMENT_CODE } })
  const { ownerRight, memberRight } = await prisma.$transaction(async (tx) => {
    const ownerRight = await tx.accessRight.create({ data: { userId: ownerA.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgA.id } })
    const memberRight = await tx.accessRight.create({ data: { userId: memberA.id, roleId: DEFAULT_ROLE_IDS.orgMember, organizationId: orgA.id } })
    await tx.accessRight.create({ data: { userId: outsider.id, roleId: DEFAULT_ROLE_IDS.orgAdmin, organizationId: orgB.id } })
    for (const id of [ownerA.id, memberA.id, outsider.id]) await compileUserAcls(tx, id)
    return { ownerRight, memberRight }
  })
  const session = await createSession(outsider.id, { ip: '10.9.9.9', userAgent: 'isolation-test' })
  const cookie = (await commitSessionCookie(session.token, session.expiresAt)).split(';')[0]!
  return { orgA, orgB, ownerA, memberA, outsider, project, subProject, role, agent, system, note, invite, ownerRight, memberRight, cookie }
}

/** Everything of organization A a successful call could change. */
async function snapshotOfA(w: World) {
  const organizationId = w.orgA.id
  return {
    organization: await prisma.organization.findUnique({ where: { id: organizationId }, select: { name: true, description: true, ownerId: true, billingStatus: true } }),
    projects: await prisma.project.findMany({ where: { organizationId }, select: { id: true, name: true, description: true, parentId: true }, orderBy: { id: 'asc' } }),
    accessRights: await prisma.accessRight.findMany({ where: { organizationId }, select: { id: true, userId: true, roleId: true, projectId: true }, orderBy: { id: 'asc' } }),
    compiledAcls: await prisma.compiledAcl.findMany({ where: { organizationId }, select: { userId: true, projectId: true, permissions: true }, orderBy: { id: 'asc' } }),
    roles: await prisma.role.findMany({ where: { organizationId }, select: { id: true, name: true, permissions: true, assignableBy: true }, orderBy: { id: 'asc' } }),
    invites: await prisma.invite.findMany({ where: { organizationId }, select: { id: true, status: true, sent: true }, orderBy: { id: 'asc' } }),
    notes: await prisma.note.findMany({ where: { organizationId }, select: { id: true, content: true, color: true, archived: true }, orderBy: { id: 'asc' } }),
    agents: await prisma.agent.findMany({ where: { id: w.agent.id }, select: { organizationId: true, clientName: true, useLocationMode: true, locationManualLat: true } }),
    systems: await prisma.system.findMany({ where: { agentId: w.agent.id }, select: { id: true, projectId: true } }),
    subscriptions: await prisma.subscription.count({ where: { organizationId } }),
    invoices: await prisma.invoice.count({ where: { organizationId } }),
    auditRecords: await prisma.auditRecord.count({ where: { organizationId } }),
  }
}

/** Route files of the organization workspace (the layout and every page below it). */
function organizationRouteFiles() {
  return fs
    .readdirSync(ROUTES_DIR)
    .filter((f) => /\.tsx?$/.test(f) && (f.startsWith(`${ORG_ROUTE_PREFIX}.`) || f === `${ORG_ROUTE_PREFIX}.tsx`))
    .sort()
}

/** Route params for a file: A's ids for every dynamic segment it names. */
function paramsFor(file: string, w: World): Record<string, string> {
  return {
    organizationId: w.orgA.id,
    ...(file.includes('$projectId') ? { projectId: w.project.id } : {}),
    ...(file.includes('$agentId') ? { agentId: w.agent.id } : {}),
    ...(file.includes('$noteId') ? { noteId: w.note.id } : {}),
    // 'projects' is a tab of both the settings and the edit screens
    ...(file.includes('($tab)') ? { tab: 'projects' } : {}),
    ...(file.includes('.$.') || file.endsWith('.$.tsx') ? { '*': w.project.id } : {}),
  }
}

const statusOf = (thrown: unknown): number | undefined => {
  if (thrown instanceof Response) return thrown.status
  const init = (thrown as { init?: { status?: number } } | null)?.init
  return init?.status ?? (thrown as { status?: number } | null)?.status
}

/**
 * The payload an attacker would send: every id field the calls use, pointing into organization A,
 * with plausible values for the rest so that input validation passes and the permission check decides.
 */
function hostilePayload(w: World) {
  const organizationId = w.orgA.id
  return {
    organizationId,
    id: organizationId,
    organization: organizationId,
    orgId: organizationId,
    projectId: w.project.id,
    project: { name: 'Hijacked', parentId: w.project.id },
    parentId: w.project.id,
    agentId: w.agent.id,
    systemId: w.system.key,
    noteId: w.note.id,
    note: w.note.id,
    inviteId: w.invite.id,
    code: INVITE_CODE,
    aclId: w.memberRight.id,
    userId: w.memberA.id,
    memberId: w.memberA.id,
    member: w.memberA.id,
    newOwnerId: w.memberA.id,
    newOwner: w.memberA.id,
    roleId: w.role.id,
    role: w.role.id,
    email: 'newcomer@b.isolation.test',
    recipient: 'newcomer@b.isolation.test',
    name: 'Hijacked',
    description: 'Hijacked',
    content: 'Hijacked',
    color: 'red',
    resourcePath: `/organization/${organizationId}/projects`,
    resourceDisplayName: 'Projects',
    doc: { name: 'Hijacked' },
    recurse: true,
    resourceType: 1,
    permissions: ['org.view'],
    assignableBy: [],
    useLocationMode: 'manual',
    locationManual: { lati: 1, long: 1 },
    level: 'organization',
    target: organizationId,
    alerts: 1,
    deviations: 1,
    applicationCode: ENROLLMENT_CODE,
    limit: 20,
  }
}

/** Calls whose payload shape differs from the common one (same intent: act on organization A). */
const pick = (body: Record<string, unknown>, keys: string[]) => Object.fromEntries(Object.entries(body).filter(([key]) => keys.includes(key)))

const payloadOverrides = (w: World): Record<string, object> => ({
  'user/updateSubscription': { id: undefined, doc: { level: 'organization', target: w.orgA.id, alerts: 1, deviations: 1 } },
  'user/notificationTest': { organization: w.orgA.id, project: w.project.id },
  'organization/createNotificationChannel': { type: 'webhook', url: 'https://hooks.example.com/pixelfleet' },
  'access/explain': { permission: 'project.view' },
  'agent/bulk': { operation: 'remove', selection: { mode: 'filtered' } },
  'agent/bulkExport': { selection: { mode: 'filtered' } },
  'issue/get': { issueId: 'any-issue' },
  'issue/acknowledge': { issueId: 'any-issue' },
  'issue/unacknowledge': { issueId: 'any-issue' },
  'issue/comment': { issueId: 'any-issue', text: 'Hijacked' },
  'issue/clear': { issueId: 'any-issue' },
  'project/windowCreate': { window: { kind: 'maintenance', recurrence: 'once', startsAt: new Date().toISOString(), endsAt: new Date(Date.now() + 3600_000).toISOString() } },
  'project/windowUpdate': { windowId: 'any-window', window: { kind: 'maintenance', recurrence: 'weekly', weekdays: [1], startTime: '02:00', endTime: '04:00', timeZone: 'UTC' } },
  'project/windowDelete': { windowId: 'any-window' },
  'project/offlineAlarmUpdate': { minutes: 30 },
})

describe('organization isolation', () => {
  let w: World
  beforeAll(async () => {
    w = await buildWorld()
  })

  it('finds the organization routes and calls to check', () => {
    const files = organizationRouteFiles()
    expect(files).toContain(`${ORG_ROUTE_PREFIX}.members.tsx`)
    expect(files).toContain(`${ORG_ROUTE_PREFIX}.activity.tsx`)
    expect(Object.keys(apiCalls)).toContain('organization/memberAdd')
  })

  it('refuses every organization route loader to a member of another organization', async () => {
    const before = await snapshotOfA(w)
    const accepted: string[] = []
    for (const file of organizationRouteFiles()) {
      const mod = (await import(path.join(ROUTES_DIR, file))) as { loader?: (args: unknown) => unknown }
      if (!mod.loader) continue
      const params = paramsFor(file, w)
      const url = `http://portal.test/organization/${w.orgA.id}`
      const request = new Request(url, { headers: { cookie: w.cookie } })
      let outcome: unknown
      try {
        outcome = await mod.loader({ request, params, context: {} })
      } catch (thrown) {
        outcome = thrown
      }
      const status = statusOf(outcome)
      // A loader that only rewrites the path (e.g. /organization/{id} -> /projects) reveals nothing;
      // the page it redirects to is itself in this list.
      const location = outcome instanceof Response ? outcome.headers.get('location') : null
      const pureRedirect = status !== undefined && status >= 300 && status < 400 && location?.startsWith(`/organization/${w.orgA.id}`)
      if (status !== 403 && !pureRedirect) accepted.push(`${file} -> ${status ?? JSON.stringify(outcome)?.slice(0, 120)}`)
    }
    expect(accepted).toEqual([])
    expect(await snapshotOfA(w)).toEqual(before)
  })

  it('refuses every organization-scoped /client/v1 call to a member of another organization', async () => {
    const { action } = await import('~/routes/client.v1.$')
    const before = await snapshotOfA(w)
    const accepted: string[] = []
    const checked: string[] = []
    for (const [name, call] of Object.entries(apiCalls)) {
      if (call.public || NOT_ORGANIZATION_SCOPED.has(name)) continue
      checked.push(name)
      const request = new Request(`http://portal.test/client/v1/${name}?time=1`, {
        method: 'POST',
        headers: { cookie: w.cookie, 'content-type': 'application/json' },
        // only the fields the call takes: inputs are closed, an unknown field would be a 400 (decision 049)
        body: JSON.stringify(pick({ ...hostilePayload(w), ...payloadOverrides(w)[name] }, inputKeys(call.input))),
      })
      const response = (await action({ request, params: { '*': name }, context: {} })) as Response
      if (response.status !== 403) accepted.push(`${name} -> ${response.status} ${(await response.text()).slice(0, 160)}`)
      expect(await snapshotOfA(w), `${name} changed organization A`).toEqual(before)
    }
    expect(checked.length).toBeGreaterThan(10)
    expect(accepted).toEqual([])
  })
})
