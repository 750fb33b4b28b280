import { z } from 'zod'

/** A show or maintenance window as every window call answers it. */
const windowRow = z.object({
  id: z.string(),
  projectId: z.string(),
  kind: z.enum(['maintenance', 'show']),
  name: z.string(),
  recurrence: z.enum(['once', 'weekly']),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  weekdays: z.array(z.number()),
  startTime: z.string(),
  endTime: z.string(),
  timeZone: z.string(),
  severities: z.array(z.number()),
  createdBy: z.string(),
  activeUntil: z.string().nullable(),
  next: z.object({ start: z.string(), end: z.string() }).nullable(),
})

/** An issue as the issue list shows it (issue/get adds its activation and times). */
const issueRow = z.object({
  canManage: z.boolean(),
  id: z.string(),
  kind: z.string(),
  key: z.string(),
  severity: z.number(),
  component: z.string(),
  message: z.string(),
  count: z.number(),
  latestAt: z.string(),
  isActive: z.boolean(),
  acknowledged: z.boolean(),
  acknowledgedBy: z.string(),
  acknowledgedAt: z.string().nullable(),
  clearedBy: z.string(),
  comments: z.number(),
  muted: z.boolean(),
  systemId: z.string(),
  system: z.string(),
  agentId: z.string(),
  agent: z.string(),
})

const windowAnswer = z.object({ window: windowRow })

/** What each call of ../alarms.server.ts answers (JSON: times are ISO strings). */
export const alarmsOutputs = {
  'issue/list': z.object({
    issues: z.array(issueRow),
    page: z.number(),
    pageCount: z.number(),
    pageSize: z.number(),
    total: z.number(),
  }),
  'issue/get': z.object({
    issue: issueRow.extend({
      deviceKey: z.string().nullable(),
      activation: z.number(),
      createdAt: z.string(),
      clearedAt: z.string().nullable(),
    }),
    history: z.array(z.object({ timestamp: z.string(), count: z.number() })),
    comments: z.array(z.object({ createdAt: z.string(), id: z.string(), kind: z.string(), authorName: z.string(), text: z.string() })),
    notifications: z.record(z.number()),
    capabilities: z.object({ canManage: z.boolean() }),
  }),
  'issue/acknowledge': z.object({ issueId: z.string(), acknowledgedAt: z.string() }),
  'issue/unacknowledge': z.object({ issueId: z.string(), unacknowledgedAt: z.string() }),
  'issue/comment': z.object({ commentId: z.string() }),
  'issue/clear': z.object({ issueId: z.string(), clearedAt: z.string() }),
  'project/offlineAlarmGet': z.object({ minutes: z.number() }),
  'project/offlineAlarmUpdate': z.object({ projectId: z.string(), minutes: z.number(), previous: z.number() }),
  'project/windowList': z.object({
    windows: z.array(
      windowRow.extend({ inherited: z.boolean() })
    ),
    canManage: z.boolean(),
  }),
  'project/windowCreate': windowAnswer,
  'project/windowUpdate': windowAnswer,
  'project/windowDelete': z.object({ deleted: z.string() }),
}
