import { SEVERITY, SEVERITY_ORDER, severityLabel } from '~/domain/agents/derived'
import { CHART, SEVERITY_COLORS } from './chart-colors'
import { formatCount } from '~/utils/format-time'

/** Bar colours of the severities, matching the severity badges (critical red ... notice blue). */
const BAR_COLORS: Record<number, string> = {
  [SEVERITY.critical]: SEVERITY_COLORS.critical,
  [SEVERITY.error]: SEVERITY_COLORS.error,
  [SEVERITY.warning]: SEVERITY_COLORS.warning,
  [SEVERITY.info]: SEVERITY_COLORS.info,
  [SEVERITY.notice]: SEVERITY_COLORS.notice,
}

export type IssueBreakdown = { critical: number; error: number; warning: number; info: number; notice: number }

const COUNT_OF: Record<number, keyof IssueBreakdown> = {
  [SEVERITY.critical]: 'critical',
  [SEVERITY.error]: 'error',
  [SEVERITY.warning]: 'warning',
  [SEVERITY.info]: 'info',
  [SEVERITY.notice]: 'notice',
}

/**
 * The issue breakdown of one metrics row as a stacked bar, 300 by 30 (spec 02 section 9), in the
 * severity order Critical, Error, Warning, Info, Notice; segment widths are proportional to counts.
 */
export function IssueBreakdownBar({ breakdown, width = 300, height = 30 }: { breakdown: IssueBreakdown; width?: number; height?: number }) {
  const parts = SEVERITY_ORDER.map((severity) => ({ severity, count: breakdown[COUNT_OF[severity]] })).filter((p) => p.count > 0)
  const total = parts.reduce((sum, p) => sum + p.count, 0)
  const label = total ? parts.map((p) => `${formatCount(p.count)} ${severityLabel(p.severity)}`).join(', ') : 'No issues'
  let x = 0
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={label} className="block shrink-0">
      <title>{label}</title>
      <rect x={0} y={0} width={width} height={height} rx={3} fill={CHART.track} />
      {parts.map((p) => {
        const w = (p.count / total) * width
        const segment = (
          <g key={p.severity}>
            <rect x={x} y={0} width={w} height={height} fill={BAR_COLORS[p.severity]} />
            {w >= 18 ? (
              <text x={x + w / 2} y={height / 2 + 4} textAnchor="middle" fontSize={11} fontWeight={600} fill={p.severity === SEVERITY.warning ? '#422006' : '#fff'}>
                {formatCount(p.count)}
              </text>
            ) : null}
          </g>
        )
        x += w
        return segment
      })}
      {total === 0 ? (
        <text x={8} y={height / 2 + 4} fontSize={11} fill={CHART.text}>
          No issues
        </text>
      ) : null}
    </svg>
  )
}
