import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts'
import { HISTORY_SEVERITIES } from '~/domain/fleet/labels'
import { SEVERITY_CHART_COLORS } from './chart-card'
import { AXIS_TICK, CHART, TOOLTIP_STYLE } from './chart-colors'

const LABELS: Record<string, string> = {
  critical: 'Critical',
  error: 'Error',
  warning: 'Warning',
  notice: 'Notice',
}

/** The recharts part of IssueHistoryChart, its own module so recharts loads in the browser only. */
export default function IssueHistoryBody({ history, width, height }: { history: Record<string, number | string>[]; width: number; height: number }) {
  return (
    <BarChart width={width} height={height} data={history} margin={{ top: 4, right: 8, bottom: 0, left: -16 }}>
      <CartesianGrid strokeDasharray="3 3" stroke={CHART.grid} vertical={false} />
      <XAxis dataKey="day" tick={AXIS_TICK} />
      <YAxis allowDecimals={false} tick={AXIS_TICK} />
      <Tooltip contentStyle={TOOLTIP_STYLE} cursor={{ fill: CHART.cursor }} />
      {/* legend in severity order, not recharts' default alphabetical */}
      <Legend wrapperStyle={{ fontSize: 11, color: CHART.text }} itemSorter={null} />
      {HISTORY_SEVERITIES.map((s) => (
        <Bar key={s} dataKey={s} name={LABELS[s]} stackId="severity" fill={SEVERITY_CHART_COLORS[s]} isAnimationActive={false} />
      ))}
    </BarChart>
  )
}
