import { useCallback, useMemo } from 'react'
import { EmptyState } from '~/components/page-header'
import { Card } from '~/components/ui/card'
import { DateTime } from '~/components/ui/date-time'
import type { listAuditRecords } from '~/domain/audit/activity.server'
import { callApi } from '~/utils/api-client'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'
import { LogFooter } from './log-footer'
import { useCursorLog } from './use-cursor-log'

export type AuditPage = Awaited<ReturnType<typeof listAuditRecords>>
type AuditRecord = AuditPage['records'][number]

/**
 * An audit log (organization Activity page, a project's Activity tab): the loader's newest page
 * stays live (change events), older pages load by cursor on scroll. With `projectId` the older
 * pages are that project's (and its sub-projects') records, as the loader's first page.
 */
export function AuditLog({ organizationId, projectId, firstPage, emptyText }: { organizationId: string; projectId?: string; firstPage: AuditPage; emptyText: string }) {
  useLiveRevalidate(organizationId, ['audit'])
  const snapshot = useMemo(() => ({ items: firstPage.records, nextCursor: firstPage.nextCursor }), [firstPage])
  const fetchOlder = useCallback(
    (cursor: string) =>
      callApi<AuditPage>('organization/auditList', { organizationId, projectId, cursor }).then((page) => ({ items: page.records, nextCursor: page.nextCursor })),
    [organizationId, projectId],
  )
  const log = useCursorLog<AuditRecord>(snapshot, fetchOlder)
  const records = log.items

  if (records.length === 0) return <EmptyState title="No data available" text={emptyText} />
  return (
    <Card className="relative overflow-x-auto">
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
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground"><DateTime value={r.created} /></td>
              <td className="px-3 py-1.5 font-mono text-xs text-muted-foreground">{r.ip || '—'}</td>
              <td className="px-3 py-1.5">{r.userName}</td>
              <td className="px-3 py-1.5">{r.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <LogFooter log={log} noun="record" />
    </Card>
  )
}
