import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { ChartDatum } from '~/domain/fleet/labels'
import { AXIS_TICK, CHART, TOOLTIP_STYLE } from './chart-colors'

/** The recharts part of ChartCard, a separate module so the chart library is its own lazy chunk. */
export default function ChartBody({ data, layout, barSize, colors }: { data: (ChartDatum & { label: string })[]; layout: 'horizontal' | 'vertical'; barSize: number; colors?: Record<string, string> }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} layout={layout} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={CHART.grid} horizontal={layout === 'horizontal'} vertical={layout === 'vertical'} />
        {layout === 'vertical' ? (
          <>
            <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} />
            <YAxis type="category" dataKey="label" width={130} tick={AXIS_TICK} interval={0} />
          </>
        ) : (
          <>
            <XAxis dataKey="label" tick={AXIS_TICK} interval={0} />
            <YAxis allowDecimals={false} tick={AXIS_TICK} width={52} />
          </>
        )}
        <Tooltip cursor={{ fill: CHART.cursor }} contentStyle={TOOLTIP_STYLE} />
        <Bar dataKey="count" name="Count" isAnimationActive={false} maxBarSize={layout === 'vertical' ? Math.round(barSize * 0.7) : 48}>
          {data.map((d) => (
            <Cell key={d.key} fill={colors?.[d.key] ?? CHART.bar} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  )
}
