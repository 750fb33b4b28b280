import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useLoaderData, useSearchParams } from '@remix-run/react'
import { Mail } from 'lucide-react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { Card } from '~/components/ui/card'
import { adminOutbox, type OutboxState } from '~/domain/mail/outbox.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { cn } from '~/utils/cn'
import { getConfig } from '~/utils/env.server'
import { domainCall } from '~/utils/errors.server'
import { formatCount, formatDateTime } from '~/utils/format-time'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  const onlyProblems = new URL(request.url).searchParams.get('show') === 'problems'
  const outbox = await domainCall(() => adminOutbox(actor, { onlyProblems }))
  const iso = (d: Date | null) => (d ? d.toISOString() : null)
  return {
    smtp: Boolean(getConfig().SMTP_URL),
    counts: outbox.counts,
    rows: outbox.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString(), sentAt: iso(r.sentAt), nextAttemptAt: iso(r.nextAttemptAt) })),
  }
}

export const meta: MetaFunction = () => [{ title: 'Mail · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Mail', to: '.' }) }

const STATE: Record<OutboxState, { label: string; variant: 'success' | 'warning' | 'destructive' | 'secondary' | 'default' }> = {
  sent: { label: 'Sent', variant: 'success' },
  sending: { label: 'Sending', variant: 'default' },
  retrying: { label: 'Retrying', variant: 'warning' },
  failed: { label: 'Failed', variant: 'destructive' },
  stored: { label: 'Outbox only', variant: 'secondary' },
}

/** Admin > Mail: the outgoing e-mail, its delivery state and the failures the sender is retrying. */
export default function AdminMail() {
  const { smtp, counts, rows } = useLoaderData<typeof loader>()
  const [params] = useSearchParams()
  const onlyProblems = params.get('show') === 'problems'
  const subtitle = smtp
    ? `Sent through SMTP_URL. A failed send is retried with backoff for about a day. ${counts.retrying} retrying, ${counts.failed} failed, ${counts.total} in total.`
    : 'SMTP_URL is not set: messages are stored here and in the server log only, nothing leaves the machine.'
  return (
    <div className="space-y-4">
      <PageHeader title="Mail" subtitle={subtitle} />
      <div className="flex gap-1 text-sm" role="tablist" aria-label="Messages shown">
        {[
          ['All messages', ''],
          [`Problems (${formatCount(counts.retrying + counts.failed)})`, '?show=problems'],
        ].map(([label, search]) => {
          const active = search ? onlyProblems : !onlyProblems
          return (
            <Link key={label} to={search || '.'} role="tab" aria-selected={active} className={cn('rounded-md px-2.5 py-1 hover:bg-accent', active && 'bg-accent font-medium')}>
              {label}
            </Link>
          )
        })}
      </div>
      {rows.length === 0 ? (
        <EmptyState icon={<Mail className="size-8" />} title={onlyProblems ? 'No delivery problems' : 'No messages yet'} text="Verification, reset, invite and alert e-mails appear here." />
      ) : (
        <Card className="relative overflow-x-auto">
          <table className="w-full text-xs" aria-label="Outgoing e-mail">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                {['Created', 'To', 'Subject', 'Kind', 'State', 'Attempts', 'Next attempt', 'Last error'].map((c) => (
                  <th key={c} className="px-2.5 py-2 align-bottom font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-b last:border-0 hover:bg-muted/30">
                  <td className="whitespace-nowrap px-2.5 py-1.5">
                    <time dateTime={r.createdAt}>{formatDateTime(r.createdAt, { seconds: true })}</time>
                  </td>
                  <td className="px-2.5 py-1.5">{r.to}</td>
                  <td className="max-w-72 truncate px-2.5 py-1.5" title={r.subject}>
                    {r.subject}
                  </td>
                  <td className="px-2.5 py-1.5 font-mono text-muted-foreground">{r.kind || '—'}</td>
                  <td className="px-2.5 py-1.5">
                    <Badge variant={STATE[r.state].variant}>{STATE[r.state].label}</Badge>
                  </td>
                  <td className="px-2.5 py-1.5 text-right tabular-nums">{r.attempts}</td>
                  <td className="whitespace-nowrap px-2.5 py-1.5 text-muted-foreground">{r.state === 'retrying' && r.nextAttemptAt ? formatDateTime(r.nextAttemptAt, { seconds: true }) : '—'}</td>
                  <td className="max-w-80 truncate px-2.5 py-1.5 font-mono text-red-700" title={r.error ?? ''}>
                    {r.error ?? ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
