import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { RootCauseCard } from '~/components/fleet/root-cause-card'
import { Link, useFetcher, useLoaderData, useNavigate, useSearchParams, type UIMatch } from '@remix-run/react'
import { AlertTriangle, Server } from 'lucide-react'
import { useEffect, useState, type ReactNode } from 'react'
import { toast } from 'sonner'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { DeviceTree } from '~/components/fleet/device-tree'
import { LastSeen } from '~/components/fleet/last-seen'
import { ConnectionIcon, RemoteConnect, SeverityBadge } from '~/components/fleet/status'
import { SystemAssignSelect } from '~/components/fleet/system-assign'
import { DEFAULT_START, MAP_DELAY_MS, parseCoordinate, type LatLong } from '~/components/fleet/location-bounds'
import { LocationPicker } from '~/components/fleet/location-picker'
import { Input } from '~/components/ui/input'
import { type Crumb } from '~/components/shell/breadcrumbs'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { TimeAgo } from '~/components/ui/date-time'
import { ConfirmDialog } from '~/components/ui/dialog'
import { componentLabel } from '~/domain/fleet/labels'
import { IssueStateTabs, IssueTable } from '~/components/alarms/issue-list'
import { listAgentIssues } from '~/domain/alarms/lifecycle.server'
import { ISSUE_STATE_LABELS, parseIssueState } from '~/domain/alarms/state'
import { agentDetail } from '~/domain/fleet/agent-detail.server'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { requireUser } from '~/utils/auth.server'
import { cn } from '~/utils/cn'
import { getConfig } from '~/utils/env.server'
import { domainCall } from '~/utils/errors.server'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { actor } = await requireUser(request)
  const detail = await domainCall(() => agentDetail(actor, params.organizationId!, params.agentId!))
  const issueState = parseIssueState(new URL(request.url).searchParams.get('issues'))
  const { issues } = await domainCall(() => listAgentIssues(actor, params.organizationId!, params.agentId!, issueState))
  return { ...detail, issueState, issueList: issues, mapTileUrl: getConfig().MAP_TILE_URL ?? null }
}

type Data = Awaited<ReturnType<typeof loader>>
type SystemData = Data['systems'][number]

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.agent.name ?? 'Agent'} · Pixelfleet` }]
export const handle = {
  breadcrumb: (match: UIMatch<unknown, unknown>): Crumb[] => {
    const data = match.data as Data | undefined
    const base = `/organization/${match.params.organizationId}/agents`
    return [{ label: 'Agents', to: base }, ...(data ? [{ label: data.agent.name, to: `${base}/${data.agent.id}` }] : [])]
  },
}

/** The spec's 'Map shows 1 s after mount'. */

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-dashed py-1.5 text-[13px] last:border-0">
      <dt className="shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0 truncate text-right font-medium">{children ?? <span className="font-normal text-muted-foreground">—</span>}</dd>
    </div>
  )
}

export default function AgentDetailPage() {
  const data = useLoaderData<typeof loader>()
  const { organization } = useOrganization()
  const { agent, systems } = data
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  const [params, setParams] = useSearchParams()
  const tabs = [...systems.map((s) => ({ id: s.id, label: `System ${s.key}` })), { id: 'settings', label: 'Settings' }]
  const active = tabs.find((t) => t.id === params.get('tab'))?.id ?? tabs[0].id
  const system = systems.find((s) => s.id === active)

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-3">
        <div className="flex size-10 items-center justify-center rounded-lg border bg-card">
          <Server className="size-5 text-muted-foreground" />
        </div>
        <div className="min-w-0">
          <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            {agent.name}
            <ConnectionIcon connected={agent.isConnected} unknown={!agent.lastSeen} />
          </h1>
          <p className="text-sm text-muted-foreground">
            {systems.length} system{systems.length === 1 ? '' : 's'} reporting
            {' · '}
            Last reported {agent.lastReported ? <TimeAgo value={agent.lastReported} /> : 'never'}
          </p>
        </div>
      </div>

      {data.unassignedCount > 0 ? (
        <div role="alert" className="flex items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <AlertTriangle className="size-4" />
          {data.unassignedCount} System(s) reporting data, but not assigned to any project.
        </div>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-3">
        <StatusCard data={data} organizationId={organization.id} />
        <InfoCard agent={agent} />
        <LocationCard data={data} organizationId={organization.id} />
      </div>

      <nav className="flex gap-1 relative overflow-x-auto border-b" role="tablist">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={t.id === active}
            onClick={() => setParams((prev) => ({ ...Object.fromEntries(prev), tab: t.id }), { replace: true, preventScrollReset: true })}
            className={cn(
              '-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium',
              t.id === active ? 'border-primary text-foreground' : 'border-transparent text-muted-foreground hover:text-foreground',
            )}
          >
            {t.label}
          </button>
        ))}
      </nav>
      {system ? <SystemTab system={system} data={data} organizationId={organization.id} /> : <SettingsTab data={data} organizationId={organization.id} />}
    </div>
  )
}

function StatusCard({ data, organizationId }: { data: Data; organizationId: string }) {
  const { agent, systems } = data
  const unassigned = systems.filter((s) => !s.projectId)
  return (
    <Card>
      <CardHeader>
        <CardTitle>Status</CardTitle>
      </CardHeader>
      <CardContent>
        <dl>
          <Row label="State">
            <span className={agent.isConnected ? 'text-emerald-700' : 'text-red-600'}>{agent.isConnected ? 'Connected' : 'Disconnected'}</span>
          </Row>
          <Row label="Remote Connect">
            <RemoteConnect organizationId={organizationId} agent={agent} canConnect={data.capabilities.canConnect} />
          </Row>
          <Row label="Last Connected">
            <LastSeen value={agent.lastSeen} />
          </Row>
          <Row label="Last IP">{agent.lastIp ? <span className="font-mono text-xs">{agent.lastIp}</span> : null}</Row>
          <Row label="System Assignments">
            {systems.length - unassigned.length}/{systems.length}
          </Row>
        </dl>
        <div className="mt-2 flex flex-col gap-1.5">
          {unassigned.length ? (
            unassigned.map((s) => (
              <div key={s.id} className="flex items-center justify-between gap-2 text-xs">
                <span className="font-medium">System {s.key}</span>
                <SystemAssignSelect organizationId={organizationId} agentId={agent.id} system={s} projects={data.assignableProjects} canUnassign={data.capabilities.canUnassign} disabled={!data.capabilities.canAssign} />
              </div>
            ))
          ) : (
            <p className="text-xs text-muted-foreground">All systems assigned.</p>
          )}
        </div>
      </CardContent>
    </Card>
  )
}

function InfoCard({ agent }: { agent: Data['agent'] }) {
  const versions = agent.deviceVersions
  return (
    <Card>
      <CardHeader>
        <CardTitle>Info</CardTitle>
      </CardHeader>
      <CardContent>
        <dl>
          <Row label="Issues">
            {agent.issuesCount ? (
              <span className="flex justify-end gap-1">
                {agent.alertsCount ? <SeverityBadge severity={agent.alertsSeverity} count={agent.alertsCount} /> : null}
                {agent.deviationsCount ? <SeverityBadge severity={agent.deviationsSeverity} count={agent.deviationsCount} /> : null}
              </span>
            ) : (
              <span className="text-emerald-700">None</span>
            )}
          </Row>
          <Row label="Health Score">
            <span className="font-mono" title="Alert count ^ (6 - worst severity), plus the same for deviations">
              {agent.weightedAlertsScore}
            </span>
          </Row>
          <Row label="Tiles">{agent.processorTiles ?? (agent.tiles || null)}</Row>
          <Row label="Processor Input">{agent.processorInput}</Row>
          <Row label="Input Format">{agent.processorInputFormat}</Row>
          <Row label="Genlock Frequency">{agent.processorGenlockFrequency}</Row>
          <Row label="Packet Loss">{agent.packetLoss}</Row>
          <Row label="Serial">{agent.serial ? <span className="font-mono text-xs">{agent.serial}</span> : null}</Row>
          {versions.map((v) => (
            <Row
              key={`${v.component}-${v.product}-${v.software}-${v.firmware}`}
              label={
                <>
                  {componentLabel(v.component)} {[v.software && 'Software', v.firmware && 'Firmware'].filter(Boolean).join(' / ') || 'Version'}
                  {/* the product tells apart two devices of one kind (e.g. two switch models) */}
                  {v.product ? <span className="block text-[11px] leading-tight">{v.product}</span> : null}
                </>
              }
            >
              <span className="font-mono text-xs" title={v.product}>
                {[v.software, v.firmware].filter(Boolean).join(' / ') || '—'}
                {v.count > 1 ? <span className="ml-1 text-muted-foreground">× {v.count}</span> : null}
              </span>
            </Row>
          ))}
        </dl>
      </CardContent>
    </Card>
  )
}

function LocationCard({ data, organizationId }: { data: Data; organizationId: string }) {
  const { agent } = data
  const fetcher = useFetcher<{ ok: boolean; message?: string }>()
  const [picked, setPicked] = useState<{ lati: number; long: number } | null>(null)
  const [showMap, setShowMap] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setShowMap(true), MAP_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.success(fetcher.data.message ?? 'Location updated')
      setPicked(null)
    } else toast.error(fetcher.data.message ?? 'An unrecognized error has occurred')
  }, [fetcher.state, fetcher.data])
  const pendingMode = fetcher.formData?.get('useLocationMode')
  const mode = agent.location.mode
  const manual = picked ?? agent.location.manual
  const submit = (useLocationMode: 'geoip' | 'manual', point?: { lati: number; long: number } | null) =>
    fetcher.submit(
      { intent: 'location', organizationId, agentId: agent.id, useLocationMode, ...(point ? { lati: String(point.lati), long: String(point.long) } : {}) },
      { method: 'post', action: '/resources/agent-actions' },
    )
  const points = [
    ...(agent.location.geoip ? [{ ...agent.location.geoip, label: `Automatic (geoip ${agent.location.geoip.lookupIP ?? ''})`, tone: 'geoip' as const }] : []),
    ...(manual ? [{ ...manual, label: 'Manual', tone: 'manual' as const }] : []),
  ]
  const current = mode === 'manual' ? manual : agent.location.geoip
  // the picker's fixed starting point: the location in use when the page opened, or DEFAULT_START;
  // typing coordinates elsewhere moves it there
  const [start, setStart] = useState<LatLong>(() => {
    const known = current ?? agent.location.geoip
    return known ? { lati: known.lati, long: known.long } : DEFAULT_START
  })
  const pick = (point: LatLong) => {
    setPicked(point)
    setTyped({ lati: String(point.lati), long: String(point.long) })
  }
  const [typed, setTyped] = useState({ lati: manual ? String(manual.lati) : '', long: manual ? String(manual.long) : '' })
  const [typedErrors, setTypedErrors] = useState<{ lati?: string; long?: string }>({})
  const applyTyped = () => {
    const lati = parseCoordinate(typed.lati, 'lati')
    const long = parseCoordinate(typed.long, 'long')
    setTypedErrors({ lati: 'error' in lati ? lati.error : undefined, long: 'error' in long ? long.error : undefined })
    if ('value' in lati && 'value' in long) {
      const point = { lati: lati.value, long: long.value }
      setPicked(point)
      setStart(point)
    }
  }
  const modeButton = (value: 'geoip' | 'manual', label: string) => {
    const inUse = mode === value && !(value === 'manual' && picked)
    return (
      <Button
        size="sm"
        variant={inUse ? 'secondary' : 'outline'}
        disabled={!data.capabilities.canLocate || fetcher.state !== 'idle' || inUse || (value === 'manual' && !manual)}
        onClick={() => submit(value, value === 'manual' ? manual : null)}
      >
        {pendingMode === value ? 'Updating' : inUse ? 'In Use' : label}
      </Button>
    )
  }
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Location</CardTitle>
        <div className="flex gap-1.5">
          {modeButton('geoip', 'Use Automatic')}
          {modeButton('manual', 'Use Manual')}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {showMap ? (
          <LocationPicker start={start} points={points} tileUrl={data.mapTileUrl} onPick={data.capabilities.canLocate ? pick : undefined} />
        ) : (
          <div className="h-72 w-full animate-pulse rounded-md border bg-muted/40" />
        )}
        <p className="text-xs text-muted-foreground">
          {current ? `${mode === 'manual' ? 'Manual' : 'Automatic'}: ${current.lati.toFixed(4)}, ${current.long.toFixed(4)}` : 'No location known yet.'}
          {data.capabilities.canLocate ? (picked ? ' · New point picked: press Use Manual to save it.' : ' · Click the map or type coordinates to pick a manual location.') : null}
        </p>
        {data.capabilities.canLocate ? (
          <form
            className="flex flex-wrap items-start gap-2"
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              applyTyped()
            }}
          >
            {(['lati', 'long'] as const).map((kind) => (
              <label key={kind} className="flex w-36 flex-col gap-1 text-xs font-medium text-foreground/80">
                {kind === 'lati' ? 'Latitude' : 'Longitude'}
                <Input
                  inputMode="decimal"
                  className="h-8"
                  value={typed[kind]}
                  placeholder={kind === 'lati' ? '-90 to 90' : '-180 to 180'}
                  aria-invalid={typedErrors[kind] ? true : undefined}
                  onChange={(e) => setTyped((t) => ({ ...t, [kind]: e.target.value }))}
                />
                {typedErrors[kind] ? <span className="font-normal text-destructive">{typedErrors[kind]}</span> : null}
              </label>
            ))}
            <Button type="submit" size="sm" variant="outline" className="mt-5">
              Set Point
            </Button>
          </form>
        ) : null}
      </CardContent>
    </Card>
  )
}

function SystemTab({ system, data, organizationId }: { system: SystemData; data: Data; organizationId: string }) {
  const [assigning, setAssigning] = useState(false)
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="lg:col-span-2">
        <CardContent className="flex flex-wrap items-center justify-between gap-3">
          {system.projectId ? (
            <p className="text-sm">
              Reports to{' '}
              {system.projectPath.map((p, i) => (
                <span key={p.id}>
                  {i > 0 ? ' / ' : ''}
                  <Link to={`/organization/${organizationId}/projects/${p.id}`} className="font-medium hover:underline">
                    {p.name}
                  </Link>
                </span>
              ))}
            </p>
          ) : (
            <p className="flex items-center gap-2 text-sm text-amber-800">
              <AlertTriangle className="size-4" /> System not assigned to project
            </p>
          )}
          {!system.projectId && !assigning && data.capabilities.canAssign ? (
            <Button size="sm" onClick={() => setAssigning(true)}>
              Assign Now
            </Button>
          ) : null}
          {system.projectId || assigning ? (
            <SystemAssignSelect organizationId={organizationId} agentId={data.agent.id} system={system} projects={data.assignableProjects} canUnassign={data.capabilities.canUnassign} disabled={!data.capabilities.canAssign} />
          ) : null}
        </CardContent>
      </Card>
      <RootCauseCard groups={system.rootCauses} showSystem={false} />
      <Card>
        <CardHeader>
          <CardTitle>System Health</CardTitle>
        </CardHeader>
        <CardContent>
          <IssueStateTabs state={data.issueState} />
          <div className="mt-2">
            <IssueTable
              organizationId={organizationId}
              issues={data.issueList.filter((i) => i.systemId === system.id)}
              canManage={false}
              showAgent={false}
              emptyText={data.issueState === 'all' ? 'No issues reported' : `No ${ISSUE_STATE_LABELS[data.issueState].toLowerCase()} issues`}
            />
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>System Devices</CardTitle>
        </CardHeader>
        <CardContent className="max-h-[480px] overflow-y-auto">
          <DeviceTree nodes={system.devices} />
        </CardContent>
      </Card>
    </div>
  )
}

function SettingsTab({ data, organizationId }: { data: Data; organizationId: string }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string }>()
  const navigate = useNavigate()
  const [confirming, setConfirming] = useState(false)
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.success(fetcher.data.message ?? 'Agent removed')
      navigate(`/organization/${organizationId}/agents`)
    } else toast.error(fetcher.data.message ?? 'An unrecognized error has occurred')
  }, [fetcher.state, fetcher.data, navigate, organizationId])
  return (
    <Card className="border-red-200">
      <CardHeader>
        <CardTitle>Remove agent</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-xl text-sm text-muted-foreground">
          Removes the agent from this organization and unassigns its systems. To move a device to another organization it must be removed and enrolled again.
        </p>
        <Button variant="destructive" disabled={!data.capabilities.canDelete} onClick={() => setConfirming(true)}>
          Remove Agent
        </Button>
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Remove Agent"
        text={`Are you sure you want to remove ${data.agent.name}?`}
        confirmLabel="Remove"
        cancelLabel="Cancel"
        destructive
        busy={fetcher.state !== 'idle'}
        onConfirm={() => fetcher.submit({ intent: 'remove', organizationId, agentId: data.agent.id }, { method: 'post', action: '/resources/agent-actions' })}
      />
    </Card>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
