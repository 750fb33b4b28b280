import { data, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node'
import { Link, useFetcher, useLoaderData, useSearchParams } from '@remix-run/react'
import { Search } from 'lucide-react'
import { useEffect, useState } from 'react'
import { GeneralErrorBoundary } from '~/components/error-boundary'
import { ChartCard } from '~/components/fleet/chart-card'
import { CHART } from '~/components/fleet/chart-colors'
import { Popover, PopoverAnchor, PopoverContent } from '~/components/fleet/popover'
import { IssueBreakdownBar } from '~/components/fleet/issue-breakdown-bar'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { Pager } from '~/components/ui/pager'
import { dashboard, type SearchResult } from '~/domain/fleet/dashboard.server'
import { componentLabel } from '~/domain/fleet/labels'
import { useOrganization } from '~/routes/_app.organization.$organizationId'
import { getConfig } from '~/utils/env.server'
import { domainCall } from '~/utils/errors.server'
import { requireOrgPermission } from '~/utils/org-route.server'
import { useDebouncedCallback } from '~/utils/use-debounced-callback'
import { useLiveRevalidate } from '~/utils/use-live-revalidate'
import { useRowsOnServer } from '~/components/ui/rows-on-server'

/** Behind FEATURE_DASHBOARDS (404 when off); needs org.metrics.view. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // permission first: someone outside the organization gets 403 whether or not the flag is on
  const { actor } = await requireOrgPermission(request, params.organizationId, 'org.metrics.view')
  if (!getConfig().FEATURE_DASHBOARDS) throw data({ code: 'not-found', message: 'Not found' }, { status: 404 })
  const search = new URL(request.url).searchParams
  const view = search.get('view') === 'device' ? 'device' : 'system'
  return domainCall(() => dashboard(actor, params.organizationId!, view, Number(search.get('page') ?? 1)))
}

export const meta: MetaFunction = () => [{ title: 'Dashboard · Pixelfleet' }]
export const handle = { breadcrumb: () => ({ label: 'Dashboard', to: '.' }) }

const SEARCH_DEBOUNCE_MS = 300

export default function DashboardPage() {
  const dash = useLoaderData<typeof loader>()
  // the table scrolls within 420 px (~14 rows): the server renders the first ones
  const metricRows = useRowsOnServer(dash.metrics)
  const { organization } = useOrganization()
  const [, setParams] = useSearchParams()
  useLiveRevalidate(organization.id, ['agent', 'system', 'issue', 'project'])
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold tracking-tight">{dash.organization.name}</h1>
          {dash.organization.description ? <p className="text-sm text-muted-foreground">{dash.organization.description}</p> : null}
        </div>
        <FleetSearch organizationId={organization.id} />
      </div>

      <Card>
        <CardHeader className="flex-row items-center justify-between py-2">
          <CardTitle>
            Metrics
            {dash.view === 'system' && dash.metricsTotal > dash.metrics.length ? (
              <span className="ml-2 text-xs font-normal text-muted-foreground">worst first</span>
            ) : null}
          </CardTitle>
          <div className="flex rounded-md border p-0.5 text-xs" role="radiogroup" aria-label="Metrics view">
            {(
              [
                ['system', 'Aggregate by System'],
                ['device', 'Reporting Devices'],
              ] as const
            ).map(([value, label]) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={dash.view === value}
                onClick={() =>
                  setParams(
                    (prev) => {
                      const { page: _page, ...rest } = Object.fromEntries(prev)
                      return { ...rest, view: value }
                    },
                    { replace: true, preventScrollReset: true },
                  )
                }
                className={`rounded px-2 py-1 ${dash.view === value ? 'bg-secondary font-medium' : 'text-muted-foreground'}`}
              >
                {label}
              </button>
            ))}
          </div>
        </CardHeader>
        {/* scrolls in both directions: focusable so keyboard users can scroll it too */}
        <CardContent className="max-h-[420px] overflow-auto p-0" tabIndex={0} role="region" aria-label="Metrics table">
          {dash.metrics.length ? (
            <table className="w-full text-[13px]" aria-label="Metrics">
              <thead className="sticky top-0 z-10 border-b bg-muted text-left text-xs text-muted-foreground">
                <tr>
                  {['Key', 'Label', 'Type', 'Component', 'Agent', 'Project', 'Devices', 'Issues', 'Priority', 'Breakdown'].map((h) => (
                    <th key={h} className="whitespace-nowrap px-3 py-2 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {metricRows.map((m) => (
                  <tr key={m.id} className="border-b last:border-0">
                    <td className="whitespace-nowrap px-3 py-1 font-mono text-xs text-muted-foreground">{m.key}</td>
                    <td className="whitespace-nowrap px-3 py-1 font-medium">{m.label}</td>
                    <td className="px-3 py-1 text-muted-foreground">{m.type}</td>
                    <td className="whitespace-nowrap px-3 py-1 text-muted-foreground">{componentLabel(m.componentType)}</td>
                    <td className="whitespace-nowrap px-3 py-1">
                      <Link to={`/organization/${organization.id}/agents/${m.agent}`} className="hover:underline" title={m.agent}>
                        {m.agentName}
                      </Link>
                    </td>
                    <td className="whitespace-nowrap px-3 py-1" title={m.project ?? undefined}>
                      {m.projectName || <span className="text-muted-foreground">(None)</span>}
                    </td>
                    <td className="px-3 py-1 tabular-nums">{m.deviceCount}</td>
                    <td className="px-3 py-1 tabular-nums">{m.issueCount}</td>
                    <td className="px-3 py-1 tabular-nums">{m.priorityIssueCount}</td>
                    <td className="px-3 py-1">
                      <IssueBreakdownBar breakdown={m.issueBreakdown} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="px-4 py-6 text-center text-sm text-muted-foreground">No issues reported</p>
          )}
        </CardContent>
        {dash.metricsPage.pageCount > 1 ? (
          <Pager className="border-t px-3 py-2" page={dash.metricsPage.page} pageCount={dash.metricsPage.pageCount} pageSize={dash.metricsPage.pageSize} total={dash.metricsTotal} noun="systems" />
        ) : null}
      </Card>

      <div className="grid gap-4 lg:grid-cols-3">
        <VersionsCard title="Software Versions" rows={dash.versions.software} empty="No software versions reported." />
        <VersionsCard title="Firmware Versions" rows={dash.versions.firmware} empty="No firmware versions reported." />
        <ChartCard title="Tiles Over Temp" data={dash.tilesOverTemp} colors={{ Normal: CHART.good, High: CHART.bad }} />
      </div>
    </div>
  )
}

function VersionsCard({ title, rows: allRows, empty }: { title: string; rows: { type: string; product: string; version: string; count: number }[]; empty: string }) {
  // scrolls within 300 px (~10 rows)
  const rows = useRowsOnServer(allRows)
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="max-h-[300px] overflow-y-auto" tabIndex={0} role="region" aria-label={title}>
        {rows.length ? (
          <table className="w-full text-[13px]" aria-label={title}>
            <thead className="text-left text-xs text-muted-foreground">
              <tr>
                <th className="pb-1 font-medium">Type</th>
                <th className="pb-1 font-medium">Product</th>
                <th className="pb-1 font-medium">Version</th>
                <th className="pb-1 text-right font-medium">Count</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.type}-${r.product}-${r.version}`} className="border-t">
                  <td className="py-1">{componentLabel(r.type)}</td>
                  <td className="py-1">{r.product}</td>
                  <td className="py-1 font-mono text-xs">{r.version}</td>
                  <td className="py-1 text-right tabular-nums">{r.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="text-sm text-muted-foreground">{empty}</p>
        )}
      </CardContent>
    </Card>
  )
}

/** Live search across the organization, its projects and systems; a 400 px popover, Escape closes it. */
function FleetSearch({ organizationId }: { organizationId: string }) {
  const fetcher = useFetcher<{ results: SearchResult[] }>()
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const search = useDebouncedCallback((q: string) => fetcher.load(`/resources/fleet-search?organizationId=${organizationId}&q=${encodeURIComponent(q)}`), SEARCH_DEBOUNCE_MS)
  useEffect(() => {
    if (!text.trim()) setOpen(false)
  }, [text])
  const results = fetcher.data?.results ?? []
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverAnchor asChild>
        <div className="relative w-72">
          <Search className="pointer-events-none absolute left-2 top-2 size-4 text-muted-foreground" />
          <Input
            aria-label="Search"
            placeholder="Search organization, projects, systems…"
            className="pl-8"
            value={text}
            onChange={(e) => {
              setText(e.target.value)
              if (e.target.value.trim()) {
                setOpen(true)
                search(e.target.value)
              }
            }}
            onKeyDown={(e) => e.key === 'Escape' && setOpen(false)}
          />
        </div>
      </PopoverAnchor>
      <PopoverContent align="end" className="w-[400px] max-h-[300px] overflow-y-auto" onOpenAutoFocus={(e) => e.preventDefault()}>
        {fetcher.state !== 'idle' && !results.length ? <p className="px-2 py-1.5 text-xs text-muted-foreground">Searching…</p> : null}
        {fetcher.state === 'idle' && !results.length ? <p className="px-2 py-1.5 text-xs text-muted-foreground">No results found.</p> : null}
        {results.map((r) => (
          <Link key={`${r.type}-${r.id}`} to={r.to} onClick={() => setOpen(false)} className="flex items-center justify-between gap-3 rounded px-2 py-1.5 hover:bg-accent">
            <span className="truncate font-medium">{r.label}</span>
            <span className="shrink-0 text-xs text-muted-foreground">{r.detail}</span>
          </Link>
        ))}
      </PopoverContent>
    </Popover>
  )
}

export const ErrorBoundary = GeneralErrorBoundary
