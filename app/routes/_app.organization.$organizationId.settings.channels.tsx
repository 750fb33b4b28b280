import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ChannelsCard, DeliveryLogCard } from '~/components/notifications/channels-ui'
import { channelDeliveries, createChannel, deleteChannel, listChannels, testChannel } from '~/domain/notifications/channels/channels.server'
import { invalid } from '~/domain/errors'
import { requireUser } from '~/utils/auth.server'
import { domainCall, formAction } from '~/utils/errors.server'
import { readFormData } from '~/utils/form.server'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organization = params.organizationId!
  const { channels } = await domainCall(() => listChannels(actor, { organization }))
  const logId = new URL(request.url).searchParams.get('log')
  const log = logId && channels.some((c) => c.id === logId) ? await domainCall(() => channelDeliveries(actor, { organization, id: logId })) : null
  return { channels, log }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const organization = params.organizationId!
  const form = await readFormData(request)
  const intent = form.get('intent')
  const id = String(form.get('id') ?? '')
  if (intent === 'create') {
    return formAction(() => createChannel(actor, { organization, name: form.get('name') ?? '', type: form.get('type') ?? '', url: form.get('url') ?? '' }))
  }
  if (intent === 'test') return formAction(() => testChannel(actor, { organization, id }))
  if (intent === 'delete') return formAction(() => deleteChannel(actor, { organization, id }), 'Channel deleted')
  return formAction(async () => {
    throw invalid('Unknown action')
  })
}

export const meta: MetaFunction = () => [{ title: 'Notification Channels · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Notification Channels', to: '.' }) }

/** Organization settings, Notification Channels: webhooks, Slack and Teams; test, delete, delivery log. */
export default function NotificationChannelsTab() {
  const { channels, log } = useLoaderData<typeof loader>()
  return (
    <div className="flex flex-col gap-5">
      <ChannelsCard channels={channels} selected={log?.channel.id ?? null} />
      {log ? <DeliveryLogCard channel={log.channel} deliveries={log.deliveries} /> : null}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
