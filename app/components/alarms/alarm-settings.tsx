import { useRevalidator } from '@remix-run/react'
import { Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { toastError } from '~/components/inline-edit-field'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Field } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { OFFLINE_MINUTES } from '~/domain/alarms/state'
import { describeWeekly } from '~/domain/alarms/windows'
import type { WindowView } from '~/domain/alarms/windows.server'
import { severityLabel } from '~/domain/agents/derived'
import { callApi } from '~/utils/api-client'
import { WindowFormDialog } from './window-form'

/** Project settings: "Offline alarm after" (minutes). */
export function OfflineAlarmCard({ organizationId, projectId, minutes, canEdit }: { organizationId: string; projectId: string; minutes: number; canEdit: boolean }) {
  const revalidator = useRevalidator()
  const [value, setValue] = useState(String(minutes))
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const save = async () => {
    setBusy(true)
    try {
      await callApi('project/offlineAlarmUpdate', { organizationId, projectId, minutes: value })
      setError(null)
      toast.success('Offline alarm updated')
      revalidator.revalidate()
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Offline Alarm</CardTitle>
        <CardDescription>An agent of this project not seen for this long raises an &lsquo;Agent offline&rsquo; critical issue, which clears when the agent reports again.</CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <Field label="Offline alarm after (minutes)" error={error} hint={`${OFFLINE_MINUTES.min} to ${OFFLINE_MINUTES.max} minutes; default ${OFFLINE_MINUTES.default}`}>
            {(props) => <Input {...props} className="w-32" type="number" min={OFFLINE_MINUTES.min} max={OFFLINE_MINUTES.max} value={value} disabled={!canEdit} onChange={(e) => setValue(e.target.value)} />}
          </Field>
          {canEdit ? (
            // 'Apply', not 'Save': the settings tab's own form keeps the only 'Save' button
            <Button type="submit" disabled={busy || value === String(minutes)} className="mb-5">
              Apply
            </Button>
          ) : null}
        </form>
      </CardContent>
    </Card>
  )
}

function When({ w }: { w: WindowView }) {
  if (w.recurrence === 'once') {
    return (
      <>
        {/* on the window's own clock, labelled with its zone (not the viewer's) */}
        <time dateTime={w.startsAt ?? undefined}>{w.startsText}</time> – <time dateTime={w.endsAt ?? undefined}>{w.endsText}</time>{' '}
        <span className="text-muted-foreground">({w.timeZone})</span>
      </>
    )
  }
  return (
    <>
      Every {describeWeekly(w.weekdays, w.startTime, w.endTime)} <span className="text-muted-foreground">({w.timeZone})</span>
    </>
  )
}

/** Project settings: the list of show and maintenance windows with add, edit and delete. */
export function WindowsCard({ organizationId, projectId, windows, canManage }: { organizationId: string; projectId: string; windows: (WindowView & { inherited: boolean })[]; canManage: boolean }) {
  const revalidator = useRevalidator()
  const [editing, setEditing] = useState<WindowView | null>(null)
  const [formOpen, setFormOpen] = useState(false)
  const [deleting, setDeleting] = useState<WindowView | null>(null)
  const [busy, setBusy] = useState(false)

  const save = async (payload: object) => {
    if (editing) await callApi('project/windowUpdate', { organizationId, windowId: editing.id, window: payload })
    else await callApi('project/windowCreate', { organizationId, projectId, window: payload })
    toast.success(editing ? 'Window updated' : 'Window added')
    setFormOpen(false)
    revalidator.revalidate()
  }
  const remove = async () => {
    if (!deleting) return
    setBusy(true)
    try {
      await callApi('project/windowDelete', { organizationId, windowId: deleting.id })
      toast.success('Window deleted')
      setDeleting(null)
      revalidator.revalidate()
    } catch (e) {
      toastError(e)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Card id="windows">
      <CardHeader className="flex flex-row items-start justify-between gap-3 space-y-0">
        <div className="min-w-0 flex-1">
          <CardTitle>Show and Maintenance Windows</CardTitle>
          <CardDescription>During maintenance, notifications for this project and its sub-projects are muted. During a show, the chosen severities notify at once.</CardDescription>
        </div>
        {canManage ? (
          <Button
            size="sm"
            className="shrink-0"
            onClick={() => {
              setEditing(null)
              setFormOpen(true)
            }}
          >
            Add Window
          </Button>
        ) : null}
      </CardHeader>
      <CardContent className="p-0">
        {windows.length ? (
          <ul className="divide-y text-[13px]" aria-label="Windows">
            {windows.map((w) => (
              <li key={w.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2.5">
                <Badge variant={w.kind === 'maintenance' ? 'warning' : 'default'}>{w.kind === 'maintenance' ? 'Maintenance' : 'Show'}</Badge>
                <div className="min-w-0 flex-1">
                  <div className="font-medium">
                    {w.name || (w.kind === 'maintenance' ? 'Maintenance window' : 'Show window')}
                    {w.activeUntil ? <Badge variant="success" className="ml-2">In progress</Badge> : null}
                    {!w.next ? <Badge variant="secondary" className="ml-2">Ended</Badge> : null}
                    {w.inherited ? <span className="ml-2 text-xs font-normal text-muted-foreground">from a parent project</span> : null}
                  </div>
                  <div className="text-xs text-muted-foreground">
                    <When w={w} />
                    {w.kind === 'show' ? ` · at once: ${w.severities.map(severityLabel).join(', ')}` : ''}
                    {w.recurrence === 'weekly' && w.next && !w.activeUntil ? (
                      <>
                        {' '}
                        · next <time dateTime={w.next.start}>{w.next.startText}</time> ({w.timeZone})
                      </>
                    ) : null}
                  </div>
                </div>
                {canManage && !w.inherited ? (
                  <div className="flex gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Edit ${w.name || 'window'}`}
                      onClick={() => {
                        setEditing(w)
                        setFormOpen(true)
                      }}
                    >
                      <Pencil className="size-3.5" />
                    </Button>
                    <Button size="sm" variant="ghost" aria-label={`Delete ${w.name || 'window'}`} onClick={() => setDeleting(w)}>
                      <Trash2 className="size-3.5" />
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="px-4 py-3 text-sm text-muted-foreground">No windows</p>
        )}
      </CardContent>
      <WindowFormDialog open={formOpen} window={editing} onClose={() => setFormOpen(false)} onSave={save} />
      <ConfirmDialog
        open={Boolean(deleting)}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete Window"
        text={`Delete the ${deleting?.kind === 'show' ? 'show' : 'maintenance'} window${deleting?.name ? ` '${deleting.name}'` : ''}?`}
        confirmLabel="Delete"
        destructive
        busy={busy}
        onConfirm={() => void remove()}
      />
    </Card>
  )
}
