import { useEffect, useState } from 'react'
import { Button } from '~/components/ui/button'
import { Dialog } from '~/components/ui/dialog'
import { Field, issueFor } from '~/components/ui/field'
import { Input } from '~/components/ui/input'
import { NativeSelect } from '~/components/ui/native-select'
import type { WindowView } from '~/domain/alarms/windows.server'
import { WEEKDAY_NAMES } from '~/domain/alarms/windows'
import { severityLabel } from '~/domain/agents/derived'
import { ApiError } from '~/utils/api-client'

/** Critical, Error, Warning, Notice: what a show window may send at once (matches SHOW_SEVERITIES on the server). */
const SHOW_SEVERITIES = [2, 3, 4, 5]
/** Monday first, as people plan a week. */
const WEEK = [1, 2, 3, 4, 5, 6, 0]

export type WindowDraft = {
  kind: 'maintenance' | 'show'
  name: string
  recurrence: 'once' | 'weekly'
  startsAt: string
  endsAt: string
  weekdays: number[]
  startTime: string
  endTime: string
  timeZone: string
  severities: number[]
}

const pad = (n: number) => String(n).padStart(2, '0')
/** ISO instant -> the browser's local "YYYY-MM-DDTHH:MM" for a datetime-local input. */
const toLocalInput = (iso: string) => {
  const d = new Date(iso)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

export function draftOf(w: WindowView | null): WindowDraft {
  if (w) {
    return {
      kind: w.kind,
      name: w.name,
      recurrence: w.recurrence,
      // on the window's own clock, as it was entered
      startsAt: w.startsLocal ?? '',
      endsAt: w.endsLocal ?? '',
      weekdays: w.weekdays,
      startTime: w.startTime || '18:00',
      endTime: w.endTime || '23:00',
      timeZone: w.timeZone,
      severities: w.severities,
    }
  }
  const start = new Date(Math.ceil(Date.now() / 3600_000) * 3600_000)
  return {
    kind: 'maintenance',
    name: '',
    recurrence: 'once',
    startsAt: toLocalInput(start.toISOString()),
    endsAt: toLocalInput(new Date(start.getTime() + 2 * 3600_000).toISOString()),
    weekdays: [5],
    startTime: '18:00',
    endTime: '23:00',
    timeZone: browserZone(),
    severities: [2, 3],
  }
}

/** The request body for project/windowCreate and project/windowUpdate. */
function payloadOf(d: WindowDraft) {
  const common = { kind: d.kind, name: d.name, severities: d.kind === 'show' ? d.severities : [] }
  if (d.recurrence === 'once') {
    // local times, read by the server in the chosen zone (a rigging call in Los Angeles entered from Berlin)
    return { ...common, recurrence: 'once', startsAt: d.startsAt, endsAt: d.endsAt, timeZone: d.timeZone }
  }
  return { ...common, recurrence: 'weekly', weekdays: d.weekdays, startTime: d.startTime, endTime: d.endTime, timeZone: d.timeZone }
}

const toggle = (list: number[], value: number) => (list.includes(value) ? list.filter((v) => v !== value) : [...list, value])

/** Create or edit a show or maintenance window. */
export function WindowFormDialog({ open, window, onClose, onSave }: { open: boolean; window: WindowView | null; onClose: () => void; onSave: (payload: object) => Promise<void> }) {
  const [draft, setDraft] = useState<WindowDraft>(() => draftOf(window))
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([])
  const [busy, setBusy] = useState(false)
  const [zones, setZones] = useState<string[]>([])
  useEffect(() => {
    if (!open) return
    setDraft(draftOf(window))
    setIssues([])
    setZones(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [])
  }, [open, window])
  const set = <K extends keyof WindowDraft>(key: K, value: WindowDraft[K]) => setDraft((d) => ({ ...d, [key]: value }))

  const submit = async () => {
    setBusy(true)
    try {
      await onSave(payloadOf(draft))
    } catch (e) {
      setIssues(e instanceof ApiError && e.issues.length ? e.issues : [{ path: '', message: (e as Error).message }])
    } finally {
      setBusy(false)
    }
  }
  const general = issues.find((i) => !['name', 'startsAt', 'endsAt', 'weekdays', 'startTime', 'endTime', 'timeZone', 'severities'].includes(i.path))
  const zoneOptions = zones.includes(draft.timeZone) ? zones : [draft.timeZone, ...zones]
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={window ? 'Edit Window' : 'Add Window'}
      description="Maintenance mutes notifications; a show window sends the chosen severities at once. Windows cover sub-projects too."
      className="max-w-lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} disabled={busy}>
            {window ? 'Save' : 'Add Window'}
          </Button>
        </>
      }
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field label="Type">
          {(props) => (
            <NativeSelect {...props} value={draft.kind} onChange={(e) => set('kind', e.target.value as WindowDraft['kind'])}>
              <option value="maintenance">Maintenance window</option>
              <option value="show">Show window</option>
            </NativeSelect>
          )}
        </Field>
        <Field label="Repeats">
          {(props) => (
            <NativeSelect {...props} value={draft.recurrence} onChange={(e) => set('recurrence', e.target.value as WindowDraft['recurrence'])}>
              <option value="once">Once</option>
              <option value="weekly">Weekly</option>
            </NativeSelect>
          )}
        </Field>
        <Field label="Name (optional)" error={issueFor(issues, 'name')} className="sm:col-span-2">
          {(props) => <Input {...props} value={draft.name} maxLength={100} placeholder="e.g. Friday show, Rigging" onChange={(e) => set('name', e.target.value)} />}
        </Field>
        {draft.recurrence === 'once' ? (
          <>
            <Field label="Start" error={issueFor(issues, 'startsAt')}>
              {(props) => <Input {...props} type="datetime-local" value={draft.startsAt} onChange={(e) => set('startsAt', e.target.value)} />}
            </Field>
            <Field label="End" error={issueFor(issues, 'endsAt')} hint="At most 7 days after the start">
              {(props) => <Input {...props} type="datetime-local" value={draft.endsAt} onChange={(e) => set('endsAt', e.target.value)} />}
            </Field>
          </>
        ) : (
          <>
            <fieldset className="sm:col-span-2">
              <legend className="mb-1 text-xs font-medium text-foreground/80">Weekdays</legend>
              <div className="flex flex-wrap gap-1.5">
                {WEEK.map((d) => (
                  <label key={d} className="flex items-center gap-1 rounded border px-2 py-1 text-xs">
                    <input type="checkbox" checked={draft.weekdays.includes(d)} onChange={() => set('weekdays', toggle(draft.weekdays, d))} />
                    {WEEKDAY_NAMES[d]}
                  </label>
                ))}
              </div>
              {issueFor(issues, 'weekdays') ? <p className="mt-1 text-xs text-destructive">{issueFor(issues, 'weekdays')}</p> : null}
            </fieldset>
            <Field label="Start time" error={issueFor(issues, 'startTime')}>
              {(props) => <Input {...props} type="time" value={draft.startTime} onChange={(e) => set('startTime', e.target.value)} />}
            </Field>
            <Field label="End time" error={issueFor(issues, 'endTime')} hint="Before the start time: ends the next day">
              {(props) => <Input {...props} type="time" value={draft.endTime} onChange={(e) => set('endTime', e.target.value)} />}
            </Field>
          </>
        )}
        <Field label="Time zone of the site" error={issueFor(issues, 'timeZone')} className="sm:col-span-2">
          {(props) => (
            <NativeSelect {...props} value={draft.timeZone} onChange={(e) => set('timeZone', e.target.value)}>
              {zoneOptions.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        {draft.kind === 'show' ? (
          <fieldset className="sm:col-span-2">
            <legend className="mb-1 text-xs font-medium text-foreground/80">Notify at once for</legend>
            <div className="flex flex-wrap gap-1.5">
              {SHOW_SEVERITIES.map((s) => (
                <label key={s} className="flex items-center gap-1 rounded border px-2 py-1 text-xs">
                  <input type="checkbox" checked={draft.severities.includes(s)} onChange={() => set('severities', toggle(draft.severities, s))} />
                  {severityLabel(s)}
                </label>
              ))}
            </div>
            {issueFor(issues, 'severities') ? <p className="mt-1 text-xs text-destructive">{issueFor(issues, 'severities')}</p> : null}
          </fieldset>
        ) : null}
      </div>
      {general ? (
        <p role="alert" className="mt-3 text-xs text-destructive">
          {general.message}
        </p>
      ) : null}
    </Dialog>
  )
}
