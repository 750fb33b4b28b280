import { type LoaderFunctionArgs } from '@remix-run/node'
import { Link, useLoaderData, useParams } from '@remix-run/react'
import { Activity } from 'lucide-react'
import { useCallback, useMemo } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { LogFooter } from '~/components/logs/log-footer'
import { useCursorLog, useLiveRevalidation, type LogPage } from '~/components/logs/use-cursor-log'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Badge } from '~/components/ui/badge'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import type { AgentEventPage, AgentEventView } from '~/domain/usage/events.server'
import { listAgentEvents } from '~/domain/usage/events.server'
import { callApi } from '~/utils/api-client'
import { domainCall } from '~/utils/errors.server'
import { requireOrgPermission } from '~/utils/org-route.server'

/** The live first page of the metric events log (org.events.view); older pages come by cursor. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireOrgPermission(request, params.organizationId, 'org.events.view')
  return domainCall(() => listAgentEvents(actor, params.organizationId!))
}

export const handle = { breadcrumb: () => ({ label: 'Metrics', to: '.' }) }

type EventRow = Omit<AgentEventView, 'created'> & { created: Date | string }

export default function MetricsPage() {
  const data = useLoaderData<typeof loader>()
  const organizationId = useParams().organizationId!
  useLiveRevalidation()
  const snapshot = useMemo<LogPage<EventRow>>(() => ({ items: data.events, nextCursor: data.nextCursor }), [data])
  const fetchOlder = useCallback(
    async (cursor: string) => {
      const page = await callApi<AgentEventPage>('organization/events', { id: organizationId, pageToken: cursor })
      return { items: page.events as EventRow[], nextCursor: page.nextCursor }
    },
    [organizationId],
  )
  const log = useCursorLog(snapshot, fetchOlder)

  return (
    <div className="max-w-6xl space-y-4">
      <PageHeader title="Metrics" subtitle="Metric events reported by the agents of this organization" />
      {log.items.length === 0 ? (
        <EmptyState icon={<Activity className="size-8" />} title="No data available" text="Agent calls (state updates, pings, configuration reads) appear here as they arrive." />
      ) : (
        <Card>
          <table className="w-full text-[13px]" aria-label="Metric events">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                <th className="px-3 py-2 font-medium">Type</th>
                <th className="px-3 py-2 font-medium">Agent</th>
                <th className="px-3 py-2 font-medium">System</th>
                <th className="px-3 py-2 font-medium">Project(s)</th>
                <th className="px-3 py-2 text-right font-medium">Time</th>
              </tr>
            </thead>
            <tbody>
              {log.items.map((event) => (
                <tr key={event.id} className="border-b last:border-0 hover:bg-muted/30">
                  <td className="px-3 py-1.5 font-mono text-xs">{event.type}</td>
                  <td className="px-3 py-1.5">
                    <Link to={`/organization/${organizationId}/agents/${event.agentId}`} className="hover:underline">
                      {event.agentName}
                    </Link>
                  </td>
                  <td className="px-3 py-1.5">{event.systemName ?? <span className="text-muted-foreground">—</span>}</td>
                  <td className="px-3 py-1.5">
                    {event.projects.length === 0 ? (
                      <Badge variant="secondary">unassigned</Badge>
                    ) : (
                      <span className="flex flex-wrap gap-1">
                        {event.projects.map((p) => (
                          <Link key={p.id} to={`/organization/${organizationId}/projects/${p.id}`} className="hover:underline">
                            <Badge variant="outline">{p.name}</Badge>
                          </Link>
                        ))}
                      </span>
                    )}
                  </td>
                  <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums text-muted-foreground"><DateTime value={event.created} seconds /></td>
                </tr>
              ))}
            </tbody>
          </table>
          <LogFooter log={log} noun="event" />
        </Card>
      )}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
