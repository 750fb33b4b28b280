import { type Command } from 'commander'
import { z } from 'zod'
import { orgOption, resolveOrg, resolveProject, withContext } from '../context'
import { formatAge, printDone, printRows } from '../output'

type Member = {
  id: string
  name: string
  email: string
  lastSeen: number | null
  isOwner: boolean
  isYou: boolean
  accessRights: { id: string; scopeName: string; roleId: string; roleName: string }[]
}
type Invite = { id: string; organizationId: string; organizationName?: string; recipient: string; status: string; roleName: string; projects: { id: string; name: string }[] }

const withOrg = z.object({ org: orgOption })
const none = z.object({})

/** `pixelfleet members ...` (organization/member* and userRole* calls). */
export function registerMembersCommands(program: Command) {
  const members = program.command('members').description('members of an organization and their roles')

  members
    .command('list')
    .description('list the members with their access rights (role per scope)')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ members: Member[] }>('organization/memberList', { organizationId })
        printRows(ctx, { organizationId, members: result.members }, result.members, [
          ['id', (m) => m.id],
          ['name', (m) => m.name + (m.isOwner ? ' (owner)' : '') + (m.isYou ? ' (you)' : '')],
          ['email', (m) => m.email],
          ['roles', (m) => m.accessRights.map((r) => `${r.roleName} @ ${r.scopeName} [${r.id}]`).join(', ')],
          ['last seen', (m) => formatAge(m.lastSeen ? new Date(m.lastSeen * 1000).toISOString() : null)],
        ], 'No members.')
      }),
    )

  members
    .command('add')
    .description('add an existing account to the organization with an organization role')
    .argument('<email>', "the account's e-mail")
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--role <roleId>', 'role id (see `pixelfleet roles list`)')
    .action(
      withContext(withOrg.extend({ role: z.string() }), async (ctx, o, [email]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ memberId: string; aclId: string }>('organization/memberAdd', { organizationId, email, roleId: o.role })
        printDone(ctx, { organizationId, ...result }, `Added ${email} (${result.memberId}) to organization ${organizationId}`)
      }),
    )

  members
    .command('remove')
    .description('remove a member (every access right in the organization)')
    .argument('<userId>', "the member's user id")
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [userId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call('organization/memberRemove', { organizationId, userId })
        printDone(ctx, { organizationId, ...result }, `Removed ${userId} from organization ${organizationId}`)
      }),
    )

  members
    .command('set-role')
    .description('change the role of one access right (ids from `members list`)')
    .argument('<accessRightId>', 'access right id (in brackets in `members list`)')
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--user <userId>', "the member's user id")
    .requiredOption('--role <roleId>', 'new role id')
    .action(
      withContext(withOrg.extend({ user: z.string(), role: z.string() }), async (ctx, o, [aclId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call('organization/userRoleAssign', { organizationId, aclId, userId: o.user, roleId: o.role })
        printDone(ctx, { organizationId, ...result }, `Access right ${aclId} now has role ${o.role}`)
      }),
    )

  members
    .command('unset-role')
    .description('remove one access right of a member')
    .argument('<accessRightId>', 'access right id (in brackets in `members list`)')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [aclId]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call('organization/userRoleUnassign', { organizationId, aclId })
        printDone(ctx, { organizationId, ...result }, `Removed access right ${aclId}`)
      }),
    )
}

const inviteColumns: [string, (i: Invite) => unknown][] = [
  ['id', (i) => i.id],
  ['recipient', (i) => i.recipient],
  ['role', (i) => i.roleName],
  ['projects', (i) => i.projects.map((p) => p.name).join(', ')],
  ['status', (i) => i.status],
]

/** `pixelfleet invites ...` (organization/invite* and invite/* calls). */
export function registerInvitesCommands(program: Command) {
  const invites = program.command('invites').description('invitations to organizations')

  invites
    .command('list')
    .description("an organization's active invites, or with --mine the ones addressed to you")
    .option('--org <id|name>', 'organization')
    .option('--mine', 'invites addressed to your e-mail instead')
    .action(
      withContext(z.object({ org: z.string().optional(), mine: z.boolean().default(false) }).refine((o) => o.mine !== Boolean(o.org), 'Give --org <id|name> or --mine'), async (ctx, o) => {
        if (o.mine) {
          const mine = await ctx.client.call<{ invites: Invite[] }>('invite/mine')
          return printRows(ctx, mine, mine.invites, [['organization', (i) => i.organizationName ?? i.organizationId], ...inviteColumns], 'No invites.')
        }
        const organizationId = await resolveOrg(ctx, o.org!)
        const result = await ctx.client.call<{ invites: Invite[] }>('organization/inviteList', { organizationId })
        printRows(ctx, { organizationId, invites: result.invites }, result.invites, inviteColumns, 'No invites.')
      }),
    )

  invites
    .command('create')
    .description('invite an e-mail address with an organization role (and optionally a role on projects)')
    .argument('<email>', 'recipient')
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--role <roleId>', 'organization role id')
    .option('--project <project...>', 'project ids or names the project role applies to')
    .option('--project-role <roleId>', 'project role id')
    .action(
      withContext(withOrg.extend({ role: z.string(), project: z.array(z.string()).optional(), projectRole: z.string().optional() }), async (ctx, o, [recipient]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const projects = o.project ? await Promise.all(o.project.map((p) => resolveProject(ctx, organizationId, p))) : undefined
        const result = await ctx.client.call('organization/inviteCreate', { organizationId, recipient, roleId: o.role, projects, projectRoleId: o.projectRole })
        printDone(ctx, { organizationId, ...result }, `Invited ${recipient} to organization ${organizationId}`)
      }),
    )

  for (const [name, call, description] of [
    ['resend', 'organization/inviteResend', 'send an invite e-mail again'],
    ['revoke', 'organization/inviteRevoke', 'revoke an invite'],
    ['accept', 'invite/accept', 'accept an invite addressed to you'],
    ['decline', 'invite/decline', 'decline an invite addressed to you'],
  ] as const) {
    invites
      .command(name)
      .description(description)
      .argument('<inviteId>', 'invite id')
      .action(
        withContext(none, async (ctx, _o, [inviteId]) => {
          const result = await ctx.client.call(call, { inviteId })
          printDone(ctx, { inviteId, ...result }, `Invite ${inviteId}: ${name === 'resend' ? 'sent again' : `${name}${name.endsWith('e') ? 'd' : 'ed'}`}`)
        }),
      )
  }
}
