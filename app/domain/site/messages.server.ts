import { z } from 'zod'
import { type Actor } from '../actor'
import { audit } from '../audit/audit.server'
import { accessDenied, fromZodIssues } from '../errors'
import { emitChange } from '../events/bus.server'
import { prisma } from '~/utils/db.server'
import { SITE_MESSAGE_TYPES } from './site-message-types'


export const siteMessageInput = z
  .object({
    text: z.string().trim().min(1, 'Message text is required').max(500, 'Message text is too long (500 characters at most)'),
    type: z.enum(SITE_MESSAGE_TYPES, { errorMap: () => ({ message: 'Type must be warning, error, info or success' }) }),
    starts: z.coerce.date({ errorMap: () => ({ message: 'Start time is not a valid date' }) }),
    ends: z.coerce.date({ errorMap: () => ({ message: 'End time is not a valid date' }) }),
  })
  .refine((m) => m.ends > m.starts, { path: ['ends'], message: 'The end must be after the start' })

function requireSiteAdmin(actor: Actor) {
  if (actor.kind !== 'user' || !actor.isSiteAdmin) throw accessDenied()
}

/** admin/message: a site-wide banner shown while now lies between starts and ends. */
export async function createSiteMessage(actor: Actor, raw: unknown) {
  requireSiteAdmin(actor)
  const parsed = siteMessageInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const message = await prisma.$transaction(async (tx) => {
    const created = await tx.siteMessage.create({ data: parsed.data })
    await audit(tx, actor, { action: 'site.message.create', message: `Site message added: ${parsed.data.text}` })
    return created
  })
  emitChange({ organizationId: null, kind: 'site' })
  return { id: message.id }
}

/** admin/messagesClear: removes every site message. */
export async function clearSiteMessages(actor: Actor) {
  requireSiteAdmin(actor)
  const removed = await prisma.$transaction(async (tx) => {
    const { count } = await tx.siteMessage.deleteMany({})
    await audit(tx, actor, { action: 'site.message.clear', message: `All site messages removed (${count})` })
    return count
  })
  emitChange({ organizationId: null, kind: 'site' })
  return { removed }
}

export async function listSiteMessages(actor: Actor) {
  requireSiteAdmin(actor)
  return prisma.siteMessage.findMany({ orderBy: { starts: 'desc' } })
}
