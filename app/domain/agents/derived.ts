/**
 * Derived agent, system and issue state (spec 01/02 sections 3, 4, 9). Pure functions with no
 * server imports, shared by ingest (stored columns) and the UI (values that depend on "now").
 */

// ------------------------------------------------------------------------------ severities

/** Severity levels: lower is worse; -1 (invalid) means none and is shown as 'None'. */
export const SEVERITY = { invalid: -1, critical: 2, error: 3, warning: 4, notice: 5, info: 6 } as const
export type SeverityName = keyof typeof SEVERITY
export const NO_SEVERITY = SEVERITY.invalid

export const SEVERITY_LABELS: Record<number, string> = {
  [SEVERITY.invalid]: 'None',
  [SEVERITY.critical]: 'Critical',
  [SEVERITY.error]: 'Error',
  [SEVERITY.warning]: 'Warning',
  [SEVERITY.notice]: 'Notice',
  [SEVERITY.info]: 'Info',
}

/** Colours (spec 02 section 3): invalid grey, critical red, error orange, warning yellow, notice blue. Tailwind classes. */
export const SEVERITY_COLORS: Record<number, { text: string; bg: string; dot: string }> = {
  [SEVERITY.invalid]: { text: 'text-slate-600', bg: 'bg-slate-100', dot: 'bg-slate-400' },
  [SEVERITY.critical]: { text: 'text-red-700', bg: 'bg-red-50', dot: 'bg-red-600' },
  [SEVERITY.error]: { text: 'text-orange-700', bg: 'bg-orange-50', dot: 'bg-orange-500' },
  [SEVERITY.warning]: { text: 'text-yellow-800', bg: 'bg-yellow-50', dot: 'bg-yellow-400' },
  [SEVERITY.notice]: { text: 'text-blue-700', bg: 'bg-blue-50', dot: 'bg-blue-500' },
  [SEVERITY.info]: { text: 'text-sky-700', bg: 'bg-sky-50', dot: 'bg-sky-400' },
}

/** Display order (spec 02 section 9): Critical, Error, Warning, Info, Notice. */
export const SEVERITY_ORDER = [SEVERITY.critical, SEVERITY.error, SEVERITY.warning, SEVERITY.info, SEVERITY.notice] as const

export const severityLabel = (severity: number) => SEVERITY_LABELS[severity] ?? SEVERITY_LABELS[NO_SEVERITY]
export const severityColor = (severity: number) => SEVERITY_COLORS[severity] ?? SEVERITY_COLORS[NO_SEVERITY]

/** The worse of two severities (lower number), treating -1 as none. */
export function worseSeverity(a: number, b: number): number {
  if (a === NO_SEVERITY) return b
  if (b === NO_SEVERITY) return a
  return Math.min(a, b)
}

/** Count and worst severity of the active issues in a list. */
export function summarizeIssues(issues: { severity: number; isActive: boolean }[]): { count: number; severity: number } {
  let count = 0
  let severity: number = NO_SEVERITY
  for (const issue of issues) {
    if (!issue.isActive) continue
    count++
    severity = worseSeverity(severity, issue.severity)
  }
  return { count, severity }
}

// --------------------------------------------------------------------------- connectivity

/**
 * Presence (docs/decisions/037-one-presence-model.md): an agent is connected while enabled and last
 * seen within its offline delay, the "Offline alarm after" setting of its systems' projects (the
 * shortest when its systems sit in several; OFFLINE_MINUTES.default for unassigned systems and
 * agents without any). The same rule raises the offline alarm, so the Connected tag, the filters,
 * the counts, the CLI, the readiness report and the alarm never disagree.
 */
export const OFFLINE_MINUTES = { default: 5, min: 1, max: 1440 } as const

/** The offline delay of an agent from its systems' project delays (null for an unassigned system). */
export function agentOfflineMinutes(systemDelays: readonly (number | null | undefined)[]): number {
  let minutes: number | null = null
  for (const delay of systemDelays) {
    const m = delay ?? OFFLINE_MINUTES.default
    if (minutes === null || m < minutes) minutes = m
  }
  return minutes ?? OFFLINE_MINUTES.default
}

/** Connected: enabled and last seen less than `offlineMinutes` ago (at exactly the delay the alarm is due, so not connected). */
export function isConnected(enabled: boolean, lastSeen: Date | string | number | null | undefined, now = Date.now(), offlineMinutes: number = OFFLINE_MINUTES.default): boolean {
  if (!enabled || lastSeen == null) return false
  return now - new Date(lastSeen).getTime() < offlineMinutes * 60_000
}

export type RemoteConnectionState = 'Connected' | 'Disabled' | 'Unavailable' | 'Unknown' | 'Not connected'

/** The agent's tunnel state as stored (Agent.tunnelStatus): 'true', 'false', 'null', a message, or unset. */
export type StoredTunnelStatus = string | null | undefined

/** Parses Agent.tunnelStatus into the spec's value: true, false, null (unable), a message, or undefined (never reported). */
export function parseTunnelStatus(stored: StoredTunnelStatus): boolean | null | string | undefined {
  if (stored == null) return undefined
  if (stored === 'true') return true
  if (stored === 'false') return false
  if (stored === 'null') return null
  return stored
}

/** Agent.tunnelStatus column value for a reported tunnel state. */
export function storeTunnelStatus(tunnel: boolean | null | string): string {
  return tunnel === null ? 'null' : String(tunnel)
}

/**
 * Remote connection state text (spec 01 section 4) and the message to show beside it:
 * not connected to the cloud -> Not connected; tunnel true -> Connected; false -> Disabled (on the
 * agent side); null -> Unavailable ('unable to establish tunnel'); a string -> Unavailable with it;
 * never reported -> Unknown.
 */
export function remoteConnectionState(connected: boolean, tunnelStatus: StoredTunnelStatus): { state: RemoteConnectionState; message: string | null } {
  if (!connected) return { state: 'Not connected', message: null }
  const tunnel = parseTunnelStatus(tunnelStatus)
  if (tunnel === true) return { state: 'Connected', message: null }
  if (tunnel === false) return { state: 'Disabled', message: 'Remote connect is disabled on the agent' }
  if (tunnel === null) return { state: 'Unavailable', message: 'unable to establish tunnel' }
  if (typeof tunnel === 'string') return { state: 'Unavailable', message: tunnel }
  return { state: 'Unknown', message: null }
}

// --------------------------------------------------------------------------------- metrics

/**
 * Packet loss (spec 9): 100 x (totalRetrans - dsackDups) / dataSegsOut, one decimal, as a percent
 * string such as '1.5%'. null when nothing was sent yet; never below 0.0%.
 */
export function packetLoss(metrics: { dataSegsOut: number; dsackDups: number; totalRetrans: number }): string | null {
  if (!metrics.dataSegsOut) return null
  const percent = (100 * (metrics.totalRetrans - metrics.dsackDups)) / metrics.dataSegsOut
  return `${Math.max(0, percent).toFixed(1)}%`
}

/** The severities that carry weight in the score, each with its exponent (info level minus the severity). */
export const SCORE_EXPONENTS: readonly { severity: number; exponent: number }[] = [SEVERITY.critical, SEVERITY.error, SEVERITY.warning, SEVERITY.notice, SEVERITY.info].map(
  (severity) => ({ severity, exponent: SEVERITY.info - severity }),
)

/** One half of the score: count^(info - severity); 0 without issues or with no known severity. */
export function weightedPart(count: number, severity: number): number {
  const step = SCORE_EXPONENTS.find((e) => e.severity === severity)
  return count > 0 && step ? count ** step.exponent : 0
}

/**
 * Weighted alerts score (spec 01/02 section 9): alertCount^(info - worst alert severity) + the same
 * for deviations. A critical alert (2) weighs count^4, a notice (5) count^1, info count^0 = 1; no
 * issues score 0. The agents list sorts by the same formula in SQL (agents-table.server.ts builds it
 * from SCORE_EXPONENTS), so the column and the order always agree.
 */
export function weightedAlertsScore(s: { alertsCount: number; alertsSeverity: number; deviationsCount: number; deviationsSeverity: number }): number {
  return weightedPart(s.alertsCount, s.alertsSeverity) + weightedPart(s.deviationsCount, s.deviationsSeverity)
}

// ---------------------------------------------------------------------------------- issues

/**
 * Hold-down against flapping: an issue whose device reports it healthy (latest history count 0)
 * stays active this much longer, so a fault that comes back within a minute continues the same
 * activation (one notification) instead of clearing and raising again. It clears with the first
 * report after that (docs/notifications.md, "Clearing").
 */
export const ISSUE_CLEAR_HOLD_MS = 60_000
/** History kept per issue (spec 02 section 9: issue history window 10 days), and at most this many entries. */
export const ISSUE_HISTORY_WINDOW_MS = 864_000_000
export const ISSUE_HISTORY_MAX_ENTRIES = 200

/** Active while the latest count is above 0, and for the hold-down after the device reported it healthy. */
export function isIssueActive(latestCount: number, latestAt: Date | string | number | null | undefined, now = Date.now()): boolean {
  if (latestCount > 0) return true
  if (latestAt == null) return false
  return now - new Date(latestAt).getTime() < ISSUE_CLEAR_HOLD_MS
}

// ----------------------------------------------------------------------- last-seen buckets

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/**
 * Last-seen buckets (spec 02 section 4) as [upper bound of age, label]. The labels are the spec's
 * texts; the bounds are contiguous, so the spec's '12-24 h' covers 18-24 h and '60-180 d' 90-180 d.
 */
export const LAST_SEEN_BUCKETS: readonly (readonly [number, string])[] = [
  [MINUTE, 'Now'],
  [5 * MINUTE, '< 5 min'],
  [15 * MINUTE, '5-15 min'],
  [30 * MINUTE, '15-30 min'],
  [60 * MINUTE, '30-60 min'],
  [3 * HOUR, '1-3 h'],
  [6 * HOUR, '3-6 h'],
  [12 * HOUR, '6-12 h'],
  [18 * HOUR, '12-18 h'],
  [24 * HOUR, '12-24 h'],
  [2 * DAY, '1-2 d'],
  [3 * DAY, '2-3 d'],
  [4 * DAY, '3-4 d'],
  [5 * DAY, '4-5 d'],
  [6 * DAY, '5-6 d'],
  [7 * DAY, '6-7 d'],
  [10 * DAY, '7-10 d'],
  [14 * DAY, '10-14 d'],
  [21 * DAY, '14-21 d'],
  [30 * DAY, '21-30 d'],
  [60 * DAY, '30-60 d'],
  [90 * DAY, '60-90 d'],
  [180 * DAY, '60-180 d'],
  [365 * DAY, '180-365 d'],
]
export const LAST_SEEN_OVER_A_YEAR = '> 1 year'
export const LAST_SEEN_UNKNOWN = 'Unknown'

/** The bucket label for a last-seen time ('Now' is shown with a spinner). */
export function lastSeenBucket(lastSeen: Date | string | number | null | undefined, now = Date.now()): string {
  if (lastSeen == null) return LAST_SEEN_UNKNOWN
  const age = Math.max(0, now - new Date(lastSeen).getTime())
  for (const [limit, label] of LAST_SEEN_BUCKETS) if (age < limit) return label
  return LAST_SEEN_OVER_A_YEAR
}
