import { z } from 'zod'
import { acknowledgeIssue, clearIssue, commentIssue, getIssue, listAgentIssues, listProjectIssues, unacknowledgeIssue } from '~/domain/alarms/lifecycle.server'
import { getOfflineDelay, offlineDelayInput, updateOfflineDelay } from '~/domain/alarms/offline.server'
import { DEFAULT_ISSUE_STATE, ISSUE_STATE_FILTERS } from '~/domain/alarms/state'
import { createWindow, deleteWindow, listWindows, updateWindow, windowInput } from '~/domain/alarms/windows.server'
import { defineCall, type ApiCalls } from './registry.server'
import { alarmsOutputs } from './outputs/alarms'

const organizationId = z.string({ required_error: 'Organization is required' }).min(1, 'Organization is required')
const projectId = z.string({ required_error: 'Project is required' }).min(1, 'Project is required')
const issueId = z.string({ required_error: 'Issue is required' }).min(1, 'Issue is required')
const windowId = z.string({ required_error: 'Window is required' }).min(1, 'Window is required')
const state = z.enum(ISSUE_STATE_FILTERS).default(DEFAULT_ISSUE_STATE)
const page = z.number().int().min(1).default(1)

/** Alarm lifecycle, offline alarm and show/maintenance windows (issue 13); the domain checks every permission. */
export const alarmCalls: ApiCalls = {
  'issue/list': defineCall({
    // a project's issues or an agent's (projectId wins when both are given); one object, not a
    // union, so an unknown field is named in the error rather than lost in "Invalid input"
    input: z
      .object({ organizationId, projectId: projectId.optional(), agentId: z.string().min(1).optional(), state, page })
      .refine((i) => i.projectId || i.agentId, { path: ['projectId'], message: 'Project is required' }),
    output: alarmsOutputs['issue/list'],
    handler: ({ actor }, input) =>
      input.projectId
        ? listProjectIssues(actor, input.organizationId, input.projectId, input.state, input.page)
        : listAgentIssues(actor, input.organizationId, input.agentId ?? '', input.state, input.page),
  }),
  'issue/get': defineCall({
    input: z.object({ organizationId, issueId }),
    output: alarmsOutputs['issue/get'],
    handler: ({ actor }, input) => getIssue(actor, input.organizationId, input.issueId),
  }),
  'issue/acknowledge': defineCall({
    input: z.object({ organizationId, issueId, comment: z.string().optional() }),
    output: alarmsOutputs['issue/acknowledge'],
    handler: ({ actor }, input) => acknowledgeIssue(actor, input.organizationId, input.issueId, { comment: input.comment }),
  }),
  'issue/unacknowledge': defineCall({
    input: z.object({ organizationId, issueId, comment: z.string().optional() }),
    output: alarmsOutputs['issue/unacknowledge'],
    handler: ({ actor }, input) => unacknowledgeIssue(actor, input.organizationId, input.issueId, { comment: input.comment }),
  }),
  'issue/comment': defineCall({
    input: z.object({ organizationId, issueId, text: z.string() }),
    output: alarmsOutputs['issue/comment'],
    handler: ({ actor }, input) => commentIssue(actor, input.organizationId, input.issueId, { text: input.text }),
  }),
  'issue/clear': defineCall({
    input: z.object({ organizationId, issueId, comment: z.string().optional() }),
    output: alarmsOutputs['issue/clear'],
    handler: ({ actor }, input) => clearIssue(actor, input.organizationId, input.issueId, { comment: input.comment }),
  }),
  'project/offlineAlarmGet': defineCall({
    input: z.object({ organizationId, projectId }),
    output: alarmsOutputs['project/offlineAlarmGet'],
    handler: ({ actor }, input) => getOfflineDelay(actor, input.organizationId, input.projectId),
  }),
  'project/offlineAlarmUpdate': defineCall({
    input: offlineDelayInput.extend({ organizationId, projectId }),
    output: alarmsOutputs['project/offlineAlarmUpdate'],
    handler: ({ actor }, input) => updateOfflineDelay(actor, input.organizationId, input.projectId, { minutes: input.minutes }),
  }),
  'project/windowList': defineCall({
    input: z.object({ organizationId, projectId }),
    output: alarmsOutputs['project/windowList'],
    handler: ({ actor }, input) => listWindows(actor, input.organizationId, input.projectId),
  }),
  'project/windowCreate': defineCall({
    input: z.object({ organizationId, projectId, window: windowInput }),
    payloadField: 'window',
    output: alarmsOutputs['project/windowCreate'],
    handler: ({ actor }, input) => createWindow(actor, input.organizationId, input.projectId, input.window),
  }),
  'project/windowUpdate': defineCall({
    input: z.object({ organizationId, windowId, window: windowInput }),
    payloadField: 'window',
    output: alarmsOutputs['project/windowUpdate'],
    handler: ({ actor }, input) => updateWindow(actor, input.organizationId, input.windowId, input.window),
  }),
  'project/windowDelete': defineCall({
    input: z.object({ organizationId, windowId }),
    output: alarmsOutputs['project/windowDelete'],
    handler: ({ actor }, input) => deleteWindow(actor, input.organizationId, input.windowId),
  }),
}
