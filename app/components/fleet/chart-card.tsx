import { BarChart3, Table2 } from 'lucide-react'
import { memo, useState, type ReactNode } from 'react'
import type { ChartDatum } from '~/domain/fleet/labels'
import ChartBody from './chart-body'
import { SEVERITY_COLORS } from './chart-colors'
import { useNearViewport } from './use-near-viewport'
import { Card, CardContent, CardHeader, CardTitle } from '../ui/card'

/** Axis labels wrap into two lines at most (the table view shows the whole text). */
const LABEL_MAX = 40
const shortLabel = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text)

type ChartCardProps = {
  title: string
  data: ChartDatum[]
  colors?: Record<string, string>
  layout?: 'horizontal' | 'vertical'
  barSize?: number
  height?: number
  label?: (datum: ChartDatum) => string
  children?: ReactNode
}

/**
 * A live reload answers every chart's data as new arrays (and pages build some, with labels, per
 * render); a chart whose data and colours read the same skips rendering, so a reload that changed
 * one figure re-renders one chart, not the seven of an overview.
 */
function sameChart(a: ChartCardProps, b: ChartCardProps) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof ChartCardProps)[])
  for (const key of keys) {
    if (a[key] === b[key]) continue
    if ((key === 'data' || key === 'colors') && JSON.stringify(a[key]) === JSON.stringify(b[key])) continue
    return false
  }
  return true
}

/**
 * One overview chart that the user can switch to a table (Key, Count, and Message when the data
 * has one). Horizontal bars get `barSize` px per row (Issues By Type: 50 px each, 100 when empty).
 * The chart's axis names a bar by `label` (default: its message, else its key), so people read
 * 'Tile temperature high' rather than an alert code; the table keeps the key beside the message.
 */
export const ChartCard = memo(function ChartCard({
  title,
  data,
  colors,
  layout = 'horizontal',
  barSize = 28,
  height,
  label = (d) => shortLabel(d.message || d.key),
  children,
}: ChartCardProps) {
  const [view, setView] = useState<'chart' | 'table'>('chart')
  const [chartArea, nearViewport] = useNearViewport<HTMLDivElement>()
  const hasMessage = data.some((d) => d.message)
  const empty = data.every((d) => !d.count)
  const chartHeight = height ?? (layout === 'vertical' ? (data.length ? data.length * barSize : 100) : 220)
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between py-2">
        <CardTitle>{title}</CardTitle>
        <div className="flex rounded-md border p-0.5">
          <button type="button" aria-label={`${title}: chart`} aria-pressed={view === 'chart'} onClick={() => setView('chart')} className={`flex size-7 items-center justify-center rounded ${view === 'chart' ? 'bg-secondary' : 'text-muted-foreground'}`}>
            <BarChart3 className="size-3.5" />
          </button>
          <button type="button" aria-label={`${title}: table`} aria-pressed={view === 'table'} onClick={() => setView('table')} className={`flex size-7 items-center justify-center rounded ${view === 'table' ? 'bg-secondary' : 'text-muted-foreground'}`}>
            <Table2 className="size-3.5" />
          </button>
        </div>
      </CardHeader>
      <CardContent>
        {view === 'table' ? (
          <table className="w-full text-[13px]" aria-label={title}>
            <thead className="text-left text-xs text-muted-foreground">
              <tr>
                <th className="pb-1 font-medium">Key</th>
                <th className="pb-1 text-right font-medium">Count</th>
                {hasMessage ? <th className="pb-1 pl-3 font-medium">Message</th> : null}
              </tr>
            </thead>
            <tbody>
              {data.length ? (
                data.map((d) => (
                  <tr key={d.key} className="border-t">
                    <td className="py-1">{d.key}</td>
                    <td className="py-1 text-right font-mono text-xs">{d.count}</td>
                    {hasMessage ? <td className="py-1 pl-3 text-muted-foreground">{d.message}</td> : null}
                  </tr>
                ))
              ) : (
                <tr>
                  <td colSpan={3} className="py-3 text-center text-muted-foreground">
                    No data available
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        ) : (
          <div ref={chartArea} style={{ height: chartHeight }} className="relative" data-chart={title}>
            {empty ? <p className="absolute inset-0 flex items-center justify-center text-xs text-muted-foreground">No data available</p> : null}
            {/* drawn in the browser once near the screen: the chart needs its measured width */}
            {nearViewport ? <ChartBody data={data.map((d) => ({ ...d, label: label(d) }))} layout={layout} barSize={barSize} colors={colors} height={chartHeight} /> : null}
          </div>
        )}
        {children}
      </CardContent>
    </Card>
  )
}, sameChart)

/** Chart colours of the severity steps (spec 02 section 3), keyed by step name and by its lower-case data key. */
const STEP_COLORS = { Invalid: SEVERITY_COLORS.invalid, Critical: SEVERITY_COLORS.critical, Error: SEVERITY_COLORS.error, Warning: SEVERITY_COLORS.warning, Notice: SEVERITY_COLORS.notice }
export const SEVERITY_CHART_COLORS: Record<string, string> = {
  ...STEP_COLORS,
  ...Object.fromEntries(Object.entries(STEP_COLORS).map(([step, color]) => [step.toLowerCase(), color])),
}
