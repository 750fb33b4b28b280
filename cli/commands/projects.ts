import { type Command } from 'commander'
import { z } from 'zod'
import { flattenProjects, orgOption, resolveOrg, resolveProject, withContext, type CliContext } from '../context'
import { notFoundError, usageError } from '../errors'
import { printDone, printRecord, printRows } from '../output'

export type ProjectNode = {
  id: string
  name: string
  description: string
  parentId: string | null
  parentName: string | null
  systemsCount: number
  linkTo: string
  subRows: ProjectNode[]
}
type ProjectList = { projects: ProjectNode[]; systems: { total: number; unassigned: number } }
type ProjectMembers = {
  members: { id: string; name: string; email: string; inheritedRoles: { roleName: string; scope: string }[]; projectRoles: { roleId: string; roleName: string }[] }[]
}

const withOrg = z.object({ org: orgOption })

/** The project tree as indented text (pure): `name  (id, n systems)`, children two spaces deeper. */
export function projectTreeText(nodes: ProjectNode[]): string {
  if (nodes.length === 0) return 'No projects.'
  return flattenProjects(nodes)
    .map((p) => `${'  '.repeat(p.depth)}${p.name}  (${p.id}, ${p.systemsCount} system${p.systemsCount === 1 ? '' : 's'})`)
    .join('\n')
}

/** JSON of one node without its children (lists are flat; `projects tree --json` keeps the nesting). */
const flat = ({ subRows: _children, ...p }: ProjectNode & { depth: number }) => p

async function loadProjects(ctx: CliContext, org: string) {
  const organizationId = await resolveOrg(ctx, org)
  return { organizationId, list: await ctx.client.call<ProjectList>('project/list', { organizationId }) }
}

/** `pixelfleet projects ...`: projects of an organization (project/* calls). */
export function registerProjectsCommands(program: Command) {
  const projects = program.command('projects').description('projects of an organization')

  projects
    .command('list')
    .description('list the projects you can see, parents before their sub-projects')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o) => {
        const { organizationId, list } = await loadProjects(ctx, o.org)
        const rows = flattenProjects(list.projects)
        printRows(ctx, { organizationId, projects: rows.map(flat), systems: list.systems }, rows, [
          ['id', (p) => p.id],
          ['name', (p) => p.name],
          ['parent', (p) => p.parentName ?? ''],
          ['systems', (p) => p.systemsCount],
          ['description', (p) => p.description],
        ], 'No projects.')
      }),
    )

  projects
    .command('tree')
    .description('show the project tree')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o) => {
        const { organizationId, list } = await loadProjects(ctx, o.org)
        if (ctx.format === 'table') return void process.stdout.write(projectTreeText(list.projects) + '\n')
        const rows = flattenProjects(list.projects)
        printRows(ctx, { organizationId, ...list }, rows, [
          ['id', (p) => p.id],
          ['name', (p) => p.name],
          ['depth', (p) => p.depth],
          ['parentId', (p) => p.parentId ?? ''],
          ['systems', (p) => p.systemsCount],
        ])
      }),
    )

  projects
    .command('show')
    .description('show one project')
    .argument('<project>', 'project id or name')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [project]) => {
        const { organizationId, list } = await loadProjects(ctx, o.org)
        const all = flattenProjects(list.projects)
        const id = await resolveProject(ctx, organizationId, project)
        const found = all.find((p) => p.id === id)
        if (!found) throw notFoundError(`No such project ${project} in organization ${organizationId}`)
        printRecord(ctx, { organizationId, ...flat(found), subProjects: found.subRows.map((s) => ({ id: s.id, name: s.name })) }, [
          ['ID', found.id],
          ['Name', found.name],
          ['Description', found.description],
          ['Parent', found.parentName ?? ''],
          ['Systems', found.systemsCount],
          ['Sub-projects', found.subRows.map((s) => s.name).join(', ')],
          ['Link', `${ctx.url}${found.linkTo}`],
        ])
      }),
    )

  projects
    .command('create')
    .description('create a project (or a sub-project with --parent)')
    .argument('<name>', 'project name')
    .requiredOption('--org <id|name>', 'organization')
    .option('--description <text>', 'description')
    .option('--parent <project>', 'parent project id or name')
    .action(
      withContext(withOrg.extend({ description: z.string().optional(), parent: z.string().optional() }), async (ctx, o, [name]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const parentId = o.parent ? await resolveProject(ctx, organizationId, o.parent) : undefined
        const result = await ctx.client.call<{ projectId: string }>('project/create', { organizationId, project: { name, description: o.description, parentId } })
        printDone(ctx, { organizationId, ...result }, `Created project ${name} (${result.projectId})`)
      }),
    )

  projects
    .command('update')
    .description("change a project's name, description or parent")
    .argument('<project>', 'project id or name')
    .requiredOption('--org <id|name>', 'organization')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--parent <project>', "new parent project id or name ('none': top level)")
    .action(
      withContext(withOrg.extend({ name: z.string().optional(), description: z.string().optional(), parent: z.string().optional() }), async (ctx, o, [project]) => {
        if (o.name === undefined && o.description === undefined && o.parent === undefined) throw usageError('Give --name, --description and/or --parent')
        const organizationId = await resolveOrg(ctx, o.org)
        const projectId = await resolveProject(ctx, organizationId, project)
        const parentId = o.parent === undefined ? undefined : o.parent.toLowerCase() === 'none' ? null : await resolveProject(ctx, organizationId, o.parent)
        const doc = Object.fromEntries(Object.entries({ name: o.name, description: o.description, parentId }).filter(([, v]) => v !== undefined))
        const result = await ctx.client.call('project/update', { organizationId, projectId, doc })
        printDone(ctx, { organizationId, projectId, ...result }, `Updated project ${projectId}`)
      }),
    )

  projects
    .command('delete')
    .description('delete a project (--recursive also deletes its sub-projects)')
    .argument('<project>', 'project id or name')
    .requiredOption('--org <id|name>', 'organization')
    .option('--recursive', 'delete the sub-projects too')
    .action(
      withContext(withOrg.extend({ recursive: z.boolean().default(false) }), async (ctx, o, [project]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const projectId = await resolveProject(ctx, organizationId, project)
        const result = await ctx.client.call('project/delete', { organizationId, projectId, recurse: o.recursive })
        printDone(ctx, { organizationId, projectId, ...result }, `Deleted project ${projectId}`)
      }),
    )

  projects
    .command('members')
    .description("members of a project and their roles on it")
    .argument('<project>', 'project id or name')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [project]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const projectId = await resolveProject(ctx, organizationId, project)
        const result = await ctx.client.call<ProjectMembers>('project/members', { organizationId, projectId })
        printRows(ctx, { organizationId, projectId, ...result }, result.members, [
          ['id', (m) => m.id],
          ['name', (m) => m.name],
          ['email', (m) => m.email],
          ['project roles', (m) => m.projectRoles.map((r) => r.roleName).join(', ')],
          ['inherited', (m) => m.inheritedRoles.map((r) => `${r.roleName} (${r.scope})`).join(', ')],
        ], 'No members.')
      }),
    )

  for (const [name, call, verb] of [
    ['assign-role', 'project/memberRoleAssign', 'Gave'],
    ['unassign-role', 'project/memberRoleUnassign', 'Took'],
  ] as const) {
    projects
      .command(name)
      .description(name === 'assign-role' ? 'give a member a role on a project' : "take a member's role on a project away")
      .argument('<project>', 'project id or name')
      .requiredOption('--org <id|name>', 'organization')
      .requiredOption('--member <userId>', 'user id of the member')
      .requiredOption('--role <roleId>', 'role id (see `pixelfleet roles list`)')
      .action(
        withContext(withOrg.extend({ member: z.string(), role: z.string() }), async (ctx, o, [project]) => {
          const organizationId = await resolveOrg(ctx, o.org)
          const projectId = await resolveProject(ctx, organizationId, project)
          const result = await ctx.client.call(call, { organizationId, projectId, memberId: o.member, roleId: o.role })
          printDone(ctx, { organizationId, projectId, ...result }, `${verb} role ${o.role} ${verb === 'Gave' ? 'to' : 'from'} ${o.member} on project ${projectId}`)
        }),
      )
  }
}
