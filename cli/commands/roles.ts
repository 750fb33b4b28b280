import { type Command } from 'commander'
import { z } from 'zod'
import { scopeName, Scope } from '../../app/domain/access/catalogue'
import { orgOption, resolveOrg, withContext } from '../context'
import { usageError } from '../errors'
import { printDone, printRows } from '../output'

type Role = { id: string; name: string; description: string; organizationId: string; resourceType: number; permissions: string[]; inUse: boolean; editable: boolean }
type RoleHolder = { id: string; userId: string; userName: string; email: string; organizationName: string; projectName: string | null }

const withOrg = z.object({ org: orgOption })
const SCOPES: Record<string, number> = { global: Scope.Global, organization: Scope.Organization, project: Scope.Project }
const scopeOption = z
  .string()
  .transform((v, c) => SCOPES[v.toLowerCase()] ?? (c.addIssue({ code: 'custom', message: '--scope must be organization, project or global' }), z.NEVER))
const permissionsOption = z
  .string()
  .transform((v) => v.split(',').map((p) => p.trim()).filter(Boolean))
  .optional()

/** `pixelfleet roles ...` (auth/userRole* calls): the organization's roles and the global ones. */
export function registerRolesCommands(program: Command) {
  const roles = program.command('roles').description('roles (named permission sets) of an organization')

  roles
    .command('list')
    .description("the organization's roles and the global roles")
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ roles: Role[] }>('auth/userRoleList', { organizationId })
        printRows(ctx, { organizationId, roles: result.roles }, result.roles, [
          ['id', (r) => r.id],
          ['name', (r) => r.name],
          ['scope', (r) => scopeName(r.resourceType)],
          ['owner', (r) => (r.organizationId ? 'organization' : 'global')],
          ['permissions', (r) => r.permissions.length],
          ['in use', (r) => (r.inUse ? 'yes' : 'no')],
        ], 'No roles.')
      }),
    )

  roles
    .command('create')
    .description('create a role of the organization')
    .argument('<name>', 'role name')
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--scope <scope>', 'organization or project (global: site admins)')
    .option('--permissions <list>', 'comma-separated permissions, e.g. agent.list,project.view')
    .option('--assignable-by <roleIds>', 'comma-separated ids of the roles whose holders may give this role')
    .option('--description <text>', 'description')
    .action(
      withContext(withOrg.extend({ scope: scopeOption, permissions: permissionsOption, assignableBy: permissionsOption, description: z.string().optional() }), async (ctx, o, [name]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ id: string }>('auth/userRoleCreate', {
          organizationId,
          name,
          resourceType: o.scope,
          permissions: o.permissions ?? [],
          assignableBy: o.assignableBy ?? [],
          description: o.description,
        })
        printDone(ctx, { organizationId, ...result }, `Created role ${name} (${result.id})`)
      }),
    )

  roles
    .command('update')
    .description("change a role's name, description or permissions")
    .argument('<roleId>', 'role id')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .option('--permissions <list>', 'comma-separated permissions (replaces the current ones)')
    .option('--assignable-by <roleIds>', 'comma-separated role ids (replaces the current ones)')
    .action(
      withContext(z.object({ name: z.string().optional(), description: z.string().optional(), permissions: permissionsOption, assignableBy: permissionsOption }), async (ctx, o, [id]) => {
        const doc = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined))
        if (Object.keys(doc).length === 0) throw usageError('Give --name, --description, --permissions and/or --assignable-by')
        const result = await ctx.client.call('auth/userRoleUpdate', { id, doc })
        printDone(ctx, { id, ...result }, `Updated role ${id}`)
      }),
    )

  roles
    .command('delete')
    .description('delete a role nobody holds')
    .argument('<roleId>', 'role id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [id]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call('auth/userRoleDelete', { id, organizationId })
        printDone(ctx, { id, ...result }, `Deleted role ${id}`)
      }),
    )

  roles
    .command('holders')
    .description('who holds a role in the organization')
    .argument('<roleId>', 'role id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [roleId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ accessRights: RoleHolder[] }>('auth/userRolesQuery', { organizationId, roleId })
        printRows(ctx, { organizationId, roleId, ...result }, result.accessRights, [
          ['user id', (r) => r.userId],
          ['name', (r) => r.userName],
          ['email', (r) => r.email],
          ['scope', (r) => r.projectName ?? 'Organization'],
        ], 'Nobody holds this role.')
      }),
    )
}
