import { describe, expect, it } from 'vitest'
import { createSession } from '~/domain/auth/session.server'
import { action } from '~/routes/client.v1.$'
import { sessionCookie } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

let run = 0
async function signedInUser(label: string) {
  const n = ++run
  const user = await prisma.user.create({ data: { email: `${label}${n}@api.test`, name: `${label} ${n}`, emailVerified: true } })
  const { token } = await createSession(user.id, { ip: '127.0.0.1', userAgent: 'vitest' })
  const cookie = (await sessionCookie.serialize(token)).split(';')[0]
  const call = async (name: string, body: object) => {
    const request = new Request(`http://portal.test/client/v1/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify(body),
    })
    const response = (await action({ request, params: { '*': name }, context: {} })) as Response
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  return { user, call }
}

describe('/client/v1 organization and project calls', () => {
  it("answers 'Not authorized' to creating an organization without a signed-in user, and creates nothing", async () => {
    const before = await prisma.organization.count()
    const request = new Request('http://portal.test/client/v1/organization/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Anonymous Org' }),
    })
    const response = (await action({ request, params: { '*': 'organization/create' }, context: {} })) as Response
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ code: 'unauthenticated', message: 'Not authorized' })
    expect(await prisma.organization.count()).toBe(before)
  })

  it('creates an organization and a project tree, renames, lists and deletes through the API', async () => {
    const { call } = await signedInUser('owner')
    const created = await call('organization/create', { name: 'API Org' })
    expect(created.status).toBe(200)
    const organizationId = created.body.organizationId as string

    const bad = await call('organization/update', { id: organizationId, doc: { name: '' } })
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid-argument', issues: [{ path: 'name', message: 'Organization name is required' }] } })

    const parent = await call('project/create', { organizationId, project: { name: 'Parent' } })
    const child = await call('project/create', { organizationId, project: { name: 'Child', parentId: parent.body.projectId } })
    expect(child.status).toBe(200)
    const noName = await call('project/create', { organizationId, project: { name: '' } })
    expect(noName.body.message).toBe('Project name is required')

    const listed = await call('project/list', { organizationId })
    expect((listed.body.projects as { name: string; subRows: { name: string }[] }[]).map((p) => [p.name, p.subRows.map((s) => s.name)])).toEqual([['Parent', ['Child']]])

    const deleted = await call('project/delete', { organizationId, projectId: parent.body.projectId, recurse: true })
    expect(deleted.body.deletedProjectIds).toHaveLength(2)

    const orgs = await call('organization/list', {})
    expect((orgs.body.organizations as { id: string }[]).map((o) => o.id)).toEqual([organizationId])
    expect(await call('organization/billingStatusUpdateRequest', {})).toMatchObject({ status: 400, body: { message: 'Organization is required' } })
    expect(await call('organization/delete', { id: organizationId })).toMatchObject({ status: 200 })
    expect(await prisma.organization.count({ where: { id: organizationId } })).toBe(0)
  })

  it('answers 403 to a member of another organization for every organization and project call', async () => {
    const owner = await signedInUser('owner')
    const organizationId = (await owner.call('organization/create', { name: 'Private' })).body.organizationId as string
    const projectId = (await owner.call('project/create', { organizationId, project: { name: 'Secret' } })).body.projectId as string
    const outsider = await signedInUser('outsider')
    await outsider.call('organization/create', { name: 'Own org' })

    const calls: [string, object][] = [
      ['organization/update', { id: organizationId, doc: { name: 'Hacked' } }],
      ['organization/delete', { id: organizationId }],
      ['organization/memberLeave', { id: organizationId }],
      ['organization/transferOwner', { id: organizationId, newOwnerId: outsider.user.id }],
      ['organization/billingStatusUpdateRequest', { id: organizationId }],
      ['project/create', { organizationId, project: { name: 'X' } }],
      ['project/update', { organizationId, projectId, doc: { name: 'X' } }],
      ['project/delete', { organizationId, projectId, recurse: true }],
      ['project/list', { organizationId }],
      ['project/members', { organizationId, projectId }],
      ['project/memberRoleAssign', { organizationId, projectId, memberId: outsider.user.id, roleId: 'role-prj-viewer-0000' }],
      ['project/memberRoleUnassign', { organizationId, projectId, memberId: outsider.user.id, roleId: 'role-prj-viewer-0000' }],
    ]
    for (const [name, body] of calls) {
      const result = await outsider.call(name, body)
      expect({ name, status: result.status, code: result.body.code }).toEqual({ name, status: 403, code: 'permission-denied' })
    }
    expect(await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).toMatchObject({ name: 'Private', billingStatus: 'disabled' })
    expect(await prisma.project.count({ where: { organizationId } })).toBe(1)
  })
})
