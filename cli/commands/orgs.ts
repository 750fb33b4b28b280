import { type Command } from 'commander'
import { z } from 'zod'
import { orgOption, resolveOrg, withContext } from '../context'
import { usageError } from '../errors'
import { printDone, printRecord, printRows } from '../output'

type Org = {
  id: string
  name: string
  description: string
  isDefault: boolean
  isOwner: boolean
  projectCount: number | null
  agentCount: number | null
  memberCount: number | null
}
type OrgDetail = { id: string; name: string; description: string; owner: { id: string; name: string; email: string }; linkTo: string }

const none = z.object({})
const withOrg = z.object({ org: orgOption })

/** `pixelfleet orgs ...`: the organizations you belong to (organization/* calls). */
export function registerOrgsCommands(program: Command) {
  const orgs = program.command('orgs').description('organizations you belong to')

  orgs
    .command('list')
    .description('list your organizations with what you can see of them')
    .action(
      withContext(none, async (ctx) => {
        const { organizations } = await ctx.client.call<{ organizations: Org[] }>('organization/list')
        printRows(ctx, { organizations }, organizations, [
          ['id', (o) => o.id],
          ['name', (o) => o.name + (o.isDefault ? ' (default)' : '')],
          ['owner', (o) => (o.isOwner ? 'you' : '')],
          ['projects', (o) => o.projectCount ?? '-'],
          ['agents', (o) => o.agentCount ?? '-'],
          ['members', (o) => o.memberCount ?? '-'],
        ], 'No organizations.')
      }),
    )

  orgs
    .command('show')
    .description('show one organization')
    .argument('<org>', 'organization id or name')
    .action(
      withContext(none, async (ctx, _o, [org]) => {
        const detail = await ctx.client.call<OrgDetail>('organization/get', { id: await resolveOrg(ctx, org) })
        printRecord(ctx, detail, [
          ['ID', detail.id],
          ['Name', detail.name],
          ['Description', detail.description],
          ['Owner', `${detail.owner.name} <${detail.owner.email}>`],
          ['Link', `${ctx.url}${detail.linkTo}`],
        ])
      }),
    )

  orgs
    .command('create')
    .description('create an organization (you become its owner)')
    .argument('<name>', 'organization name')
    .option('--description <text>', 'description')
    .action(
      withContext(z.object({ description: z.string().optional() }), async (ctx, o, [name]) => {
        const created = await ctx.client.call<{ organizationId: string }>('organization/create', { name, description: o.description })
        printDone(ctx, created, `Created organization ${name} (${created.organizationId})`)
      }),
    )

  orgs
    .command('update')
    .description('rename an organization or change its description')
    .argument('<org>', 'organization id or name')
    .option('--name <name>', 'new name')
    .option('--description <text>', 'new description')
    .action(
      withContext(z.object({ name: z.string().optional(), description: z.string().optional() }), async (ctx, o, [org]) => {
        if (o.name === undefined && o.description === undefined) throw usageError('Give --name and/or --description')
        const id = await resolveOrg(ctx, org)
        const result = await ctx.client.call<{ updated: string[] }>('organization/update', { id, doc: { name: o.name, description: o.description } })
        printDone(ctx, { organizationId: id, ...result }, `Updated ${result.updated.join(' and ')} of organization ${id}`)
      }),
    )

  orgs
    .command('delete')
    .description('delete an organization (owner only; it must have no agents)')
    .argument('<org>', 'organization id or name')
    .option('--yes', 'confirm: the organization, its projects and roles are deleted')
    .action(
      withContext(z.object({ yes: z.boolean().default(false) }), async (ctx, o, [org]) => {
        if (!o.yes) throw usageError('Deleting an organization cannot be undone; add --yes to confirm')
        const result = await ctx.client.call<{ organizationId: string }>('organization/delete', { id: await resolveOrg(ctx, org) })
        printDone(ctx, result, `Deleted organization ${result.organizationId}`)
      }),
    )

  orgs
    .command('leave')
    .description('leave an organization you are a member of')
    .argument('<org>', 'organization id or name')
    .action(
      withContext(none, async (ctx, _o, [org]) => {
        const result = await ctx.client.call<{ organizationId: string }>('organization/memberLeave', { id: await resolveOrg(ctx, org) })
        printDone(ctx, result, `Left organization ${result.organizationId}`)
      }),
    )

  orgs
    .command('transfer')
    .description('transfer the ownership of an organization to another member')
    .argument('<org>', 'organization id or name')
    .requiredOption('--to <userId>', "the new owner's user id (see `pixelfleet members list`)")
    .action(
      withContext(z.object({ to: z.string().min(1) }), async (ctx, o, [org]) => {
        const result = await ctx.client.call<{ organizationId: string; ownerId: string }>('organization/transferOwner', { id: await resolveOrg(ctx, org), newOwnerId: o.to })
        printDone(ctx, result, `Organization ${result.organizationId} now belongs to ${result.ownerId}`)
      }),
    )

  orgs
    .command('request-billing')
    .description("ask the vendor to enable billing for an organization (status 'requested')")
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o) => {
        const id = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ billingStatus: string }>('organization/billingStatusUpdateRequest', { id })
        printDone(ctx, { organizationId: id, ...result }, `Billing status of ${id}: ${result.billingStatus}`)
      }),
    )
}
