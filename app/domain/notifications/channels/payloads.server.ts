import { createHmac, timingSafeEqual } from 'node:crypto'

/**
 * What a channel receives (docs/notification-channels.md). Every message is first one JSON event;
 * a webhook gets it verbatim (signed), Slack and Teams get it rendered in their own formats.
 */

export const CHANNEL_TYPES = ['webhook', 'slack', 'teams'] as const
export type ChannelType = (typeof CHANNEL_TYPES)[number]
export const CHANNEL_TYPE_LABELS: Record<ChannelType, string> = { webhook: 'Webhook', slack: 'Slack', teams: 'Microsoft Teams' }

export type ChannelEvent = {
  id: string
  /**
   * issue.active: an alert or deviation became active or escalated; issue.resolved: it cleared;
   * issue.repeat: it is still active (the subscription's repeat interval); rootCause.active: a
   * cause and what it explains; test
   */
  type: 'issue.active' | 'issue.resolved' | 'issue.repeat' | 'rootCause.active' | 'test'
  createdAt: string
  organization: { id: string; name: string }
  project?: { id: string; path: string }
  agent?: { id: string; name: string }
  system?: { id: string; name: string }
  issue?: { id: string; kind: string; key: string; component: string; severity: number; severityLabel: string; message: string; escalated?: boolean }
  rootCause?: { explainedIssues: number; affectedDevices: number; issues: { id: string; key: string; component: string; severityLabel: string; message: string }[] }
  /** resolved and repeat messages: how long the activation was (is) active, e.g. '4 h 5 min'; which repeat */
  followUp?: { activeFor: string; repeat?: number }
  /** one line a person reads, e.g. 'Critical alert on Arena processor: no signal on SDI 1' */
  summary: string
  link: string
}

export const SIGNATURE_HEADER = 'X-Pixelfleet-Signature'
export const TIMESTAMP_HEADER = 'X-Pixelfleet-Timestamp'

/**
 * sha256=<hex HMAC-SHA256 of "<timestamp>.<raw body>"> with the channel's secret. The timestamp
 * (unix seconds) is signed too, so a receiver refusing old timestamps defeats replays.
 */
export function signBody(secret: string, timestamp: number, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`
}

/** What a receiver does: recompute, compare in constant time, refuse stale timestamps (default 5 min). */
export function verifySignature(secret: string, headers: { signature: string | null; timestamp: string | null }, rawBody: string, nowMs = Date.now(), toleranceS = 300): boolean {
  const t = Number(headers.timestamp)
  if (!headers.signature || !Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceS) return false
  const expected = Buffer.from(signBody(secret, t, rawBody))
  const given = Buffer.from(headers.signature)
  return expected.length === given.length && timingSafeEqual(expected, given)
}

const facts = (event: ChannelEvent): [string, string][] =>
  (
    [
      ['Organization', event.organization.name],
      ['Project', event.project?.path],
      ['Agent', event.agent?.name],
      ['System', event.system?.name],
      ['Component', event.issue?.component],
      ['Severity', event.issue?.severityLabel],
      ['Active for', event.followUp?.activeFor],
      ['Affected', event.rootCause ? `${event.rootCause.explainedIssues} issues on ${event.rootCause.affectedDevices} devices` : undefined],
    ] as [string, string | undefined][]
  ).filter((f): f is [string, string] => Boolean(f[1]))

const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Slack incoming webhook: `text` (fallback and notifications) plus Block Kit sections. */
export function slackMessage(event: ChannelEvent) {
  const lines = facts(event).map(([name, value]) => `*${name}:* ${slackEscape(value)}`)
  const explained = event.rootCause?.issues.slice(0, 10).map((i) => `• ${slackEscape(`${i.severityLabel} ${i.component}: ${i.message}`)}`) ?? []
  return {
    text: event.summary,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(event.summary)}*` } },
      { type: 'section', text: { type: 'mrkdwn', text: lines.join('\n') || ' ' } },
      ...(explained.length ? [{ type: 'section', text: { type: 'mrkdwn', text: `*Explains:*\n${explained.join('\n')}` } }] : []),
      { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open in Pixelfleet' }, url: event.link }] },
    ],
  }
}

/** Microsoft Teams incoming webhook (Workflows and connectors): one Adaptive Card attachment. */
export function teamsMessage(event: ChannelEvent) {
  const explained = event.rootCause?.issues.slice(0, 10) ?? []
  return {
    type: 'message',
    summary: event.summary,
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: event.summary, weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'FactSet', facts: facts(event).map(([title, value]) => ({ title, value })) },
            ...(explained.length
              ? [{ type: 'TextBlock', text: explained.map((i) => `- ${i.severityLabel} ${i.component}: ${i.message}`).join('\n'), wrap: true }]
              : []),
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open in Pixelfleet', url: event.link }],
        },
      },
    ],
  }
}

/** The raw body sent to a channel of `type`. */
export function renderBody(type: string, event: ChannelEvent): string {
  if (type === 'slack') return JSON.stringify(slackMessage(event))
  if (type === 'teams') return JSON.stringify(teamsMessage(event))
  return JSON.stringify(event)
}
