import { Link, useFetcher } from '@remix-run/react'
import { Check, Copy, Plus, Webhook } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { EmptyState } from '~/components/page-header'
import { Alert } from '~/components/ui/alert'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import { type ActionFailure, type ActionSuccess } from '~/utils/errors.server'

type ChannelRow = { id: string; name: string; type: string; typeLabel: string; url: string; lastDelivery: { status: string; at: string; statusCode: number | null } | null }
type LogRow = { id: string; kind: string; summary: string; status: string; attempts: number; statusCode: number | null; error: string | null; createdAt: string; sentAt: string | null; nextAttemptAt: string | null }

const STATUS_VARIANT = { sent: 'success', pending: 'warning', failed: 'destructive' } as const
const statusLabel = (status: string) => (status === 'pending' ? 'retrying' : status)

export function DeliveryStatus({ status }: { status: string }) {
  return <Badge variant={STATUS_VARIANT[status as keyof typeof STATUS_VARIANT] ?? 'outline'}>{statusLabel(status)}</Badge>
}

/** The channel list: type, masked URL, last delivery; Test, Delivery log, Delete (confirmed). */
export function ChannelsCard({ channels, selected }: { channels: ChannelRow[]; selected: string | null }) {
  const [creating, setCreating] = useState(0)
  const [deleting, setDeleting] = useState<ChannelRow | null>(null)
  const act = useFetcher<ActionSuccess<{ message?: string }> | ActionFailure>()
  useEffect(() => {
    if (act.state !== 'idle' || !act.data) return
    if (act.data.ok) {
      toast.success(act.data.result?.message ?? act.data.message ?? 'Done')
      setDeleting(null)
    } else toast.error(act.data.message)
  }, [act.state, act.data])

  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle>Notification Channels</CardTitle>
          <CardDescription>
            Webhooks, Slack and Microsoft Teams incoming webhooks. Members choose a channel on their notification settings rows; alerts that reach their
            levels are posted there besides the e-mail.
          </CardDescription>
        </div>
        <Button size="sm" onClick={() => setCreating((n) => n + 1)}>
          <Plus /> New Channel
        </Button>
      </CardHeader>
      {channels.length === 0 ? (
        <div className="p-4">
          <EmptyState icon={<Webhook className="size-8" />} title="No notification channels" text="Add a webhook, Slack or Teams channel to post alerts where your crew works." />
        </div>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[720px] text-sm [&_td]:whitespace-nowrap" aria-label="Notification channels">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">Name</th>
                <th className="px-3 py-2 font-medium">Type</th>
                <th className="px-3 py-2 font-medium">URL</th>
                <th className="px-3 py-2 font-medium">Last delivery</th>
                <th className="px-3 py-2" />
              </tr>
            </thead>
            <tbody>
              {channels.map((c) => (
                <tr key={c.id} className={`border-b last:border-0 ${selected === c.id ? 'bg-muted/40' : ''}`}>
                  <td className="px-3 py-2 font-medium">{c.name}</td>
                  <td className="px-3 py-2">
                    <Badge variant="secondary">{c.typeLabel}</Badge>
                  </td>
                  <td className="px-3 py-2 font-mono text-xs text-muted-foreground">{c.url}</td>
                  <td className="px-3 py-2 text-muted-foreground">
                    {c.lastDelivery ? (
                      <span className="inline-flex items-center gap-2">
                        <DeliveryStatus status={c.lastDelivery.status} />
                        <DateTime value={c.lastDelivery.at} />
                      </span>
                    ) : (
                      'Never'
                    )}
                  </td>
                  <td className="space-x-2 px-3 py-2 text-right">
                    <Button size="sm" variant="outline" disabled={act.state !== 'idle'} onClick={() => act.submit({ intent: 'test', id: c.id }, { method: 'post' })}>
                      Test
                    </Button>
                    <Button size="sm" variant="outline" asChild>
                      <Link to={`?log=${c.id}`} preventScrollReset>
                        Delivery log
                      </Link>
                    </Button>
                    <Button size="sm" variant="outline" onClick={() => setDeleting(c)}>
                      Delete
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {creating > 0 ? <CreateChannelDialog key={creating} /> : null}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Channel"
        text={`Are you sure you want to delete the channel '${deleting?.name ?? ''}'? Subscriptions that use it fall back to e-mail only, and its delivery log is removed.`}
        confirmLabel="Delete"
        destructive
        busy={act.state !== 'idle'}
        onConfirm={() => deleting && act.submit({ intent: 'delete', id: deleting.id }, { method: 'post' })}
      />
    </Card>
  )
}

const URL_HINT: Record<string, string> = {
  webhook: 'https://hooks.example.com/pixelfleet',
  slack: 'https://hooks.slack.com/services/…',
  teams: 'https://….webhook.office.com/… or a Workflows URL',
}

/** Name, type and URL; a webhook's signing secret is then shown exactly once. */
function CreateChannelDialog() {
  const [open, setOpen] = useState(true)
  const create = useFetcher<ActionSuccess<{ secret: string | null; channel: { name: string } }> | ActionFailure>()
  const [type, setType] = useState('webhook')
  const [copied, setCopied] = useState(false)
  const created = create.data?.ok ? create.data.result : null
  const issues = create.data && !create.data.ok ? create.data.issues : []
  const general = create.data && !create.data.ok && issues.length === 0 ? create.data.message : undefined
  useEffect(() => {
    if (created && !created.secret) {
      toast.success(`Channel ${created.channel.name} created`)
      setOpen(false)
    }
  }, [created])

  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={created?.secret ? 'Channel created' : 'New Notification Channel'}
      description={created ? undefined : 'Alerts are posted as JSON (webhooks, signed), or as Slack or Teams messages.'}
      footer={
        created ? (
          <Button onClick={() => setOpen(false)}>Done</Button>
        ) : (
          <>
            <Button variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" form="create-channel" disabled={create.state !== 'idle'}>
              Create
            </Button>
          </>
        )
      }
    >
      {created?.secret ? (
        <div className="flex flex-col gap-3">
          <Alert type="warning">Copy the signing secret now. It is shown only once and cannot be retrieved later.</Alert>
          <div className="flex items-center gap-2">
            <Input readOnly value={created.secret} aria-label="Signing secret" className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
            <Button
              variant="outline"
              size="icon"
              aria-label="Copy secret"
              onClick={async () => {
                await navigator.clipboard.writeText(created.secret!)
                setCopied(true)
                toast.success('Secret copied')
              }}
            >
              {copied ? <Check /> : <Copy />}
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">
            Each request carries <code className="font-mono">X-Pixelfleet-Timestamp</code> and <code className="font-mono">X-Pixelfleet-Signature: sha256=…</code>,
            the HMAC-SHA256 of <code className="font-mono">timestamp.body</code> with this secret.
          </p>
        </div>
      ) : (
        <create.Form id="create-channel" method="post" className="flex flex-col gap-3">
          <input type="hidden" name="intent" value="create" />
          <Field label="Name" error={issueFor(issues, 'name') ?? general}>
            {(props) => <Input {...props} name="name" autoFocus maxLength={80} placeholder="Stage crew Slack" />}
          </Field>
          <Field label="Type" error={issueFor(issues, 'type')}>
            {(props) => (
              <NativeSelect {...props} name="type" value={type} onChange={(e) => setType(e.target.value)} className="w-full">
                <option value="webhook">Webhook (signed JSON)</option>
                <option value="slack">Slack incoming webhook</option>
                <option value="teams">Microsoft Teams incoming webhook</option>
              </NativeSelect>
            )}
          </Field>
          <Field label="URL" error={issueFor(issues, 'url')}>
            {(props) => <Input {...props} name="url" type="url" inputMode="url" placeholder={URL_HINT[type]} className="font-mono text-xs" />}
          </Field>
        </create.Form>
      )}
    </Dialog>
  )
}

/** The newest messages of one channel: when, what, status, attempts, HTTP status and error. */
export function DeliveryLogCard({ channel, deliveries }: { channel: { id: string; name: string }; deliveries: LogRow[] }) {
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between gap-4">
        <div className="flex flex-col gap-1">
          <CardTitle>Delivery Log · {channel.name}</CardTitle>
          <CardDescription>The newest messages. Failed attempts are retried with growing delays (5xx, 429, timeouts); other answers fail at once.</CardDescription>
        </div>
        <Button size="sm" variant="outline" asChild>
          <Link to="." preventScrollReset>
            Close
          </Link>
        </Button>
      </CardHeader>
      {deliveries.length === 0 ? (
        <p className="px-4 pb-4 text-sm text-muted-foreground">Nothing sent yet. Use Test to send a sample message.</p>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full min-w-[760px] text-sm" aria-label="Delivery log">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">Time</th>
                <th className="px-3 py-2 font-medium">Message</th>
                <th className="px-3 py-2 font-medium">Status</th>
                <th className="px-3 py-2 font-medium">Attempts</th>
                <th className="px-3 py-2 font-medium">HTTP</th>
                <th className="px-3 py-2 font-medium">Error</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((d) => (
                <tr key={d.id} className="border-b align-top last:border-0">
                  <td className="whitespace-nowrap px-3 py-2 text-muted-foreground">
                    <DateTime value={d.sentAt ?? d.createdAt} seconds />
                  </td>
                  <td className="px-3 py-2">
                    <span className="mr-2 text-xs text-muted-foreground">{d.kind === 'rootCause' ? 'root cause' : d.kind}</span>
                    {d.summary}
                  </td>
                  <td className="whitespace-nowrap px-3 py-2">
                    <DeliveryStatus status={d.status} />
                    {d.nextAttemptAt ? (
                      <span className="ml-2 text-xs text-muted-foreground">
                        next <DateTime value={d.nextAttemptAt} seconds />
                      </span>
                    ) : null}
                  </td>
                  <td className="px-3 py-2 tabular-nums">{d.attempts}</td>
                  <td className="px-3 py-2 tabular-nums">{d.statusCode ?? '—'}</td>
                  <td className="max-w-[280px] truncate px-3 py-2 text-xs text-muted-foreground" title={d.error ?? undefined}>
                    {d.error ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}
