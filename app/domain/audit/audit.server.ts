import { type Actor, actorLabel } from '../actor'
import type { Tx } from '~/utils/db.server'
import { emitChange } from '../events/bus.server'

export type AuditEntry = {
  organizationId?: string | null
  projectId?: string | null
  /** machine-readable kind, e.g. 'project.create' */
  action: string
  /** the sentence people read in the Activity log */
  message: string
}

/** Writes an audit record inside the caller's transaction: every change a person makes is audited. */
export async function audit(tx: Tx, actor: Actor, entry: AuditEntry) {
  await tx.auditRecord.create({
    data: {
      organizationId: entry.organizationId ?? null,
      projectId: entry.projectId ?? null,
      userId: actor.kind === 'user' ? actor.userId : null,
      userName: actorLabel(actor),
      ip: actor.kind === 'system' ? '' : actor.ip,
      action: entry.action,
      message: entry.message,
    },
  })
  if (entry.organizationId) emitChange({ organizationId: entry.organizationId, kind: 'audit' })
}
