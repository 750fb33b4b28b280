import { type Actor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { readMemberOrganizations } from '../access/access-lookup.server'
import { type OrganizationCapabilities } from '../access/catalogue'
import { prisma } from '~/utils/db.server'
import { memoIfScoped } from '~/utils/request-scope.server'
import { byName } from '~/utils/name-order'

/** Organizations the actor belongs to: owner, or holder of any access right (compiled ACL). */
export async function memberOrganizationIds(actor: Actor): Promise<string[]> {
  if (actor.kind !== 'user') return []
  const [owned, acl] = await Promise.all([
    prisma.organization.findMany({ where: { ownerId: actor.userId }, select: { id: true } }),
    prisma.compiledAcl.findMany({ where: { userId: actor.userId }, select: { organizationId: true }, distinct: ['organizationId'] }),
  ])
  return [...new Set([...owned.map((o) => o.id), ...acl.map((a) => a.organizationId)])]
}

export async function listMemberOrganizations(actor: Actor) {
  return memoIfScoped(actor, 'member-organizations', async () => {
    // every signed-in page's sidebar: one prepared statement on SQLite
    const fast = actor.kind === 'user' ? await readMemberOrganizations(actor.userId) : null
    if (fast) return fast.sort(byName)
    const ids = await memberOrganizationIds(actor)
    return (await prisma.organization.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } })).sort(byName)
  })
}

/**
 * The sidebar's active organization: the route, the last visited, the profile default, the first.
 * Returns its capabilities so the sidebar shows only permitted items.
 */
export async function resolveActiveOrganization(
  actor: Actor,
  routeOrganizationId: string | undefined,
  profile: { lastOrganizationId: string | null; preferenceDefaultOrg: string | null },
): Promise<{ organizations: { id: string; name: string }[]; active: { id: string; name: string; capabilities: OrganizationCapabilities } | null }> {
  const organizations = await listMemberOrganizations(actor)
  const ids = new Set(organizations.map((o) => o.id))
  const candidates = [routeOrganizationId, profile.lastOrganizationId, profile.preferenceDefaultOrg, organizations[0]?.id]
  const activeId = candidates.find((id) => id && (ids.has(id) || (id === routeOrganizationId && actor.kind === 'user' && actor.isSiteAdmin)))
  if (!activeId) return { organizations, active: null }
  try {
    const access = await getOrganizationAccess(actor, activeId)
    return { organizations, active: { id: activeId, name: access.organization.name, capabilities: access.capabilities() } }
  } catch {
    return { organizations, active: null }
  }
}

/** Remembers the organization the user last visited (sidebar resolution). */
export async function rememberLastOrganization(actor: Actor, organizationId: string) {
  if (actor.kind !== 'user') return
  // NULL-safe: in SQL `NOT (col = x)` is NULL, not true, when col is NULL, so a plain NOT never wrote the first visit.
  await prisma.user.updateMany({
    where: { id: actor.userId, OR: [{ lastOrganizationId: null }, { lastOrganizationId: { not: organizationId } }] },
    data: { lastOrganizationId: organizationId },
  })
}
