/**
 * The alarm state model (ThingsBoard's): an issue is active or cleared, and acknowledged or not.
 * An acknowledgement belongs to one activation: when the issue becomes active again (ingest bumps
 * `activation`), it needs a new one. Shared by the server and the UI; no database here.
 */

export const ISSUE_STATE_FILTERS = ['active', 'active-unack', 'active-ack', 'cleared', 'all'] as const
export type IssueStateFilter = (typeof ISSUE_STATE_FILTERS)[number]

export const ISSUE_STATE_LABELS: Record<IssueStateFilter, string> = {
  active: 'Active',
  'active-unack': 'Active unacknowledged',
  'active-ack': 'Active acknowledged',
  cleared: 'Cleared',
  all: 'All',
}

// spec 02: the Issues tab's 'Issue Counts' lists the active issues, acknowledged or not
export const DEFAULT_ISSUE_STATE: IssueStateFilter = 'active'

export const parseIssueState = (value: string | null | undefined): IssueStateFilter =>
  (ISSUE_STATE_FILTERS as readonly string[]).includes(value ?? '') ? (value as IssueStateFilter) : DEFAULT_ISSUE_STATE

type AckFields = { acknowledgedAt: Date | string | null; ackActivation: number; activation: number }

export function isAcknowledged(issue: AckFields): boolean {
  return issue.acknowledgedAt !== null && issue.ackActivation >= issue.activation
}

export function matchesState(issue: AckFields & { isActive: boolean }, state: IssueStateFilter): boolean {
  if (state === 'all') return true
  if (state === 'cleared') return !issue.isActive
  if (state === 'active') return issue.isActive
  return issue.isActive && isAcknowledged(issue) === (state === 'active-ack')
}

/** Offline alarm: the key and component of the issue the sweeper raises for a silent agent. */
export const OFFLINE_ISSUE = { kind: 'alert', key: 'agent.offline', component: 'agent' } as const
/** The offline delay lives with the presence rule it defines (agents/derived.ts). */
export { OFFLINE_MINUTES } from '../agents/derived'
