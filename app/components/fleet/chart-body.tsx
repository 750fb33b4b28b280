import type { ChartDatum } from '~/domain/fleet/labels'
import { CHART } from './chart-colors'
import { SvgBarChart } from './svg-bar-chart'

const COUNT = [{ key: 'count', name: 'Count', color: CHART.bar }]

/** The bars of a ChartCard: one 'Count' series, a colour per bar when the card gives one. */
export default function ChartBody({ data, layout, barSize, colors, height }: { data: (ChartDatum & { label: string })[]; layout: 'horizontal' | 'vertical'; barSize: number; colors?: Record<string, string>; height: number }) {
  const categories = data.map((d) => ({ key: d.key, label: d.label, values: { count: d.count }, colors: colors?.[d.key] ? { count: colors[d.key]! } : undefined }))
  return (
    <SvgBarChart
      categories={categories}
      series={COUNT}
      layout={layout}
      height={height}
      maxBarSize={layout === 'vertical' ? Math.round(barSize * 0.7) : 48}
      axisWidth={layout === 'vertical' ? 130 : 52}
      margin={{ top: 4, right: 12, bottom: 4, left: 0 }}
    />
  )
}
