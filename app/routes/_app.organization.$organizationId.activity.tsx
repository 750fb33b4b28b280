import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { Loader2 } from 'lucide-react'
import { useCallback, useMemo } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { useCursorLog } from '~/components/logs/use-cursor-log'
import { EmptyState, PageHeader } from '~/components/page-header'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { listAuditRecords } from '~/domain/audit/activity.server'
import { callApi } from '~/utils/api-client'
import { requireUser } from '~/utils/auth.server'
import { domainCall } from '~/utils/errors.server'
import { formatDateTime } from '~/utils/format-time'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const organizationId = params.organizationId ?? ''
  const firstPage = await domainCall(() => listAuditRecords(actor, { organizationId }))
  return { organizationId, ...firstPage }
}

export const meta: MetaFunction = () => [{ title: 'Activity · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Activity', to: '.' }) }

type AuditPage = Awaited<ReturnType<typeof listAuditRecords>>
type AuditRecord = AuditPage['records'][number]

/** Audit log: the loader's newest page stays live (change events), older pages load by cursor on scroll. */
export default function ActivityPage() {
  const first = useLoaderData<typeof loader>()
  const { organizationId } = first
  useLiveRevalidate(organizationId, ['audit'])
  const snapshot = useMemo(() => ({ items: first.records, nextCursor: first.nextCursor }), [first])
  const fetchOlder = useCallback(
    (cursor: string) =>
      callApi<AuditPage>('organization/auditList', { organizationId, cursor }).then((page) => ({ items: page.records, nextCursor: page.nextCursor })),
    [organizationId],
  )
  const { items: records, hasMore, loading, error, loadMore, sentinelRef } = useCursorLog<AuditRecord>(snapshot, fetchOlder)

  return (
    <div className="flex max-w-6xl flex-col gap-4">
      <PageHeader title="Activity" subtitle="View activity across your projects and organization" />
      {records.length === 0 ? (
        <EmptyState title="No data available" text="Changes people make in this organization appear here." />
      ) : (
        <Card>
          <table className="w-full text-sm" aria-label="Activity">
            <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                <th className="w-44 px-3 py-2 font-medium">Time</th>
                <th className="w-32 px-3 py-2 font-medium">IP</th>
                <th className="w-48 px-3 py-2 font-medium">Author</th>
                <th className="px-3 py-2 font-medium">Message</th>
              </tr>
            </thead>
            <tbody>
              {records.map((r) => (
                <tr key={r.id} className="border-b last:border-0 align-top">
                  <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground">{formatDateTime(r.created)}</td>
                  <td className="px-3 py-1.5 font-mono text-xs text-muted-foreground">{r.ip || '—'}</td>
                  <td className="px-3 py-1.5">{r.userName}</td>
                  <td className="px-3 py-1.5">{r.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div ref={sentinelRef} className="flex items-center justify-center gap-2 border-t px-3 py-2 text-xs text-muted-foreground">
            {error ? <span className="text-destructive">{error}</span> : null}
            {hasMore ? (
              <Button variant="link" size="sm" onClick={() => void loadMore()} disabled={loading}>
                {loading ? <Loader2 className="animate-spin" /> : null}
                Load more ({records.length} loaded)
              </Button>
            ) : (
              <span>{records.length} record(s), end of the log</span>
            )}
          </div>
        </Card>
      )}
    </div>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
