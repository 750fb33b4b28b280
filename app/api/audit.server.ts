import { auditListInput, listAuditRecords } from '~/domain/audit/activity.server'
import { defineCall, type ApiCalls } from './registry.server'

/** Audit (Activity) reads: paged by cursor, newest first. */
export const auditCalls: ApiCalls = {
  'organization/auditList': defineCall({ input: auditListInput, handler: ({ actor }, input) => listAuditRecords(actor, input) }),
}
