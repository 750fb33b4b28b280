import { Link, useRevalidator, useSearchParams } from '@remix-run/react'
import { MessageSquare } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { SeverityBadge } from '~/components/fleet/status'
import { Button } from '~/components/ui/button'
import { TimeAgo } from '~/components/ui/date-time'
import { Dialog } from '~/components/ui/dialog'
import { Field } from '~/components/ui/field'
import { Textarea } from '~/components/ui/input'
import { Pager } from '~/components/ui/pager'
import type { IssueRowView } from '~/domain/alarms/lifecycle.server'
import { ISSUE_STATE_FILTERS, ISSUE_STATE_LABELS, type IssueStateFilter } from '~/domain/alarms/state'
import { componentLabel } from '~/domain/fleet/labels'
import { callApi } from '~/utils/api-client'
import { cn } from '~/utils/cn'
import { IssueDrawer } from './issue-drawer'
import { IssueStateBadges } from './state-badges'

/** The state filter above an issue list, kept in the URL (?issues=...) so it survives reloads and links. */
export function IssueStateTabs({ state, param = 'issues' }: { state: IssueStateFilter; param?: string }) {
  const [params] = useSearchParams()
  const hrefFor = (value: IssueStateFilter) => {
    const next = new URLSearchParams(params)
    next.set(param, value)
    next.delete('page')
    return `?${next.toString()}`
  }
  return (
    <div role="tablist" aria-label="Issue state" className="inline-flex max-w-full flex-wrap gap-1 rounded-md border bg-muted/40 p-0.5">
      {ISSUE_STATE_FILTERS.map((value) => (
        <Link
          key={value}
          to={hrefFor(value)}
          role="tab"
          aria-selected={value === state}
          preventScrollReset
          replace
          className={cn('rounded px-2.5 py-1 text-xs font-medium', value === state ? 'bg-card text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground')}
        >
          {ISSUE_STATE_LABELS[value]}
        </Link>
      ))}
    </div>
  )
}

/** "Acknowledge" with an optional comment: who and when are recorded and shown. */
export function AcknowledgeDialog({ organizationId, issue, onClose, onDone }: { organizationId: string; issue: IssueRowView | null; onClose: () => void; onDone: () => void }) {
  const [comment, setComment] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const submit = async () => {
    if (!issue) return
    setBusy(true)
    try {
      await callApi('issue/acknowledge', { organizationId, issueId: issue.id, comment })
      toast.success('Issue acknowledged')
      setComment('')
      setError(null)
      onDone()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={Boolean(issue)}
      onOpenChange={(open) => !open && onClose()}
      title="Acknowledge Issue"
      description={issue ? `${issue.message} · ${issue.system} · ${issue.agent}` : undefined}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={busy}>
            Acknowledge
          </Button>
        </>
      }
    >
      <Field label="Comment (optional)" error={error} hint="Acknowledged issues stop re-notifying until they become active again.">
        {(props) => <Textarea {...props} rows={3} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} placeholder="e.g. Technician on site, tile swapped after the show" />}
      </Field>
    </Dialog>
  )
}

/**
 * An issue list with state badges and actions, shared by the project Issues tab and the agent
 * detail page. Clicking a message opens the issue drawer (history, comments, actions).
 */
export function IssueTable({
  organizationId,
  issues,
  canManage,
  showAgent = true,
  emptyText,
  pager,
  explainedIds,
  label = 'Issues',
}: {
  organizationId: string
  issues: IssueRowView[]
  canManage: boolean
  showAgent?: boolean
  emptyText: string
  pager?: { page: number; pageCount: number; pageSize: number; total: number }
  /** issues a root cause upstream explains (app/domain/rootcause), marked in the message cell */
  explainedIds?: string[]
  /** the table's accessible name (the project tab keeps spec 02's 'Issue Counts') */
  label?: string
}) {
  const revalidator = useRevalidator()
  const [acking, setAcking] = useState<IssueRowView | null>(null)
  const [openId, setOpenId] = useState<string | null>(null)
  if (issues.length === 0) return <p className="py-2 text-sm text-muted-foreground">{emptyText}</p>
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full text-[13px]" aria-label={label}>
          <thead className="text-left text-xs text-muted-foreground">
            <tr>
              <th className="hidden w-12 pb-1 pr-3 text-right font-medium sm:table-cell">Count</th>
              <th className="pb-1 pr-3 font-medium">Severity</th>
              <th className="pb-1 pr-3 font-medium">State</th>
              <th className="pb-1 pr-3 font-medium">Message</th>
              <th className="hidden pb-1 pr-3 font-medium md:table-cell">Component</th>
              <th className="hidden pb-1 pr-3 font-medium md:table-cell">{showAgent ? 'System' : 'Last report'}</th>
              <th className="pb-1 text-right font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {issues.map((i) => (
              <tr key={i.id} className="border-t align-top" data-issue={i.key}>
                <td className="hidden py-1.5 pr-3 text-right tabular-nums sm:table-cell">{i.count}</td>
                <td className="py-1.5 pr-3">
                  <SeverityBadge severity={i.severity} />
                </td>
                <td className="py-1.5 pr-3">
                  <IssueStateBadges issue={i} />
                </td>
                <td className="py-1.5 pr-3">
                  <button type="button" className="text-left font-medium text-primary hover:underline" onClick={() => setOpenId(i.id)}>
                    {i.message}
                  </button>
                  {explainedIds?.includes(i.id) ? <span className="ml-2 text-xs text-muted-foreground">(explained by a root cause)</span> : null}
                  <div className="text-xs text-muted-foreground">
                    {i.acknowledged ? <>Acknowledged by {i.acknowledgedBy} · </> : null}
                    {i.comments ? (
                      <span className="inline-flex items-center gap-0.5">
                        <MessageSquare className="size-3" aria-hidden /> {i.comments} ·{' '}
                      </span>
                    ) : null}
                    <TimeAgo value={i.latestAt} />
                    <span className="md:hidden"> · {componentLabel(i.component)}{showAgent ? ` · ${i.system} · ${i.agent}` : ''}</span>
                  </div>
                </td>
                <td className="hidden py-1.5 pr-3 md:table-cell">{componentLabel(i.component)}</td>
                <td className="hidden whitespace-nowrap py-1.5 pr-3 text-muted-foreground md:table-cell">
                  {showAgent ? (
                    <>
                      {i.system} · <Link to={`/organization/${organizationId}/agents/${i.agentId}`} className="hover:underline">{i.agent}</Link>
                    </>
                  ) : (
                    <TimeAgo value={i.latestAt} />
                  )}
                </td>
                <td className="py-1.5 text-right">
                  {(canManage || i.canManage) && i.isActive && !i.acknowledged ? (
                    <Button size="sm" variant="outline" onClick={() => setAcking(i)}>
                      Acknowledge
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pager ? <Pager className="mt-3" {...pager} noun={pager.total === 1 ? 'issue' : 'issues'} /> : null}
      <AcknowledgeDialog
        organizationId={organizationId}
        issue={acking}
        onClose={() => setAcking(null)}
        onDone={() => {
          setAcking(null)
          revalidator.revalidate()
        }}
      />
      <IssueDrawer organizationId={organizationId} issueId={openId} onClose={() => setOpenId(null)} onChanged={() => revalidator.revalidate()} />
    </>
  )
}
