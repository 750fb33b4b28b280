import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { invalid, notFound } from '../errors'
import { parseInput } from '../parse-input'
import { SAVED_VIEW_PARAMS, savedViewQuery } from './saved-view-query'
import { prisma } from '~/utils/db.server'
import { byName } from '~/utils/name-order'

/** Views one person keeps per organization: a menu, not a library. */
export const SAVED_VIEWS_MAX = 50
const NAME_MAX = 60

export type SavedViewItem = { id: string; name: string; query: string; updated: Date }

export const saveViewInput = z.object({
  name: z
    .string({ required_error: 'Name is required', invalid_type_error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters`),
  query: z.string({ invalid_type_error: 'The view must be URL parameters' }).max(8000, 'The view is too long').default(''),
})

/** Saved views belong to a person: API tokens and agents have none. */
function requirePerson(actor: Actor): UserActor {
  if (actor.kind !== 'user' || actor.token) throw invalid('Only people signed in to the console can save views')
  return actor
}

/** The actor may see the organization's agents list, the only table views are saved for. */
async function requireAgentList(actor: Actor, organizationId: string) {
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('agent.list')
}

/** The actor's saved views of the organization's agents table, by name. */
export async function listSavedViews(actor: Actor, organizationId: string): Promise<SavedViewItem[]> {
  const person = requirePerson(actor)
  await requireAgentList(actor, organizationId)
  const rows = (await prisma.savedView.findMany({ where: { userId: person.userId, organizationId } })).sort(byName)
  return rows.map((r) => ({ id: r.id, name: r.name, query: r.query, updated: r.updatedAt }))
}

/**
 * Saves the table state under a name; saving under an existing name replaces that view. Only the
 * table-state parameters are kept (page, expanded rows and anything else are dropped).
 */
export async function saveView(actor: Actor, organizationId: string, raw: unknown): Promise<SavedViewItem> {
  const person = requirePerson(actor)
  await requireAgentList(actor, organizationId)
  const input = parseInput(saveViewInput, raw)
  const query = savedViewQuery(input.query)
  if (!query) throw invalid(`A view needs at least one of ${SAVED_VIEW_PARAMS.join(', ')}: filter, sort or hide columns first`, [{ path: 'query', message: 'Nothing to save' }])
  const row = await prisma.$transaction(async (tx) => {
    const key = { userId_organizationId_name: { userId: person.userId, organizationId, name: input.name } }
    const existing = await tx.savedView.findUnique({ where: key })
    if (!existing && (await tx.savedView.count({ where: { userId: person.userId, organizationId } })) >= SAVED_VIEWS_MAX) {
      throw invalid(`You can keep at most ${SAVED_VIEWS_MAX} saved views here; delete one first`)
    }
    const saved = await tx.savedView.upsert({ where: key, create: { userId: person.userId, organizationId, name: input.name, query }, update: { query } })
    await audit(tx, actor, { organizationId, action: existing ? 'savedView.update' : 'savedView.create', message: `Saved view '${input.name}' of the agents list ${existing ? 'updated' : 'created'}` })
    return saved
  })
  return { id: row.id, name: row.name, query: row.query, updated: row.updatedAt }
}

/** Deletes one of the actor's own saved views (another person's is not found). */
export async function deleteSavedView(actor: Actor, organizationId: string, id: string): Promise<{ id: string }> {
  const person = requirePerson(actor)
  await requireAgentList(actor, organizationId)
  await prisma.$transaction(async (tx) => {
    const view = await tx.savedView.findFirst({ where: { id, userId: person.userId, organizationId } })
    if (!view) throw notFound('Saved view not found')
    await tx.savedView.delete({ where: { id: view.id } })
    await audit(tx, actor, { organizationId, action: 'savedView.delete', message: `Saved view '${view.name}' of the agents list deleted` })
  })
  return { id }
}
