import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { BellRing, Building2, FolderTree, Globe, Send } from 'lucide-react'
import { useEffect } from 'react'
import { toast } from 'sonner'
import { z } from 'zod'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { SeveritySlider, Switch } from '~/components/notifications/severity-controls'
import { Button } from '~/components/ui/button'
import { Card } from '~/components/ui/card'
import { NativeSelect } from '~/components/ui/native-select'
import { Tooltip } from '~/components/ui/tooltip'
import { invalid } from '~/domain/errors'
import { REPEAT_CHOICES_MINUTES, REPEAT_LABELS } from '~/domain/notifications/follow-up-choices'
import { listSubscriptionTree, testNotification, updateSubscription, type SubscriptionLevel, type SubscriptionView } from '~/domain/notifications/subscriptions.server'
import { requireUser } from '~/utils/auth.server'
import { cn } from '~/utils/cn'
import { domainCall, formAction, type ActionFailure } from '~/utils/errors.server'
import { readForm } from '~/utils/form.server'

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  return domainCall(() => listSubscriptionTree(actor))
}

export const meta: MetaFunction = () => [{ title: 'Notifications · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Notifications', to: '.' }) }

const intentSchema = z.enum(['create', 'update', 'delete', 'test', 'channel', 'followUp'])

/** The follow-up fields of a form (strings) as the domain takes them; anything else reaches its validation unchanged. */
const followUpFields = (form: Record<string, unknown>) => ({
  ...(form.notifyResolved !== undefined ? { notifyResolved: form.notifyResolved === 'true' ? true : form.notifyResolved === 'false' ? false : form.notifyResolved } : {}),
  ...(form.repeatMinutes !== undefined ? { repeatMinutes: /^\d+$/.test(String(form.repeatMinutes)) ? Number(form.repeatMinutes) : form.repeatMinutes } : {}),
})

export async function action({ request }: ActionFunctionArgs) {
  const { actor } = await requireUser(request)
  const form = await readForm(request)
  const intent = intentSchema.safeParse(form.intent)
  const sliders = { alerts: form.alerts, deviations: form.deviations }
  switch (intent.success ? intent.data : null) {
    case 'create':
      return formAction(() => updateSubscription(actor, { doc: { level: form.level, target: form.target, ...sliders, ...followUpFields(form) } }))
    case 'update':
      return formAction(() => updateSubscription(actor, { id: form.id, doc: sliders }))
    case 'delete':
      return formAction(() => updateSubscription(actor, { id: form.id }))
    case 'channel':
      return formAction(() => updateSubscription(actor, { id: form.id, doc: { channel: form.channel || null } }), 'Channel saved')
    case 'followUp':
      return formAction(() => updateSubscription(actor, { id: form.id, doc: followUpFields(form) }), 'Notification settings saved')
    case 'test':
      return formAction(() => testNotification(actor, { organization: form.organization, project: form.project || null }), 'Notification sent')
    default:
      return formAction(() => Promise.reject(invalid('Unknown action')))
  }
}

type Levels = { alerts: number; deviations: number }
const OFF: Levels = { alerts: 0, deviations: 0 }
/** Resolved and repeat messages (decision 048); what applies without any subscription: resolved on, no repeats. */
type FollowUps = { notifyResolved: boolean; repeatMinutes: number }
const FOLLOW_UP_DEFAULTS: FollowUps = { notifyResolved: true, repeatMinutes: 0 }

type RowModel = {
  key: string
  level: SubscriptionLevel
  target: string
  name: string
  depth: number
  icon: 'default' | 'organization' | 'project'
  subscription: SubscriptionView | null
  /** what applies when this row has no override: the nearest subscription above it */
  inherited: Levels
  /** the resolved and repeat settings that apply when this row has no override */
  inheritedFollowUps: FollowUps
  test?: { organization: string; project?: string }
  /** the organization's notification channels (Settings > Notification Channels) */
  channels: { id: string; name: string }[]
}

/** Flattens the tree into rows, each knowing what it inherits (project -> parents -> organization -> default). */
function buildRows(tree: ReturnType<typeof useLoaderData<typeof loader>>): RowModel[] {
  const levels = (s: SubscriptionView | null, fallback: Levels): Levels => (s ? { alerts: s.alerts, deviations: s.deviations } : fallback)
  const followUps = (s: SubscriptionView | null, fallback: FollowUps): FollowUps => (s ? { notifyResolved: s.notifyResolved, repeatMinutes: s.repeatMinutes } : fallback)
  const defaults = levels(tree.default, OFF)
  const defaultFollowUps = followUps(tree.default, FOLLOW_UP_DEFAULTS)
  const rows: RowModel[] = [
    { key: 'default', level: 'default', target: '', name: 'Default', depth: 0, icon: 'default', subscription: tree.default, inherited: OFF, inheritedFollowUps: FOLLOW_UP_DEFAULTS, channels: [] },
  ]
  for (const org of tree.organizations) {
    const orgLevels = levels(org.subscription, defaults)
    const orgFollowUps = followUps(org.subscription, defaultFollowUps)
    rows.push({
      key: org.id,
      level: 'organization',
      target: org.id,
      name: org.name,
      depth: 0,
      icon: 'organization',
      subscription: org.subscription,
      inherited: defaults,
      inheritedFollowUps: defaultFollowUps,
      test: { organization: org.id },
      channels: org.channels,
    })
    const effective = new Map<string, Levels>()
    const effectiveFollowUps = new Map<string, FollowUps>()
    for (const project of org.projects) {
      const inherited = (project.parentId && effective.get(project.parentId)) || orgLevels
      const inheritedFollowUps = (project.parentId && effectiveFollowUps.get(project.parentId)) || orgFollowUps
      effective.set(project.id, levels(project.subscription, inherited))
      effectiveFollowUps.set(project.id, followUps(project.subscription, inheritedFollowUps))
      rows.push({
        key: project.id,
        level: 'project',
        target: project.id,
        name: project.name,
        depth: project.depth + 1,
        icon: 'project',
        subscription: project.subscription,
        inherited,
        inheritedFollowUps,
        test: { organization: org.id, project: project.id },
        channels: org.channels,
      })
    }
  }
  return rows
}

/** User settings, Notifications: the default row and an override per organization and project. */
export default function NotificationsTab() {
  const tree = useLoaderData<typeof loader>()
  const rows = buildRows(tree)
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground">
        Choose which alerts and deviations are e-mailed to you. Each organization and project uses the nearest override above it; switch an override on to
        set its own levels.
      </p>
      <Card className="relative overflow-x-auto">
        <table className="w-full text-[13px]" aria-label="Notification subscriptions">
          <thead className="border-b bg-muted/40 text-left text-xs text-muted-foreground">
            <tr>
              <th className="px-3 py-2 font-medium">Scope</th>
              <th className="px-3 py-2 font-medium">Override</th>
              <th className="px-3 py-2 font-medium">Alerts</th>
              <th className="px-3 py-2 font-medium">Deviations</th>
              <th className="px-3 py-2 font-medium">Channel</th>
              <th className="px-2 py-2 font-medium">When resolved</th>
              <th className="px-2 py-2 font-medium">Repeat while active</th>
              <th className="px-3 py-2">
                <span className="sr-only">Test</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <SubscriptionRow key={row.key} row={row} />
            ))}
          </tbody>
        </table>
      </Card>
      {tree.organizations.length === 0 ? (
        <p className="text-sm text-muted-foreground">You are not a member of any organization yet; the default levels apply to organizations you join.</p>
      ) : null}
    </div>
  )
}

const ICONS = { default: Globe, organization: Building2, project: FolderTree }

function SubscriptionRow({ row }: { row: RowModel }) {
  const save = useFetcher<typeof action>()
  const test = useFetcher<typeof action>()
  useToastFailure(save.state, save.data)
  useToastFailure(test.state, test.data, true)

  // Optimistic: while a change is in flight, show what it will make.
  const pending = save.formData ? Object.fromEntries(save.formData) : null
  const on = pending?.intent === 'create' ? true : pending?.intent === 'delete' ? false : row.subscription !== null
  const own: Levels | null = row.subscription ? { alerts: row.subscription.alerts, deviations: row.subscription.deviations } : null
  const shown: Levels = pending?.intent === 'update' ? { alerts: Number(pending.alerts), deviations: Number(pending.deviations) } : on ? (own ?? row.inherited) : row.inherited

  const submit = (fields: Record<string, string | number>) => save.submit(fields, { method: 'post' })
  const toggle = (checked: boolean) =>
    checked
      ? submit({
          intent: 'create',
          level: row.level,
          target: row.target,
          alerts: row.inherited.alerts,
          deviations: row.inherited.deviations,
          notifyResolved: String(row.inheritedFollowUps.notifyResolved),
          repeatMinutes: row.inheritedFollowUps.repeatMinutes,
        })
      : row.subscription && submit({ intent: 'delete', id: row.subscription.id })
  const change = (field: keyof Levels, step: number) => row.subscription && submit({ intent: 'update', id: row.subscription.id, ...shown, [field]: step })

  const Icon = ICONS[row.icon]
  const label = row.level === 'default' ? 'default levels' : row.name
  return (
    <tr className={cn('border-b last:border-0', row.level !== 'project' && 'bg-muted/20')}>
      <td className="px-3 py-2">
        <span className="flex items-center gap-2" style={{ paddingLeft: `${row.depth * 18}px` }}>
          <Icon className="size-4 shrink-0 text-muted-foreground" />
          <span className={cn(row.level !== 'project' && 'font-medium')}>{row.name}</span>
          {row.level === 'default' ? <span className="text-xs text-muted-foreground">all organizations and projects</span> : null}
        </span>
      </td>
      <td className="px-3 py-2">
        <Switch checked={on} onCheckedChange={toggle} label={`Override for ${label}`} disabled={save.state !== 'idle'} />
      </td>
      <td className="px-3 py-2">
        <SeveritySlider label={`Alerts for ${label}`} value={shown.alerts} disabled={!on || !row.subscription} onCommit={(step) => change('alerts', step)} />
      </td>
      <td className="px-3 py-2">
        <SeveritySlider label={`Deviations for ${label}`} value={shown.deviations} disabled={!on || !row.subscription} onCommit={(step) => change('deviations', step)} />
      </td>
      <td className="px-3 py-2">
        <ChannelPicker row={row} />
      </td>
      <FollowUpCells row={row} on={on} label={label} />
      <td className="px-3 py-2 text-right">
        {row.test ? (
          <Tooltip content="Send a test e-mail">
            <Button
              variant="ghost"
              size="sm"
              disabled={test.state !== 'idle'}
              onClick={() => test.submit({ intent: 'test', organization: row.test!.organization, project: row.test!.project ?? '' }, { method: 'post' })}
            >
              {test.state !== 'idle' ? <BellRing className="animate-pulse" /> : <Send />}
              Test
            </Button>
          </Tooltip>
        ) : null}
      </td>
    </tr>
  )
}

/**
 * "When resolved" and "Repeat while active" (decision 048): editable on a row with an override,
 * else what it inherits, greyed out.
 */
function FollowUpCells({ row, on, label }: { row: RowModel; on: boolean; label: string }) {
  const save = useFetcher<typeof action>()
  useToastFailure(save.state, save.data)
  const own = row.subscription ? { notifyResolved: row.subscription.notifyResolved, repeatMinutes: row.subscription.repeatMinutes } : null
  const pending = save.formData ? Object.fromEntries(save.formData) : null
  const current = own && on ? own : row.inheritedFollowUps
  const shown: FollowUps = pending ? { notifyResolved: pending.notifyResolved === 'true', repeatMinutes: Number(pending.repeatMinutes) } : current
  const editable = on && row.subscription !== null
  const submit = (next: FollowUps) =>
    save.submit({ intent: 'followUp', id: row.subscription!.id, notifyResolved: String(next.notifyResolved), repeatMinutes: next.repeatMinutes }, { method: 'post' })
  return (
    <>
      <td className="px-2 py-2">
        <Switch
          checked={shown.notifyResolved}
          onCheckedChange={(checked) => submit({ ...shown, notifyResolved: checked })}
          label={`Notify when resolved for ${label}`}
          disabled={!editable || save.state !== 'idle'}
        />
      </td>
      <td className="px-2 py-2">
        <NativeSelect
          aria-label={`Repeat while active for ${label}`}
          className="h-8 w-24 px-1.5 text-xs"
          value={String(shown.repeatMinutes)}
          disabled={!editable || save.state !== 'idle'}
          onChange={(e) => submit({ ...shown, repeatMinutes: Number(e.target.value) })}
        >
          {REPEAT_CHOICES_MINUTES.map((minutes) => (
            <option key={minutes} value={minutes}>
              {REPEAT_LABELS[minutes]}
            </option>
          ))}
        </NativeSelect>
      </td>
    </>
  )
}

/** E-mail only, or e-mail plus one of the organization's channels, for a row with an override. */
function ChannelPicker({ row }: { row: RowModel }) {
  const save = useFetcher<typeof action>()
  useToastFailure(save.state, save.data, true)
  if (row.level === 'default' || !row.subscription) return <span className="text-xs text-muted-foreground">{row.level === 'default' ? 'E-mail' : '—'}</span>
  if (row.channels.length === 0) return <span className="text-xs text-muted-foreground">E-mail</span>
  const value = save.formData ? String(save.formData.get('channel') ?? '') : (row.subscription.channelId ?? '')
  return (
    <NativeSelect
      aria-label={`Channel for ${row.name}`}
      className="h-8 w-44 text-xs"
      value={value}
      disabled={save.state !== 'idle'}
      onChange={(e) => save.submit({ intent: 'channel', id: row.subscription!.id, channel: e.target.value }, { method: 'post' })}
    >
      <option value="">E-mail only</option>
      {row.channels.map((c) => (
        <option key={c.id} value={c.id}>
          E-mail + {c.name}
        </option>
      ))}
    </NativeSelect>
  )
}

/** Toasts a finished request's error (and, when asked, its success message). */
function useToastFailure(state: string, data: { ok: boolean; message?: string } | undefined, toastSuccess = false) {
  useEffect(() => {
    if (state !== 'idle' || !data) return
    if (data.ok) {
      if (toastSuccess && data.message) toast.success(data.message)
    } else toast.error((data as ActionFailure).message || 'An unrecognized error has occurred')
  }, [state, data, toastSuccess])
}

export const ErrorBoundary = GeneralErrorBoundary
