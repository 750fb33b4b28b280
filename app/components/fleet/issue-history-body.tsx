import { HISTORY_SEVERITIES } from '~/domain/fleet/labels'
import { SEVERITY_CHART_COLORS } from './chart-card'
import { SvgBarChart } from './svg-bar-chart'

const LABELS: Record<string, string> = {
  critical: 'Critical',
  error: 'Error',
  warning: 'Warning',
  notice: 'Notice',
}

/** legend and stacks in severity order */
const SERIES = HISTORY_SEVERITIES.map((s) => ({ key: s, name: LABELS[s]!, color: SEVERITY_CHART_COLORS[s]! }))

/** The Issue History bars: one column per day, stacked by severity, with a legend. */
export default function IssueHistoryBody({ history, width, height }: { history: Record<string, number | string>[]; width: number; height: number }) {
  const categories = history.map((day) => ({
    key: String(day.day),
    label: String(day.day),
    values: Object.fromEntries(HISTORY_SEVERITIES.map((s) => [s, Number(day[s] ?? 0)])),
  }))
  return <SvgBarChart categories={categories} series={SERIES} layout="horizontal" width={width} height={height} maxBarSize={48} axisWidth={36} margin={{ top: 4, right: 8, bottom: 0, left: 0 }} legend labels="preserveEnd" />
}
