import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { ChartDatum } from '~/domain/fleet/labels'

const DEFAULT_COLOR = '#3b82f6'

/** The recharts part of ChartCard, a separate module so the chart library is its own lazy chunk. */
export default function ChartBody({ data, layout, barSize, colors }: { data: ChartDatum[]; layout: 'horizontal' | 'vertical'; barSize: number; colors?: Record<string, string> }) {
  return (
    <ResponsiveContainer width="100%" height="100%">
      <BarChart data={data} layout={layout} margin={{ top: 4, right: 12, bottom: 4, left: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" horizontal={layout === 'horizontal'} vertical={layout === 'vertical'} />
        {layout === 'vertical' ? (
          <>
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11 }} />
            <YAxis type="category" dataKey="key" width={130} tick={{ fontSize: 11 }} interval={0} />
          </>
        ) : (
          <>
            <XAxis dataKey="key" tick={{ fontSize: 11 }} interval={0} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11 }} width={52} />
          </>
        )}
        <Tooltip cursor={{ fill: 'rgba(148,163,184,0.15)' }} contentStyle={{ fontSize: 12 }} />
        <Bar dataKey="count" name="Count" isAnimationActive={false} maxBarSize={layout === 'vertical' ? Math.round(barSize * 0.7) : 48}>
          {data.map((d) => (
            <Cell key={d.key} fill={colors?.[d.key] ?? DEFAULT_COLOR} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  )
}
