/**
 * Display names shared by the fleet screens (spec 02 section 3): device kinds with singular and
 * plural labels (receiver is shown as 'Tile'), and the five-step severity scale of the charts.
 */
export const COMPONENT_LABELS: Record<string, { one: string; many: string }> = {
  display: { one: 'Display', many: 'Displays' },
  matrix: { one: 'Matrix', many: 'Matrices' },
  other: { one: 'Other', many: 'Others' },
  pdu: { one: 'PDU', many: 'PDUs' },
  processor: { one: 'Processor', many: 'Processors' },
  projector: { one: 'Projector', many: 'Projectors' },
  receiver: { one: 'Tile', many: 'Tiles' },
  switch: { one: 'Switch', many: 'Switches' },
  system: { one: 'System', many: 'Systems' },
}

export const componentLabel = (component: string, count = 1) => {
  const label = COMPONENT_LABELS[component] ?? { one: component, many: component }
  return count === 1 ? label.one : label.many
}

/**
 * The 'Issues by Severity' chart's categories in order (spec 02 section 2: Invalid 1, Critical 2,
 * Error 3, Warning 4, Notice 5). Info issues count as Notice, the mildest step of the scale.
 */
export const SEVERITY_STEPS = ['Invalid', 'Critical', 'Error', 'Warning', 'Notice'] as const
export function severityStep(severity: number): (typeof SEVERITY_STEPS)[number] {
  if (severity === 2) return 'Critical'
  if (severity === 3) return 'Error'
  if (severity === 4) return 'Warning'
  if (severity === 5 || severity === 6) return 'Notice'
  return 'Invalid'
}

/** Key, count and an optional message: what every chart shows and its table view lists. */
export type ChartDatum = { key: string; count: number; message?: string }

/** Stacks of the 'Issue History' chart. */
export const HISTORY_SEVERITIES = ['critical', 'error', 'warning', 'notice'] as const
