import { useCallback, useEffect, useState } from 'react'
import { toast } from 'sonner'
import { SeverityBadge } from '~/components/fleet/status'
import { Button } from '~/components/ui/button'
import { DateTime } from '~/components/ui/date-time'
import { ConfirmDialog, Dialog } from '~/components/ui/dialog'
import { Field } from '~/components/ui/field'
import { Textarea } from '~/components/ui/input'
import type { getIssue } from '~/domain/alarms/lifecycle.server'
import { componentLabel } from '~/domain/fleet/labels'
import { callApi } from '~/utils/api-client'
import { IssueStateBadges } from './state-badges'

type Detail = Awaited<ReturnType<typeof getIssue>>

const ENTRY_LABEL: Record<string, string> = { ack: 'acknowledged', unack: 'withdrew the acknowledgement', clear: 'cleared by hand', cleared: 'cleared', comment: 'commented' }
const NOTIFY_LABEL: Record<string, string> = { pending: 'waiting to be sent', sending: 'sending', sent: 'sent', muted: 'muted (maintenance window)', skipped: 'skipped' }

/** The issue dialog: fields, state, comment thread, recent history, this activation's notifications and the actions. */
export function IssueDrawer({ organizationId, issueId, onClose, onChanged }: { organizationId: string; issueId: string | null; onClose: () => void; onChanged: () => void }) {
  const [detail, setDetail] = useState<Detail | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [comment, setComment] = useState('')
  const [busy, setBusy] = useState(false)
  const [confirmClear, setConfirmClear] = useState(false)

  const load = useCallback(async () => {
    if (!issueId) return
    try {
      setDetail(await callApi<Detail>('issue/get', { organizationId, issueId }))
      setError(null)
    } catch (e) {
      setError((e as Error).message)
    }
  }, [organizationId, issueId])

  useEffect(() => {
    setDetail(null)
    setComment('')
    void load()
  }, [load])

  const act = async (name: 'issue/acknowledge' | 'issue/comment' | 'issue/clear', body: object, success: string) => {
    if (!issueId) return
    setBusy(true)
    try {
      await callApi(name, { organizationId, issueId, ...body })
      toast.success(success)
      setComment('')
      setError(null)
      await load()
      onChanged()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
      setConfirmClear(false)
    }
  }

  const issue = detail?.issue
  const canManage = detail?.capabilities.canManage ?? false
  return (
    <>
      <Dialog open={Boolean(issueId)} onOpenChange={(open) => !open && onClose()} title={issue ? issue.message : 'Issue'} className="max-w-2xl" description={issue ? `${issue.system} · ${issue.agent}` : undefined}>
        {!detail ? (
          <p className="text-sm text-muted-foreground">{error ?? 'Loading…'}</p>
        ) : (
          <div className="flex flex-col gap-4 text-[13px]">
            <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1.5">
              <dt className="text-muted-foreground">Severity</dt>
              <dd>
                <SeverityBadge severity={issue!.severity} />
              </dd>
              <dt className="text-muted-foreground">State</dt>
              <dd>
                <IssueStateBadges issue={issue!} />
              </dd>
              <dt className="text-muted-foreground">Component</dt>
              <dd>
                {componentLabel(issue!.component)}
                {issue!.deviceKey ? ` · ${issue!.deviceKey}` : ''} <span className="text-muted-foreground">({issue!.key})</span>
              </dd>
              <dt className="text-muted-foreground">Last report</dt>
              <dd>
                <DateTime value={issue!.latestAt} /> · count {issue!.count}
              </dd>
              {issue!.acknowledged ? (
                <>
                  <dt className="text-muted-foreground">Acknowledged</dt>
                  <dd>
                    by {issue!.acknowledgedBy}, <DateTime value={issue!.acknowledgedAt} />
                  </dd>
                </>
              ) : null}
              {!issue!.isActive && issue!.clearedAt ? (
                <>
                  <dt className="text-muted-foreground">Cleared</dt>
                  <dd>
                    {issue!.clearedBy ? `by ${issue!.clearedBy}` : 'by itself'}, <DateTime value={issue!.clearedAt} />
                  </dd>
                </>
              ) : null}
              <dt className="text-muted-foreground">Notifications</dt>
              <dd>
                {Object.keys(detail.notifications).length
                  ? Object.entries(detail.notifications)
                      .map(([status, n]) => `${n} ${NOTIFY_LABEL[status] ?? status}`)
                      .join(', ')
                  : 'none for this activation'}
              </dd>
            </dl>

            <section aria-label="Comments">
              <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground">Comments</h3>
              {detail.comments.length ? (
                <ol className="flex flex-col gap-2">
                  {detail.comments.map((c) => (
                    <li key={c.id} className="rounded border bg-muted/30 px-2.5 py-1.5">
                      <div className="text-xs text-muted-foreground">
                        <span className="font-medium text-foreground">{c.authorName}</span> {ENTRY_LABEL[c.kind] ?? c.kind} · <DateTime value={c.createdAt} />
                      </div>
                      {c.text ? <p className="whitespace-pre-wrap">{c.text}</p> : null}
                    </li>
                  ))}
                </ol>
              ) : (
                <p className="text-muted-foreground">No comments yet</p>
              )}
              {canManage ? (
                <Field className="mt-2" label="Comment" error={error}>
                  {(props) => <Textarea {...props} rows={2} value={comment} maxLength={2000} onChange={(e) => setComment(e.target.value)} />}
                </Field>
              ) : error ? (
                <p className="mt-2 text-xs text-destructive">{error}</p>
              ) : null}
            </section>

            <section aria-label="History">
              <h3 className="mb-1.5 text-xs font-semibold uppercase tracking-wide text-muted-foreground">History</h3>
              {detail.history.length ? (
                <ul className="max-h-32 overflow-y-auto tabular-nums">
                  {detail.history.map((h) => (
                    <li key={h.timestamp} className="flex justify-between border-t py-0.5 first:border-t-0">
                      <DateTime value={h.timestamp} seconds />
                      <span>count {h.count}</span>
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-muted-foreground">No history entries</p>
              )}
            </section>

            {canManage ? (
              <div className="flex flex-wrap justify-end gap-2 border-t pt-3">
                {issue!.isActive ? (
                  <Button variant="outline" disabled={busy} onClick={() => setConfirmClear(true)}>
                    Clear
                  </Button>
                ) : null}
                {issue!.isActive && !issue!.acknowledged ? (
                  <Button variant="outline" disabled={busy} onClick={() => void act('issue/acknowledge', { comment }, 'Issue acknowledged')}>
                    Acknowledge
                  </Button>
                ) : null}
                <Button disabled={busy || !comment.trim()} onClick={() => void act('issue/comment', { text: comment }, 'Comment added')}>
                  Add Comment
                </Button>
              </div>
            ) : null}
          </div>
        )}
      </Dialog>
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title="Clear Issue"
        text={'Clear this issue by hand? Do this for stale issues the agent no longer reports. If the agent reports it again, it becomes active again.'}
        confirmLabel="Clear Issue"
        busy={busy}
        onConfirm={() => void act('issue/clear', { comment }, 'Issue cleared')}
      />
    </>
  )
}
