import { type Command } from 'commander'
import { z } from 'zod'
import { type notificationChannelsOutputs } from '../../app/api/outputs/notification-channels'
import manifest from '../api-calls.generated.json'
import { type ManifestCall } from '../api-calls-manifest'
import { orgOption, resolveOrg, withContext } from '../context'
import { printDone, printRecord, printRows } from '../output'

type Outputs = typeof notificationChannelsOutputs
type ChannelList = z.infer<Outputs['organization/notificationChannels']>
type Created = z.infer<Outputs['organization/createNotificationChannel']>
type Tested = z.infer<Outputs['organization/testNotificationChannel']>

/** The channel types the portal takes, from the call registry's manifest (so the CLI cannot lag behind it). */
export const CHANNEL_TYPES: string[] =
  (manifest as ManifestCall[]).find((c) => c.name === 'organization/createNotificationChannel')?.fields.find((f) => f.name === 'type')?.choices ?? []

const withOrg = z.object({ org: orgOption })

/** `pixelfleet channels ...` (organization/*NotificationChannel* calls): where notifications go besides e-mail. */
export function registerChannelsCommands(program: Command) {
  const channels = program.command('channels').description("notification channels of an organization (webhook, Slack, Teams)")

  channels
    .command('list')
    .description("the organization's channels with their last delivery (URLs shown shortened: they are secrets)")
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const list = await ctx.client.call<ChannelList>('organization/notificationChannels', { organization: organizationId })
        printRows(ctx, { organizationId, ...list }, list.channels, [
          ['id', (c) => c.id],
          ['name', (c) => c.name],
          ['type', (c) => c.type],
          ['url', (c) => c.url],
          ['created', (c) => c.createdAt],
          ['lastDelivery', (c) => (c.lastDelivery ? `${c.lastDelivery.status} ${c.lastDelivery.at}` : '')],
        ], 'No notification channels.')
      }),
    )

  channels
    .command('create')
    .description("add a channel; a webhook's signing secret is printed once")
    .argument('<name>', 'channel name')
    .requiredOption('--org <id|name>', 'organization')
    .requiredOption('--type <type>', CHANNEL_TYPES.join('|'))
    .requiredOption('--target <url>', 'the https address deliveries are posted to')
    .action(
      withContext(
        withOrg.extend({ type: z.string().refine((t) => CHANNEL_TYPES.includes(t), { message: `--type must be ${CHANNEL_TYPES.join(', ')}` }), target: z.string() }),
        async (ctx, o, [name]) => {
          const organizationId = await resolveOrg(ctx, o.org)
          const result = await ctx.client.call<Created>('organization/createNotificationChannel', { organization: organizationId, name, type: o.type, url: o.target })
          if (ctx.format === 'table' && !result.secret) return printDone(ctx, result, `Created channel ${result.channel.id}`)
          printRecord(ctx, result, [
            ['id', result.channel.id],
            ['name', result.channel.name],
            ['type', result.channel.type],
            ['url', result.channel.url],
            ['secret', result.secret ?? ''],
          ])
        },
      ),
    )

  channels
    .command('test')
    .description('send a test notification through the channel now and show the delivery')
    .argument('<channelId>', 'channel id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [id]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<Tested>('organization/testNotificationChannel', { organization: organizationId, id })
        const d = result.delivery
        printRecord(ctx, result, [
          ['message', result.message],
          ['status', d?.status ?? ''],
          ['statusCode', d?.statusCode ?? ''],
          ['attempts', d?.attempts ?? ''],
          ['error', d?.error ?? ''],
        ])
      }),
    )

  channels
    .command('delete')
    .description('delete a channel (subscriptions that used it fall back to e-mail)')
    .argument('<channelId>', 'channel id')
    .requiredOption('--org <id|name>', 'organization')
    .action(
      withContext(withOrg, async (ctx, o, [id]) => {
        const organizationId = await resolveOrg(ctx, o.org)
        const result = await ctx.client.call<{ message: string }>('organization/deleteNotificationChannel', { organization: organizationId, id })
        printDone(ctx, { channelId: id, ...result }, result.message)
      }),
    )
}
