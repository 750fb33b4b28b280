import { type LoaderFunctionArgs } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { IssueStateTabs, IssueTable } from '~/components/alarms/issue-list'
import { IssueHistoryChart } from '~/components/fleet/issue-history-chart'
import { RootCauseCard } from '~/components/fleet/root-cause-card'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { pageParam } from '~/components/ui/pager'
import { listProjectIssues } from '~/domain/alarms/lifecycle.server'
import { ISSUE_STATE_LABELS, parseIssueState } from '~/domain/alarms/state'
import { projectIssueHistory } from '~/domain/fleet/project.server'
import { projectRootCauses } from '~/domain/rootcause/views.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const state = parseIssueState(new URL(request.url).searchParams.get('issues'))
  const [history, list, rootCauses] = await Promise.all([
    domainCall(() => projectIssueHistory(actor, params.organizationId!, params.projectId!)),
    domainCall(() => listProjectIssues(actor, params.organizationId!, params.projectId!, state, pageParam(request.url))),
    domainCall(() => projectRootCauses(actor, params.organizationId!, params.projectId!)),
  ])
  return { history, list, rootCauses }
}

/** Issues tab: 'Issue History' (last 10 days, stacked by severity, 700 x 200) and the issues by state (alarm lifecycle). */
export default function ProjectIssues() {
  const { history, list, rootCauses } = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  useLiveRevalidate(organization.id, ['issue', 'system', 'project'])
  return (
    <div className="flex flex-col gap-4">
      <Card className="max-w-3xl">
        <CardHeader>
          <CardTitle>Issue History</CardTitle>
        </CardHeader>
        <CardContent className="relative">
          <IssueHistoryChart history={history} />
        </CardContent>
      </Card>
      <RootCauseCard groups={rootCauses.groups} />
      <Card>
        <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 space-y-0">
          <CardTitle>Issue Counts</CardTitle>
          <IssueStateTabs state={list.state} />
        </CardHeader>
        <CardContent>
          <IssueTable
            organizationId={organization.id}
            issues={list.issues}
            canManage={list.canManage}
            emptyText={list.state === 'all' ? 'No issues reported' : `No ${ISSUE_STATE_LABELS[list.state].toLowerCase()} issues`}
            explainedIds={rootCauses.explainedIds}
            label="Issue Counts"
            pager={{ page: list.page, pageCount: list.pageCount, pageSize: list.pageSize, total: list.total }}
          />
        </CardContent>
      </Card>
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
