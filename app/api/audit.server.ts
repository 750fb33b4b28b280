import { auditListInput, listAuditRecords } from '~/domain/audit/activity.server'
import { defineCall, type ApiCalls } from './registry.server'
import { auditOutputs } from './outputs/audit'

/** Audit (Activity) reads: paged by cursor, newest first. */
export const auditCalls: ApiCalls = {
  'organization/auditList': defineCall({ input: auditListInput, output: auditOutputs['organization/auditList'], handler: ({ actor }, input) => listAuditRecords(actor, input) }),
}
