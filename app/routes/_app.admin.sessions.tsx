import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData, useRevalidator } from '@remix-run/react'
import { MonitorUp } from 'lucide-react'
import { useEffect } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Card } from '~/components/ui/card'
import { Tooltip } from '~/components/ui/tooltip'
import { listProxySessions } from '~/domain/relay/sessions.server'
import { requireSiteAdmin } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { formatDateTime, timeAgo } from '~/utils/format-time'
import { useNow } from '~/utils/use-live-revalidate'

/** Spec 01 section 9: the sessions table refreshes every 5000 ms. */
const REFRESH_MS = 5000

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireSiteAdmin(request)
  return { sessions: await domainCall(() => listProxySessions(actor)) }
}

export const meta: MetaFunction = () => [{ title: 'Sessions · Admin · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Sessions', to: '.' }) }

const COLUMNS = ['Session', 'Agent', 'User e-mail', 'IP address', 'Browser', 'OS', 'Since', 'Last seen', 'Active connections', 'Last path']

/** Admin > Sessions: the remote-portal proxy sessions that are open now. */
export default function AdminSessions() {
  const { sessions } = useLoaderData<typeof loader>()
  const revalidator = useRevalidator()
  const now = useNow(1000)
  useEffect(() => {
    const id = setInterval(() => {
      if (revalidator.state === 'idle') revalidator.revalidate()
    }, REFRESH_MS)
    return () => clearInterval(id)
  }, [revalidator])

  return (
    <div className="space-y-4">
      <PageHeader title="Sessions" subtitle="Remote portal sessions through the relay. Refreshed every 5 seconds." />
      {sessions.length === 0 ? (
        <EmptyState icon={<MonitorUp className="size-8" />} title="No open sessions" text="Sessions appear here while someone has an agent's remote portal open." />
      ) : (
        <Card className="relative overflow-x-auto">
          <table className="w-full text-xs" aria-label="Proxy sessions">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c} className="px-2.5 py-2 align-bottom font-medium">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sessions.map((s) => (
                <tr key={s.id} className="border-b last:border-0 hover:bg-muted/30">
                  <td className="px-2.5 py-1.5 font-mono" title={s.id}>
                    {s.id.slice(0, 8)}…
                  </td>
                  <td className="px-2.5 py-1.5">
                    <Tooltip content={s.agentPath}>
                      <span className="cursor-help whitespace-nowrap">{s.agentName}</span>
                    </Tooltip>
                  </td>
                  <td className="px-2.5 py-1.5">{s.userEmail}</td>
                  <td className="px-2.5 py-1.5 font-mono">{s.clientIp || '—'}</td>
                  <td className="whitespace-nowrap px-2.5 py-1.5">{s.browser || '—'}</td>
                  <td className="whitespace-nowrap px-2.5 py-1.5">{s.os || '—'}</td>
                  <td className="whitespace-nowrap px-2.5 py-1.5">
                    <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>
                  </td>
                  <td className="whitespace-nowrap px-2.5 py-1.5 text-muted-foreground">
                    <time dateTime={s.lastSeen} title={formatDateTime(s.lastSeen, { seconds: true })}>
                      {timeAgo(s.lastSeen, now)}
                    </time>
                  </td>
                  <td className="px-2.5 py-1.5 text-right tabular-nums">{s.connectionsActive ?? 0}</td>
                  <td className="max-w-48 truncate px-2.5 py-1.5 font-mono" title={s.lastPath}>
                    {s.lastPath || '—'}
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
