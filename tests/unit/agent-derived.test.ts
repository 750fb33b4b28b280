import { describe, expect, test } from 'vitest'
import {
  agentOfflineMinutes,
  isConnected,
  isIssueActive,
  lastSeenBucket,
  packetLoss,
  remoteConnectionState,
  severityLabel,
  summarizeIssues,
  weightedAlertsScore,
} from '../../app/domain/agents/derived'

const now = Date.parse('2025-06-01T12:00:00Z')
const ago = (ms: number) => new Date(now - ms)
const MIN = 60_000

describe('agent derived state', () => {
  test('connected means enabled and seen within the offline delay (5 minutes unless a project sets another)', () => {
    expect(isConnected(true, ago(4 * MIN), now)).toBe(true)
    expect(isConnected(true, ago(5 * MIN), now)).toBe(false) // the offline alarm is due at exactly the delay
    expect(isConnected(true, ago(29 * MIN), now, 30)).toBe(true)
    expect(isConnected(true, ago(11 * MIN), now, 10)).toBe(false)
    expect(isConnected(false, ago(1 * MIN), now)).toBe(false)
    expect(isConnected(true, null, now)).toBe(false)
  })

  test("an agent's offline delay is the shortest of its systems' projects, the default for unassigned ones", () => {
    expect(agentOfflineMinutes([])).toBe(5)
    expect(agentOfflineMinutes([30, 10])).toBe(10)
    expect(agentOfflineMinutes([30, null])).toBe(5)
    expect(agentOfflineMinutes([1440])).toBe(1440)
  })

  test('remote connection state texts', () => {
    expect(remoteConnectionState(false, 'true').state).toBe('Not connected')
    expect(remoteConnectionState(true, 'true').state).toBe('Connected')
    expect(remoteConnectionState(true, 'false').state).toBe('Disabled')
    expect(remoteConnectionState(true, 'null')).toEqual({ state: 'Unavailable', message: 'unable to establish tunnel' })
    expect(remoteConnectionState(true, 'relay refused')).toEqual({ state: 'Unavailable', message: 'relay refused' })
    expect(remoteConnectionState(true, null).state).toBe('Unknown')
  })

  test('packet loss follows the spec formula to one decimal', () => {
    expect(packetLoss({ dataSegsOut: 2000, dsackDups: 10, totalRetrans: 50 })).toBe('2.0%')
    expect(packetLoss({ dataSegsOut: 3000, dsackDups: 0, totalRetrans: 37 })).toBe('1.2%')
    expect(packetLoss({ dataSegsOut: 100, dsackDups: 5, totalRetrans: 1 })).toBe('0.0%')
    expect(packetLoss({ dataSegsOut: 0, dsackDups: 0, totalRetrans: 0 })).toBeNull()
  })

  test('weighted alerts score raises counts to info minus worst severity', () => {
    // 3 critical alerts: 3^(6-2) = 81; 2 notice deviations: 2^(6-5) = 2
    expect(weightedAlertsScore({ alertsCount: 3, alertsSeverity: 2, deviationsCount: 2, deviationsSeverity: 5 })).toBe(83)
    expect(weightedAlertsScore({ alertsCount: 0, alertsSeverity: -1, deviationsCount: 0, deviationsSeverity: -1 })).toBe(0)
    expect(weightedAlertsScore({ alertsCount: 2, alertsSeverity: 4, deviationsCount: 0, deviationsSeverity: -1 })).toBe(4)
    // 5 error alerts: 5^(6-3) = 125; 4 warning deviations: 4^(6-4) = 16
    expect(weightedAlertsScore({ alertsCount: 5, alertsSeverity: 3, deviationsCount: 4, deviationsSeverity: 4 })).toBe(141)
    // info weighs count^0 = 1 however many there are; a critical single alert 1^4 = 1
    expect(weightedAlertsScore({ alertsCount: 7, alertsSeverity: 6, deviationsCount: 1, deviationsSeverity: 2 })).toBe(2)
    // 2 critical alerts (16) outrank 10 warnings (100)? no: 10^2 = 100 > 2^4 = 16, the formula ranks volume too
    expect(weightedAlertsScore({ alertsCount: 10, alertsSeverity: 4, deviationsCount: 0, deviationsSeverity: -1 })).toBe(100)
    expect(weightedAlertsScore({ alertsCount: 2, alertsSeverity: 2, deviationsCount: 0, deviationsSeverity: -1 })).toBe(16)
    // a count without a known severity carries no weight (a severity outside the scale is not guessed at)
    expect(weightedAlertsScore({ alertsCount: 3, alertsSeverity: -1, deviationsCount: 3, deviationsSeverity: 9 })).toBe(0)
  })

  test('issues are active with a count, and for a one-minute hold-down after the device reports them healthy', () => {
    expect(isIssueActive(1, ago(5 * 24 * 60 * MIN), now)).toBe(true)
    expect(isIssueActive(0, ago(59_999), now)).toBe(true)
    expect(isIssueActive(0, ago(MIN), now)).toBe(false)
    expect(isIssueActive(0, ago(5 * MIN), now)).toBe(false) // was active for 15 minutes
    expect(summarizeIssues([{ severity: 4, isActive: true }, { severity: 2, isActive: true }, { severity: 2, isActive: false }, { severity: 5, isActive: true }])).toEqual({ count: 3, severity: 2 })
    expect(summarizeIssues([])).toEqual({ count: 0, severity: -1 })
    expect(severityLabel(-1)).toBe('None')
    expect(severityLabel(3)).toBe('Error')
  })

  test('last-seen buckets', () => {
    expect(lastSeenBucket(ago(30_000), now)).toBe('Now')
    expect(lastSeenBucket(ago(3 * MIN), now)).toBe('< 5 min')
    expect(lastSeenBucket(ago(45 * MIN), now)).toBe('30-60 min')
    expect(lastSeenBucket(ago(2 * 60 * MIN), now)).toBe('1-3 h')
    expect(lastSeenBucket(ago(36 * 60 * MIN), now)).toBe('1-2 d')
    expect(lastSeenBucket(ago(400 * 24 * 60 * MIN), now)).toBe('> 1 year')
    expect(lastSeenBucket(null, now)).toBe('Unknown')
  })
})
