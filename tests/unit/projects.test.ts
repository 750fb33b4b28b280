import { describe, expect, it } from 'vitest'
import { getOrganizationAccess } from '~/domain/access/access.server'
import { compileUserAcls } from '~/domain/access/acl.server'
import { DEFAULT_ROLE_IDS } from '~/domain/access/catalogue'
import { type UserActor } from '~/domain/actor'
import { createOrganization } from '~/domain/organizations/organizations.server'
import {
  assignProjectMemberRole,
  createProject,
  deleteProject,
  getProject,
  listProjectMembers,
  listProjects,
  unassignProjectMemberRole,
  updateProject,
  type ProjectNode,
} from '~/domain/projects/projects.server'
import { prisma } from '~/utils/db.server'

let run = 0
async function user(label: string, extra: { isAdmin?: boolean } = {}) {
  const n = ++run
  const u = await prisma.user.create({ data: { email: `${label}${n}@prj.test`, name: `${label} ${n}`, emailVerified: true, ...extra } })
  const actor: UserActor = { kind: 'user', userId: u.id, email: u.email, name: u.name, isSiteAdmin: Boolean(extra.isAdmin), ip: '10.0.0.2', userAgent: 'vitest' }
  return { ...u, actor }
}

async function grant(userId: string, organizationId: string, roleId: string, projectId?: string) {
  await prisma.$transaction(async (tx) => {
    await tx.accessRight.create({ data: { userId, organizationId, roleId, projectId } })
    await compileUserAcls(tx, userId, organizationId)
  })
}

/** Owner, organization with Stage > (Left, Right > Truss) and Studio. */
async function fixture() {
  const owner = await user('owner')
  const { organizationId } = await createOrganization(owner.actor, { name: 'Tour' })
  const make = async (name: string, parentId?: string) => (await createProject(owner.actor, organizationId, { name, parentId })).projectId
  const stage = await make('Stage')
  const left = await make('Left', stage)
  const right = await make('Right', stage)
  const truss = await make('Truss', right)
  const studio = await make('Studio')
  return { owner, organizationId, stage, left, right, truss, studio }
}

const names = (nodes: ProjectNode[]): unknown[] => nodes.map((n) => (n.subRows.length ? [n.name, names(n.subRows)] : n.name))

describe('createProject', () => {
  it("validates the name ('Project name is required') and the parent's organization", async () => {
    const f = await fixture()
    await expect(createProject(f.owner.actor, f.organizationId, { name: ' ' })).rejects.toMatchObject({
      issues: [{ path: 'name', message: 'Project name is required' }],
    })
    const other = await fixture()
    await expect(createProject(f.owner.actor, f.organizationId, { name: 'X', parentId: other.stage })).rejects.toMatchObject({
      message: `No such project ${other.stage} in org ${f.organizationId}`,
    })
    const audits = await prisma.auditRecord.findMany({ where: { organizationId: f.organizationId, action: 'project.create' } })
    expect(audits).toHaveLength(5)
  })

  it('needs project.create at the top level; a project manager may add sub-projects only under their project', async () => {
    const f = await fixture()
    const manager = await user('manager')
    await grant(manager.id, f.organizationId, DEFAULT_ROLE_IDS.projectManager, f.right)
    await expect(createProject(manager.actor, f.organizationId, { name: 'Top' })).rejects.toMatchObject({ status: 403 })
    await expect(createProject(manager.actor, f.organizationId, { name: 'Side', parentId: f.studio })).rejects.toMatchObject({ status: 403 })
    const { projectId } = await createProject(manager.actor, f.organizationId, { name: 'Under truss', parentId: f.truss })
    expect((await prisma.project.findUniqueOrThrow({ where: { id: projectId } })).parentId).toBe(f.truss)
  })
})

describe('updateProject', () => {
  it('renames with project.update and refuses a cycle', async () => {
    const f = await fixture()
    await expect(updateProject(f.owner.actor, f.organizationId, f.left, { name: 'Left Wall' })).resolves.toMatchObject({ updated: ['name'] })
    await expect(updateProject(f.owner.actor, f.organizationId, f.stage, { parentId: f.truss })).rejects.toMatchObject({ status: 400 })
    await expect(updateProject(f.owner.actor, f.organizationId, f.stage, { parentId: f.stage })).rejects.toMatchObject({ status: 400 })
    await updateProject(f.owner.actor, f.organizationId, f.truss, { parentId: null })
    expect((await prisma.project.findUniqueOrThrow({ where: { id: f.truss } })).parentId).toBeNull()
    await expect(updateProject(f.owner.actor, f.organizationId, f.left, { bogus: 1 })).rejects.toMatchObject({ status: 400 })
  })

  it('refuses a viewer and a project of another organization', async () => {
    const f = await fixture()
    const viewer = await user('viewer')
    await grant(viewer.id, f.organizationId, DEFAULT_ROLE_IDS.orgViewer)
    await expect(updateProject(viewer.actor, f.organizationId, f.left, { name: 'X' })).rejects.toMatchObject({ status: 403 })
    const other = await fixture()
    await expect(updateProject(f.owner.actor, f.organizationId, other.left, { name: 'X' })).rejects.toMatchObject({ status: 403 })
    expect((await prisma.project.findUniqueOrThrow({ where: { id: other.left } })).name).toBe('Left')
  })
})

describe('deleteProject', () => {
  it('deletes sub-projects recursively, unassigns their systems and recompiles role holders', async () => {
    const f = await fixture()
    const agent = await prisma.agent.create({ data: { secretHash: 'x', organizationId: f.organizationId } })
    const inTruss = await prisma.system.create({ data: { agentId: agent.id, key: 'a', projectId: f.truss } })
    const inStudio = await prisma.system.create({ data: { agentId: agent.id, key: 'b', projectId: f.studio } })
    const manager = await user('manager')
    await grant(manager.id, f.organizationId, DEFAULT_ROLE_IDS.projectManager, f.right)

    await expect(deleteProject(f.owner.actor, f.organizationId, f.stage, false)).rejects.toMatchObject({ status: 400 })
    const result = await deleteProject(f.owner.actor, f.organizationId, f.stage, true)

    expect(result.deletedProjectIds.sort()).toEqual([f.stage, f.left, f.right, f.truss].sort())
    expect(result.unassignedSystems).toBe(1)
    expect((await prisma.project.findMany({ where: { organizationId: f.organizationId } })).map((p) => p.name)).toEqual(['Studio'])
    expect((await prisma.system.findUniqueOrThrow({ where: { id: inTruss.id } })).projectId).toBeNull()
    expect((await prisma.system.findUniqueOrThrow({ where: { id: inStudio.id } })).projectId).toBe(f.studio)
    expect(await prisma.compiledAcl.count({ where: { userId: manager.id } })).toBe(0)
    const record = await prisma.auditRecord.findFirst({ where: { organizationId: f.organizationId, action: 'project.delete' } })
    expect(record?.message).toBe("Project 'Stage' deleted with 3 sub-project(s); 1 system(s) unassigned")
  })

  it('needs project.delete on the project (inherited from a parent counts)', async () => {
    const f = await fixture()
    const member = await user('member')
    await grant(member.id, f.organizationId, DEFAULT_ROLE_IDS.orgMember)
    await expect(deleteProject(member.actor, f.organizationId, f.left, true)).rejects.toMatchObject({ status: 403 })
    const manager = await user('manager')
    await grant(manager.id, f.organizationId, DEFAULT_ROLE_IDS.projectManager, f.right)
    await expect(deleteProject(manager.actor, f.organizationId, f.left, true)).rejects.toMatchObject({ status: 403 })
    await deleteProject(manager.actor, f.organizationId, f.truss, false)
    expect(await prisma.project.count({ where: { id: f.truss } })).toBe(0)
  })
})

describe('listProjects', () => {
  it('shows the owner the whole tree sorted by name with system totals', async () => {
    const f = await fixture()
    const agent = await prisma.agent.create({ data: { secretHash: 'x', organizationId: f.organizationId } })
    await prisma.system.create({ data: { agentId: agent.id, key: 'a', projectId: f.left } })
    await prisma.system.create({ data: { agentId: agent.id, key: 'b' } })
    const { projects, systems } = await listProjects(f.owner.actor, f.organizationId)
    expect(names(projects)).toEqual([['Stage', ['Left', ['Right', ['Truss']]]], 'Studio'])
    expect(systems).toEqual({ total: 2, unassigned: 1 })
    const stage = projects[0]
    expect(stage).toMatchObject({ hasSubProjects: true, parentName: null, canUpdate: true, canDelete: true, linkTo: `/organization/${f.organizationId}/projects/${f.stage}` })
    expect(stage.subRows[0]).toMatchObject({ name: 'Left', parentName: 'Stage', systemsCount: 1, hasSubProjects: false })
  })

  it('sorts names as people read them: "Venue 2" before "Venue 10", case and accents ignored, at every level', async () => {
    const owner = await user('owner')
    const { organizationId } = await createOrganization(owner.actor, { name: 'Venues' })
    const make = async (name: string, parentId?: string) => (await createProject(owner.actor, organizationId, { name, parentId })).projectId
    const venue10 = await make('Venue 10')
    for (const name of ['Venue 2', 'venue 3', 'Ärena', 'Zelt']) await make(name)
    for (const name of ['Hall 11', 'Hall 9', 'hall 10']) await make(name, venue10)
    const { projects } = await listProjects(owner.actor, organizationId)
    expect(names(projects)).toEqual(['Ärena', 'Venue 2', 'venue 3', ['Venue 10', ['Hall 9', 'hall 10', 'Hall 11']], 'Zelt'])
  })

  it('shows a project manager only their project and its sub-projects (inheritance), at the top level', async () => {
    const f = await fixture()
    const manager = await user('manager')
    await grant(manager.id, f.organizationId, DEFAULT_ROLE_IDS.projectManager, f.right)
    const { projects } = await listProjects(manager.actor, f.organizationId)
    expect(names(projects)).toEqual([['Right', ['Truss']]])
    expect(projects[0]).toMatchObject({ parentName: null, canUpdate: true, canCreateSubProject: true })
    const outsider = await user('outsider')
    await expect(listProjects(outsider.actor, f.organizationId)).rejects.toMatchObject({ status: 403 })
  })

  it('getProject gives the visible parent chain and refuses a project the user cannot view', async () => {
    const f = await fixture()
    const owned = await getProject(f.owner.actor, f.organizationId, f.truss)
    expect(owned.chain.map((c) => c.name)).toEqual(['Stage', 'Right', 'Truss'])
    const manager = await user('manager')
    await grant(manager.id, f.organizationId, DEFAULT_ROLE_IDS.projectManager, f.right)
    expect((await getProject(manager.actor, f.organizationId, f.truss)).chain.map((c) => c.name)).toEqual(['Right', 'Truss'])
    await expect(getProject(manager.actor, f.organizationId, f.studio)).rejects.toMatchObject({ status: 403 })
  })
})

describe('project membership', () => {
  it('lists inherited roles read-only and project roles, and assigns/unassigns one role per call', async () => {
    const f = await fixture()
    const member = await user('member')
    await grant(member.id, f.organizationId, DEFAULT_ROLE_IDS.orgViewer)
    await grant(member.id, f.organizationId, DEFAULT_ROLE_IDS.projectViewer, f.stage)

    const before = await listProjectMembers(f.owner.actor, f.organizationId, f.right)
    const row = before.members.find((m) => m.id === member.id)!
    expect(row.inheritedRoles).toEqual(
      expect.arrayContaining([
        { roleId: DEFAULT_ROLE_IDS.orgViewer, roleName: 'Organization Viewer', scope: 'Organization' },
        { roleId: DEFAULT_ROLE_IDS.projectViewer, roleName: 'Project Viewer', scope: 'Stage' },
      ]),
    )
    expect(row.projectRoles).toEqual([])
    expect(before.members.find((m) => m.id === f.owner.id)?.isOwner).toBe(true)
    expect(before.roles.map((r) => r.name)).not.toContain('Cloud Admin')
    expect(before.roles.every((r) => r.assignable)).toBe(true)

    const input = { organizationId: f.organizationId, projectId: f.right, memberId: member.id, roleId: DEFAULT_ROLE_IDS.projectManager }
    await assignProjectMemberRole(f.owner.actor, input)
    expect((await getOrganizationAccess(member.actor, f.organizationId)).can('project.update', f.truss)).toBe(true)
    const after = await listProjectMembers(f.owner.actor, f.organizationId, f.right)
    expect(after.members.find((m) => m.id === member.id)!.projectRoles).toEqual([{ roleId: DEFAULT_ROLE_IDS.projectManager, roleName: 'Project Manager' }])

    await unassignProjectMemberRole(f.owner.actor, input)
    expect((await getOrganizationAccess(member.actor, f.organizationId)).can('project.update', f.truss)).toBe(false)
    const actions = await prisma.auditRecord.findMany({ where: { organizationId: f.organizationId, action: { startsWith: 'project.member' } } })
    expect(actions.map((a) => a.action).sort()).toEqual(['project.member.assignRole', 'project.member.unassignRole'])
  })

  it('respects assignableBy, the permission, membership and the role scope', async () => {
    const f = await fixture()
    const member = await user('member')
    await grant(member.id, f.organizationId, DEFAULT_ROLE_IDS.orgViewer)
    const manager = await user('manager')
    await grant(manager.id, f.organizationId, DEFAULT_ROLE_IDS.projectManager, f.stage)
    const base = { organizationId: f.organizationId, projectId: f.right, memberId: member.id }

    // Project Manager may hand out Project Viewer (assignableBy includes it) on a sub-project...
    await assignProjectMemberRole(manager.actor, { ...base, roleId: DEFAULT_ROLE_IDS.projectViewer })
    // ...but not Organization Admin (assignableBy: Organization Admin only).
    await expect(assignProjectMemberRole(manager.actor, { ...base, roleId: DEFAULT_ROLE_IDS.orgAdmin })).rejects.toMatchObject({ status: 403 })
    const listed = await listProjectMembers(manager.actor, f.organizationId, f.right)
    expect(listed.roles.find((r) => r.id === DEFAULT_ROLE_IDS.orgAdmin)?.assignable).toBe(false)
    expect(listed.roles.find((r) => r.id === DEFAULT_ROLE_IDS.projectViewer)?.assignable).toBe(true)
    // No project.user.assignRole on Studio.
    await expect(assignProjectMemberRole(manager.actor, { ...base, projectId: f.studio, roleId: DEFAULT_ROLE_IDS.projectViewer })).rejects.toMatchObject({ status: 403 })
    // A viewer cannot assign at all.
    await expect(assignProjectMemberRole(member.actor, { ...base, memberId: manager.id, roleId: DEFAULT_ROLE_IDS.projectViewer })).rejects.toMatchObject({ status: 403 })
    // Not a member of the organization.
    const stranger = await user('stranger')
    await expect(assignProjectMemberRole(f.owner.actor, { ...base, memberId: stranger.id, roleId: DEFAULT_ROLE_IDS.projectViewer })).rejects.toMatchObject({ status: 400 })
    // Global-scope roles are never offered through a project.
    await expect(assignProjectMemberRole(f.owner.actor, { ...base, roleId: DEFAULT_ROLE_IDS.cloudAdmin })).rejects.toMatchObject({ message: 'Role is not allowed' })
    // A role of another organization is not allowed either.
    const other = await fixture()
    const foreign = await prisma.role.create({ data: { name: 'Foreign', organizationId: other.organizationId, orgRef: other.organizationId, resourceType: 2, assignableBy: JSON.stringify([DEFAULT_ROLE_IDS.orgAdmin]) } })
    await expect(assignProjectMemberRole(f.owner.actor, { ...base, roleId: foreign.id })).rejects.toMatchObject({ message: 'Role is not allowed' })

    const rights = await prisma.accessRight.findMany({ where: { userId: member.id, projectId: f.right } })
    expect(rights.map((r) => r.roleId)).toEqual([DEFAULT_ROLE_IDS.projectViewer])
  })
})
