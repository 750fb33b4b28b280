import { actorLabel, type Actor } from '../actor'
import { prisma } from '~/utils/db.server'

/**
 * Every /client/v1 call made with an API token leaves an audit record naming the token (issue 16),
 * reads included, so the owner of a leaked or misused token can see what it did. Changes also write
 * their own records inside their transaction; this one says which call answered what. The record
 * belongs to the person (organizationId null): a script polling every few seconds must not flood an
 * organization's Activity log or wake its live views.
 */
export async function recordTokenCall(actor: Actor | null, call: string, status: number) {
  if (actor?.kind !== 'user' || !actor.token) return
  await prisma.auditRecord.create({
    data: {
      organizationId: null,
      projectId: null,
      userId: actor.userId,
      userName: actorLabel(actor),
      ip: actor.ip,
      action: 'api.call',
      message: `${call} answered ${status}`,
    },
  })
}
