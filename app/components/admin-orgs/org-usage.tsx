import { RefreshCw } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { toast } from 'sonner'
import { toastError } from '~/components/inline-edit-field'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { ConfirmDialog } from '~/components/ui/dialog'
import { NativeSelect } from '~/components/ui/native-select'
import { USAGE_EXTRA_CALLS, USAGE_PAGE_SIZE, USAGE_PERIODS, periodLabel, recentPeriods, type UsagePeriod } from '~/domain/billing/usage-periods'
import { callApi } from '~/utils/api-client'
import { AdminTable, td } from './parts'
import { AXIS_TICK, CHART, TOOLTIP_STYLE } from '../fleet/chart-colors'
import { type AdminOrg } from './admin-org'

type Figures = { periodStart: string; activeClients: number; apiCalls: number; calls: Record<string, number>; computedAt: string; cached: boolean }

const UTC_TEXT: Record<UsagePeriod, string> = {
  monthly: 'calendar months',
  daily: 'calendar days',
  hourly: 'clock hours',
}

/** Usage overview: active clients and API calls per UTC period, from the counters agents produce. */
export function OrgUsage({ org }: { org: AdminOrg }) {
  const [groupBy, setGroupBy] = useState<'organization' | 'project'>('organization')
  const [projectId, setProjectId] = useState(org.projects[0]?.id ?? '')
  const [period, setPeriod] = useState<UsagePeriod>('monthly')
  const [count, setCount] = useState<number>(USAGE_PERIODS.monthly.defaultCount)
  const [extra, setExtra] = useState(false)
  const [page, setPage] = useState(0)
  const [figures, setFigures] = useState<Record<string, Figures>>({})
  const [loading, setLoading] = useState<Set<string>>(new Set())
  const [confirmClear, setConfirmClear] = useState(false)
  // Periods are fixed when the view changes, so 'now' does not move under the table.
  const [now, setNow] = useState(() => new Date())

  const scope = groupBy === 'project' ? projectId : ''
  const starts = useMemo(() => recentPeriods(period, count, now), [period, count, now])
  const keyOf = (start: Date) => `${scope}|${period}|${start.toISOString()}`
  const pageStarts = starts.slice(page * USAGE_PAGE_SIZE, (page + 1) * USAGE_PAGE_SIZE)
  const pages = Math.ceil(starts.length / USAGE_PAGE_SIZE)

  const fetchOne = async (start: Date, refresh: boolean) => {
    const key = keyOf(start)
    setLoading((s) => new Set(s).add(key))
    try {
      const result = await callApi<Figures>('admin/usageAggregated', {
        organizationId: org.id,
        period,
        sourceDate: start.toISOString(),
        groupBy,
        projectId: groupBy === 'project' ? projectId : null,
        refresh,
      })
      setFigures((f) => ({ ...f, [key]: result }))
    } catch (e) {
      toastError(e)
    } finally {
      setLoading((s) => {
        const n = new Set(s)
        n.delete(key)
        return n
      })
    }
  }
  const fetchAll = async () => {
    for (const start of starts) await fetchOne(start, false)
  }
  const aggregation = async (call: 'admin/runEventAggregation' | 'admin/clearEventAggregation') => {
    try {
      const result = await callApi<{ rebuilt?: number; cleared?: number }>(call, { organizationId: org.id, type: 'usage' })
      toast.success(call === 'admin/runEventAggregation' ? `Usage aggregation rebuilt (${result.rebuilt} periods)` : `Cached usage cleared (${result.cleared} periods)`)
      setFigures({})
      setConfirmClear(false)
    } catch (e) {
      toastError(e)
    }
  }
  const changePeriod = (p: UsagePeriod) => {
    setPeriod(p)
    setCount(USAGE_PERIODS[p].defaultCount)
    setPage(0)
    setNow(new Date())
  }
  const chart = [...starts]
    .reverse()
    .map((s) => ({ label: periodLabel(period, s), calls: figures[keyOf(s)]?.apiCalls ?? null, clients: figures[keyOf(s)]?.activeClients ?? null }))
  const anyFetched = chart.some((c) => c.calls !== null)
  const head = ['Period (UTC)', 'Active clients', 'API calls', ...(extra ? USAGE_EXTRA_CALLS : []), '']

  return (
    <Card>
      <CardHeader>
        <CardTitle>Usage overview</CardTitle>
        <CardDescription>
          Counted from the calls agents made. Periods are {UTC_TEXT[period]} in UTC. Figures are cached once fetched; Refresh recounts a period.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <NativeSelect aria-label="View by" value={groupBy} onChange={(e) => (setGroupBy(e.target.value as typeof groupBy), setPage(0))} className="w-36">
            <option value="organization">Organization</option>
            <option value="project" disabled={org.projects.length === 0}>
              Projects
            </option>
          </NativeSelect>
          {groupBy === 'project' ? (
            <NativeSelect aria-label="Project" value={projectId} onChange={(e) => setProjectId(e.target.value)} className="w-44">
              {org.projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </NativeSelect>
          ) : null}
          <NativeSelect aria-label="Period" value={period} onChange={(e) => changePeriod(e.target.value as UsagePeriod)} className="w-28">
            <option value="monthly">monthly</option>
            <option value="daily">daily</option>
            <option value="hourly">hourly</option>
          </NativeSelect>
          <NativeSelect aria-label="Number of periods" value={count} onChange={(e) => (setCount(Number(e.target.value)), setPage(0))} className="w-20">
            {USAGE_PERIODS[period].counts.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </NativeSelect>
          <label className="flex items-center gap-1.5">
            <input type="checkbox" checked={extra} onChange={(e) => setExtra(e.target.checked)} /> Show extra info
          </label>
          <div className="ml-auto flex flex-wrap gap-2">
            <Button size="sm" onClick={() => void fetchAll()} disabled={loading.size > 0}>
              Fetch all
            </Button>
            <Button size="sm" variant="outline" onClick={() => void aggregation('admin/runEventAggregation')}>
              Run aggregation
            </Button>
            <Button size="sm" variant="outline" onClick={() => setConfirmClear(true)}>
              Clear cache
            </Button>
          </div>
        </div>
        {anyFetched ? (
          <div className="h-44" data-testid="usage-chart">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={chart} margin={{ top: 4, right: 8, bottom: 0, left: -12 }}>
                <CartesianGrid strokeDasharray="3 3" vertical={false} stroke={CHART.grid} />
                <XAxis dataKey="label" tick={AXIS_TICK} />
                <YAxis allowDecimals={false} tick={AXIS_TICK} />
                <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: CHART.cursor }} />
                <Bar dataKey="calls" name="API calls" fill={CHART.bar} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </div>
        ) : null}
        <AdminTable head={head} empty={false} testId="usage-table">
          {pageStarts.map((start) => {
            const f = figures[keyOf(start)]
            const busy = loading.has(keyOf(start))
            return (
              <tr key={keyOf(start)} className="border-b last:border-0" title={f ? `Counted ${new Date(f.computedAt).toISOString().replace('T', ' ').slice(0, 19)} UTC` : undefined}>
                <td className={`${td} whitespace-nowrap font-medium`}>{periodLabel(period, start)}</td>
                <td className={`${td} tabular-nums`}>{f ? f.activeClients : '—'}</td>
                <td className={`${td} tabular-nums`}>{f ? f.apiCalls : '—'}</td>
                {extra ? USAGE_EXTRA_CALLS.map((c) => <td key={c} className={`${td} tabular-nums`}>{f ? (f.calls[c] ?? 0) : '—'}</td>) : null}
                <td className={`${td} whitespace-nowrap text-right`}>
                  <Button variant="link" size="sm" className="h-6 px-1" disabled={busy} onClick={() => void fetchOne(start, Boolean(f))}>
                    {busy ? <RefreshCw className="animate-spin" /> : f ? 'Refresh' : 'Fetch'}
                  </Button>
                </td>
              </tr>
            )
          })}
        </AdminTable>
        {pages > 1 ? (
          <div className="flex items-center justify-end gap-2 text-xs text-muted-foreground">
            <span>
              Page {page + 1} of {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </Button>
            <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => setPage(page + 1)}>
              Next
            </Button>
          </div>
        ) : null}
      </CardContent>
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title="Clear cached usage"
        text="Drop every cached usage figure of this organization? The raw counters stay; figures are recounted when fetched again."
        confirmLabel="Clear"
        onConfirm={() => void aggregation('admin/clearEventAggregation')}
      />
    </Card>
  )
}
