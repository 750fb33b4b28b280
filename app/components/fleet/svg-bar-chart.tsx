import { useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react'
import { AXIS_TICK, CHART, TOOLTIP_STYLE } from './chart-colors'

/**
 * The overview and issue-history bar charts, drawn as plain SVG. They replaced recharts there
 * (docs/benchmarks.md, Pages on phones; decision 060): recharts 3 mounted a chart through a chain
 * of store updates, each a synchronous re-render, one 0.7-3.7 s task on a phone-speed CPU; a chart
 * here is one render of a few dozen elements. Looks like the recharts version: dashed grid, integer
 * value axis, category labels wrapped into two lines, hover (or arrow keys when focused) shows the
 * category's values in a card-coloured box over a shaded band.
 */
export type BarSeries = { key: string; name: string; color: string }
export type BarCategory = { key: string; label: string; values: Record<string, number>; colors?: Record<string, string> }

type Props = {
  categories: BarCategory[]
  series: BarSeries[]
  /** 'horizontal': columns over categories along the bottom; 'vertical': bars with categories on the left */
  layout: 'horizontal' | 'vertical'
  /** fixed width; without it the chart fills its parent's width */
  width?: number
  height: number
  maxBarSize: number
  /** width of the category axis in the vertical layout, of the value axis in the horizontal one */
  axisWidth: number
  margin: { top: number; right: number; bottom: number; left: number }
  legend?: boolean
  /** 'all' wraps every category label; 'preserveEnd' shows every n-th unwrapped label so they fit, the last one always */
  labels?: 'all' | 'preserveEnd'
}

const FONT = AXIS_TICK.fontSize
const CHAR_WIDTH = FONT * 0.58
const X_AXIS_HEIGHT = 30
const LEGEND_HEIGHT = 24

/** 0 .. a round maximum in about four steps of 1, 2 or 5 x 10^n (integers only, like allowDecimals={false}). */
export function valueTicks(max: number): number[] {
  if (max <= 0) return [0, 1, 2, 3, 4]
  const rough = max / 4
  const power = 10 ** Math.floor(Math.log10(rough))
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power)
  // at least four steps, like recharts' default tickCount of 5
  return Array.from({ length: Math.max(4, Math.ceil(max / step)) + 1 }, (_, i) => i * step)
}

/** Splits a label into at most two lines of `width` px (the second ends in '…' when cut). */
export function wrapLabel(text: string, width: number): string[] {
  const perLine = Math.max(4, Math.floor(width / CHAR_WIDTH))
  if (text.length <= perLine) return [text]
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word
    if (next.length <= perLine || !line) line = next
    else {
      lines.push(line)
      line = word
    }
  }
  lines.push(line)
  if (lines.length <= 2) return lines.map((l) => (l.length > perLine ? `${l.slice(0, perLine - 1)}…` : l))
  const second = lines.slice(1).join(' ')
  return [lines[0]!.slice(0, perLine), `${second.slice(0, perLine - 1)}…`]
}

export function SvgBarChart({ categories, series, layout, width: fixedWidth, height, maxBarSize, axisWidth, margin, legend, labels = 'all' }: Props) {
  const box = useRef<HTMLDivElement>(null)
  const [measured, setMeasured] = useState(0)
  const [active, setActive] = useState<number | null>(null)
  useLayoutEffect(() => {
    const element = box.current
    if (fixedWidth !== undefined || !element) return
    setMeasured(Math.floor(element.getBoundingClientRect().width))
    if (typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(([entry]) => setMeasured(Math.floor(entry!.contentRect.width)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [fixedWidth])
  const width = fixedWidth ?? measured
  const svgHeight = height - (legend ? LEGEND_HEIGHT : 0)

  const totals = categories.map((c) => series.reduce((sum, s) => sum + (c.values[s.key] ?? 0), 0))
  const ticks = valueTicks(Math.max(0, ...totals))
  const top = ticks[ticks.length - 1]!
  const vertical = layout === 'vertical'
  // plot area
  const left = margin.left + axisWidth
  const right = width - margin.right
  const plotTop = margin.top
  const plotBottom = svgHeight - margin.bottom - X_AXIS_HEIGHT
  const plotWidth = Math.max(0, right - left)
  const plotHeight = Math.max(0, plotBottom - plotTop)
  const band = (vertical ? plotHeight : plotWidth) / Math.max(1, categories.length)
  const thickness = Math.min(maxBarSize, band * 0.8)
  const widest = Math.max(0, ...categories.map((c) => c.label.length)) * CHAR_WIDTH + 8
  const labelEvery = labels === 'preserveEnd' && !vertical ? Math.max(1, Math.ceil(widest / Math.max(1, band))) : 1
  const scale = (v: number) => (v / top) * (vertical ? plotWidth : plotHeight)

  const pick = (clientX: number, clientY: number, target: SVGSVGElement) => {
    const rect = target.getBoundingClientRect()
    const offset = vertical ? clientY - rect.top - plotTop : clientX - rect.left - left
    const index = Math.floor(offset / band)
    setActive(index >= 0 && index < categories.length ? index : null)
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0
    if (event.key === 'Escape') setActive(null)
    if (!step || !categories.length) return
    event.preventDefault()
    setActive((i) => (i === null ? 0 : Math.min(categories.length - 1, Math.max(0, i + step))))
  }
  const summary = categories.map((c, i) => `${c.label}: ${series.length > 1 ? series.map((s) => `${s.name} ${c.values[s.key] ?? 0}`).join(', ') : totals[i]}`).join('; ')
  const current = active === null ? undefined : categories[active]

  return (
    <div ref={box} className="relative" style={{ width: fixedWidth ?? '100%', height }}>
      {width > 0 ? (
        <svg
          width={width}
          height={svgHeight}
          role="img"
          aria-label={summary || 'No data'}
          tabIndex={0}
          className="outline-none focus-visible:ring-2 focus-visible:ring-ring"
          onPointerMove={(e: PointerEvent<SVGSVGElement>) => pick(e.clientX, e.clientY, e.currentTarget)}
          onPointerLeave={() => setActive(null)}
          onKeyDown={onKeyDown}
          onBlur={() => setActive(null)}
        >
          {active !== null ? (
            vertical ? (
              <rect x={left} y={plotTop + active * band} width={plotWidth} height={band} fill={CHART.cursor} />
            ) : (
              <rect x={left + active * band} y={plotTop} width={band} height={plotHeight} fill={CHART.cursor} />
            )
          ) : null}
          {ticks.map((t) => {
            const at = scale(t)
            return vertical ? (
              <g key={t}>
                <line x1={left + at} x2={left + at} y1={plotTop} y2={plotBottom} stroke={CHART.grid} strokeDasharray="3 3" />
                <text x={left + at} y={plotBottom + 14} textAnchor="middle" fontSize={FONT} fill={AXIS_TICK.fill}>
                  {t}
                </text>
              </g>
            ) : (
              <g key={t}>
                <line x1={left} x2={right} y1={plotBottom - at} y2={plotBottom - at} stroke={CHART.grid} strokeDasharray="3 3" />
                <text x={left - 8} y={plotBottom - at} dy="0.355em" textAnchor="end" fontSize={FONT} fill={AXIS_TICK.fill}>
                  {t}
                </text>
              </g>
            )
          })}
          {categories.map((c, i) => {
            const center = (vertical ? plotTop : left) + band * (i + 0.5)
            let stacked = 0
            const shown = (categories.length - 1 - i) % labelEvery === 0
            const lines = !shown ? [] : labels === 'preserveEnd' ? [c.label] : wrapLabel(c.label, vertical ? axisWidth - 10 : band)
            return (
              <g key={c.key}>
                {series.map((s) => {
                  const value = c.values[s.key] ?? 0
                  if (!value) return null
                  const start = scale(stacked)
                  stacked += value
                  const length = scale(value)
                  const fill = c.colors?.[s.key] ?? s.color
                  return vertical ? (
                    <rect key={s.key} x={left + start} y={center - thickness / 2} width={length} height={thickness} fill={fill} />
                  ) : (
                    <rect key={s.key} x={center - thickness / 2} y={plotBottom - start - length} width={thickness} height={length} fill={fill} />
                  )
                })}
                {vertical ? (
                  <text x={left - 8} y={center} textAnchor="end" fontSize={FONT} fill={AXIS_TICK.fill}>
                    {lines.map((line, n) => (
                      <tspan key={n} x={left - 8} dy={n === 0 ? `${0.355 - (lines.length - 1) * 0.55}em` : '1.1em'}>
                        {line}
                      </tspan>
                    ))}
                  </text>
                ) : (
                  <text x={center} y={plotBottom + 14} textAnchor="middle" fontSize={FONT} fill={AXIS_TICK.fill}>
                    {lines.map((line, n) => (
                      <tspan key={n} x={center} dy={n === 0 ? 0 : '1.1em'}>
                        {line}
                      </tspan>
                    ))}
                  </text>
                )}
              </g>
            )
          })}
          <line x1={left} x2={vertical ? left : right} y1={vertical ? plotTop : plotBottom} y2={plotBottom} stroke={CHART.text} strokeOpacity={0.6} />
          {vertical ? <line x1={left} x2={right} y1={plotBottom} y2={plotBottom} stroke={CHART.text} strokeOpacity={0.6} /> : <line x1={left} x2={left} y1={plotTop} y2={plotBottom} stroke={CHART.text} strokeOpacity={0.6} />}
        </svg>
      ) : null}
      {current && active !== null ? (
        <div
          className="pointer-events-none absolute z-10 rounded border px-2.5 py-1.5 shadow-sm"
          style={{
            ...TOOLTIP_STYLE,
            borderStyle: 'solid',
            ...(vertical
              ? { left: Math.min(left + 16, Math.max(0, width - 180)), top: plotTop + band * (active + 1) }
              : { left: Math.min(left + band * (active + 1) + 8, Math.max(0, width - 160)), top: plotTop + 8 }),
          }}
        >
          <p className="mb-1">{current.label}</p>
          {series.map((s) => (
            <p key={s.key} className="flex items-center gap-1.5">
              <span aria-hidden className="inline-block size-2.5" style={{ background: current.colors?.[s.key] ?? s.color }} />
              {s.name} : {current.values[s.key] ?? 0}
            </p>
          ))}
        </div>
      ) : null}
      {legend ? (
        <ul className="flex flex-wrap justify-center gap-x-3" style={{ fontSize: FONT, color: CHART.text, height: LEGEND_HEIGHT }}>
          {series.map((s) => (
            <li key={s.key} className="flex items-center gap-1">
              <span aria-hidden className="inline-block size-2.5" style={{ background: s.color }} />
              {/* the name in the axis colour: yellow or orange text on the card fails contrast (axe) */}
              <span>{s.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
