import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { SEVERITY_CHART_COLORS } from '~/components/fleet/chart-card'
import { RootCauseCard } from '~/components/fleet/root-cause-card'
import { SeverityBadge } from '~/components/fleet/status'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Pager, pageParam } from '~/components/ui/pager'
import { componentLabel, HISTORY_SEVERITIES } from '~/domain/fleet/labels'
import { projectIssues } from '~/domain/fleet/project.server'
import { projectRootCauses } from '~/domain/rootcause/views.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const [issues, rootCauses] = await domainCall(() =>
    Promise.all([
      projectIssues(actor, params.organizationId!, params.projectId!, Date.now(), { page: pageParam(request.url) }),
      projectRootCauses(actor, params.organizationId!, params.projectId!),
    ]),
  )
  return { ...issues, rootCauses }
}

const LABELS: Record<string, string> = { critical: 'Critical', error: 'Error', warning: 'Warning', notice: 'Notice' }

/** Issues tab: 'Issue History' (last 10 days, stacked by severity, 700 x 200) and 'Issue Counts'. */
export default function ProjectIssues() {
  const { history, counts, page, pageCount, pageSize, total, rootCauses } = useLoaderData<typeof loader>()
  const explained = new Set(rootCauses.explainedIds)
  const { organization } = useOrganization()
  useLiveRevalidate(organization.id, ['issue', 'system', 'project'])
  return (
    <div className="flex flex-col gap-4">
      <Card className="w-fit max-w-full">
        <CardHeader>
          <CardTitle>Issue History</CardTitle>
        </CardHeader>
        <CardContent className="relative overflow-x-auto">
          <BarChart width={700} height={200} data={history} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
            <XAxis dataKey="day" tick={{ fontSize: 11 }} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
            <Tooltip contentStyle={{ fontSize: 12 }} />
            {/* legend in severity order, not recharts' default alphabetical */}
            <Legend wrapperStyle={{ fontSize: 11 }} itemSorter={null} />
            {HISTORY_SEVERITIES.map((s) => (
              <Bar key={s} dataKey={s} name={LABELS[s]} stackId="severity" fill={SEVERITY_CHART_COLORS[s]} isAnimationActive={false} />
            ))}
          </BarChart>
        </CardContent>
      </Card>
      <RootCauseCard groups={rootCauses.groups} />
      <Card>
        <CardHeader>
          <CardTitle>Issue Counts</CardTitle>
        </CardHeader>
        <CardContent>
          {counts.length ? (
            <table className="w-full text-[13px]" aria-label="Issue Counts">
              <thead className="text-left text-xs text-muted-foreground">
                <tr>
                  <th className="w-12 pb-1 pr-3 text-right font-medium">Count</th>
                  <th className="pb-1 font-medium">Severity</th>
                  <th className="pb-1 font-medium">Component</th>
                  <th className="pb-1 font-medium">Message</th>
                  <th className="pb-1 font-medium">System</th>
                </tr>
              </thead>
              <tbody>
                {counts.map((c) => (
                  <tr key={c.id} className="border-t">
                    <td className="py-1.5 pr-3 text-right tabular-nums">{c.count}</td>
                    <td className="py-1.5">
                      <SeverityBadge severity={c.severity} />
                    </td>
                    <td className="py-1.5">{componentLabel(c.component)}</td>
                    <td className="py-1.5">
                      {c.message}
                      {explained.has(c.id) ? <span className="ml-2 text-xs text-muted-foreground">(explained by a root cause)</span> : null}
                    </td>
                    <td className="whitespace-nowrap py-1.5 text-muted-foreground">
                      {c.system} · {c.agent}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          {counts.length ? <Pager className="mt-3" page={page} pageCount={pageCount} pageSize={pageSize} total={total} noun={total === 1 ? 'issue' : 'issues'} /> : null}
          {counts.length ? null : (
            <p className="text-sm text-muted-foreground">No issues reported</p>
          )}
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
