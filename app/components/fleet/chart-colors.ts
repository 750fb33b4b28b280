/**
 * Chart colours as CSS colour values that read the theme's variables (tailwind.config.ts,
 * decision 040): the same chart is drawn in the light and the dark theme without re-rendering.
 * recharts passes them to SVG fill and stroke, where var() resolves like in CSS.
 */
const tint = (name: string) => `rgb(var(--tint-${name}))`
const semantic = (name: string) => `hsl(var(--${name}))`

export const CHART = {
  grid: semantic('border'),
  text: semantic('muted-foreground'),
  track: semantic('muted'),
  cursor: 'hsl(var(--muted-foreground) / 0.15)',
  bar: tint('blue-500'),
  good: tint('green-500'),
  bad: tint('red-600'),
} as const

/** Axis ticks in the theme's muted text colour. */
export const AXIS_TICK = { fontSize: 11, fill: CHART.text }

/** The tooltip box in the theme's card colours. */
export const TOOLTIP_STYLE = { fontSize: 12, background: semantic('card'), borderColor: CHART.grid, color: semantic('card-foreground') }

/** Severity colours, matching the severity badges (critical red ... notice blue). */
export const SEVERITY_COLORS = {
  invalid: tint('slate-400'),
  critical: tint('red-600'),
  error: tint('orange-500'),
  warning: tint('yellow-400'),
  info: tint('sky-400'),
  notice: tint('blue-500'),
} as const
