import { SEVERITY, severityColor } from '../agents/derived'

/**
 * Subscription severity scale (spec 02 section 3). A subscription stores a slider step 0..4 for
 * alerts and for deviations: off, critical, error, warning, notice. Issues carry numeric
 * severities (smaller is worse, see agents/derived.ts). Shared by delivery and the settings screen.
 */
const STEP_SEVERITIES = [SEVERITY.invalid, SEVERITY.critical, SEVERITY.error, SEVERITY.warning, SEVERITY.notice] as const
const STEP_LABELS = ['off', 'critical', 'error', 'warning', 'notice'] as const

export const SUBSCRIPTION_STEPS = STEP_SEVERITIES.map((severity, step) => ({
  step,
  label: STEP_LABELS[step]!,
  /** Tailwind background class of the step's colour (off grey, critical red, ..., notice blue). */
  color: severityColor(severity).dot,
}))

export const MAX_SUBSCRIPTION_STEP = SUBSCRIPTION_STEPS.length - 1

/**
 * Does an issue of `severity` reach a subscriber's slider `step`? Step 1 lets through critical
 * only, step 4 everything from critical to notice; step 0 (off) nothing. Info and invalid never notify.
 */
export function reachesThreshold(severity: number, step: number): boolean {
  const worstAllowed = STEP_SEVERITIES[Math.min(Math.max(step, 0), MAX_SUBSCRIPTION_STEP)]!
  if (worstAllowed === SEVERITY.invalid || severity === SEVERITY.invalid) return false
  return severity >= SEVERITY.critical && severity <= worstAllowed
}
