/**
 * Admin > Users (spec 01 sections 2, 3, 7): the user list for site admins and the edit of the
 * Disabled and Admin settings. Site admins only (the admin claim); a cloud.admin grant is not enough.
 */
import { type User } from '@prisma/client'
import { z } from 'zod'
import { type Actor, type UserActor } from '../actor'
import { audit } from '../audit/audit.server'
import { endSessionsOf } from '../auth/session.server'
import { endApiTokensOf } from '../auth/token-ending.server'
import { emitChange } from '../events/bus.server'
import { type EndReason } from '../relay/session-checks.server'
import { accessDenied, invalid, notFound, notLoggedIn } from '../errors'
import { parseInput } from '../parse-input'
import { prisma, parseJson } from '~/utils/db.server'
import { getConfig } from '~/utils/env.server'
import { decodePageToken, encodePageToken } from './keyset-page-token'

/** Spec 01 section 9: the users list loads 25 at a time. */
export const ADMIN_USERS_PAGE_SIZE = 25

export function requireSiteAdminActor(actor: Actor): UserActor {
  if (actor.kind !== 'user') throw notLoggedIn()
  if (!actor.isSiteAdmin) throw accessDenied()
  return actor
}

/** The admin view of a user (spec 01 section 3). */
export type AdminUserView = {
  uid: string
  displayName: string
  email: string
  emailVerified: boolean
  disabled: boolean
  customClaims: { admin?: true; mvr_agent?: true }
  times: { creation: string; lastSignIn: string | null }
}

export function adminUserView(u: User): AdminUserView {
  return {
    uid: u.id,
    displayName: u.name,
    email: u.email,
    emailVerified: u.emailVerified,
    disabled: u.disabled,
    customClaims: { ...(u.isAdmin ? { admin: true as const } : {}), ...(u.isAgent ? { mvr_agent: true as const } : {}) },
    times: { creation: u.createdAt.toISOString(), lastSignIn: u.lastSignInAt?.toISOString() ?? null },
  }
}

/** Only a verified address of the vendor's own domain may hold the admin claim. */
export function mayBeSiteAdmin(user: { email: string; emailVerified: boolean }, vendorDomain = getConfig().VENDOR_EMAIL_DOMAIN): boolean {
  const domain = user.email.slice(user.email.lastIndexOf('@') + 1).toLowerCase()
  return user.emailVerified && domain !== '' && domain === vendorDomain.toLowerCase()
}

export const listUsersInput = z.object({
  limit: z.number().int().min(1).max(100).default(ADMIN_USERS_PAGE_SIZE),
  pageToken: z.string().nullish(),
})

/** admin/users: newest accounts first, agent service accounts hidden. */
export async function listAdminUsers(actor: Actor, raw: unknown): Promise<{ items: AdminUserView[]; nextPageToken: string | null }> {
  requireSiteAdminActor(actor)
  const { limit, pageToken } = parseInput(listUsersInput, raw)
  const after = pageToken ? decodePageToken(pageToken) : null
  const at = after ? new Date(after.k) : null
  if (at && Number.isNaN(at.getTime())) throw invalid('Invalid pageToken', [{ path: 'pageToken', message: 'Invalid pageToken' }])
  const rows = await prisma.user.findMany({
    where: {
      isAgent: false,
      ...(after && at ? { OR: [{ createdAt: { lt: at } }, { createdAt: at, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  })
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  const nextPageToken = rows.length > limit && last ? encodePageToken({ k: last.createdAt.toISOString(), id: last.id }) : null
  return { items: page.map(adminUserView), nextPageToken }
}

export const updateUserInput = z.object({
  uid: z.string().min(1),
  disabled: z.boolean().optional(),
  customClaims: z.object({ admin: z.boolean().optional() }).strict('Only the admin claim can be set here').optional(),
})

/**
 * admin/updateUser: Disabled and Admin. Not on one's own account; the admin claim only for a
 * verified vendor address. Disabling ends every browser session, API token and remote-portal
 * session of the user in the same transaction, so their next request is refused.
 */
export async function updateAdminUser(actor: Actor, raw: unknown): Promise<AdminUserView> {
  const admin = requireSiteAdminActor(actor)
  const input = parseInput(updateUserInput, raw)
  const user = await prisma.user.findUnique({ where: { id: input.uid } })
  if (!user || user.isAgent) throw notFound('User not found')
  const disabled = input.disabled ?? user.disabled
  const isAdmin = input.customClaims?.admin ?? user.isAdmin
  if (disabled === user.disabled && isAdmin === user.isAdmin) return adminUserView(user)
  if (user.id === admin.userId) throw accessDenied('You cannot change the Admin or Disabled setting of your own account')
  if (isAdmin && !user.isAdmin && !mayBeSiteAdmin(user)) {
    throw invalid(`Only a verified e-mail address of ${getConfig().VENDOR_EMAIL_DOMAIN} can be made a site admin`, [
      { path: 'customClaims.admin', message: 'Needs a verified vendor e-mail address' },
    ])
  }
  const label = `${user.name || user.email} (${user.email})`
  const updated = await prisma.$transaction(async (tx) => {
    const row = await tx.user.update({ where: { id: user.id }, data: { disabled, isAdmin } })
    if (disabled && !user.disabled) {
      await endSessionsOf(user.id, 'disabled', tx)
      await endApiTokensOf(user.id, 'disabled', tx)
      await tx.proxySession.updateMany({ where: { userId: user.id, closedAt: null }, data: { closedAt: new Date(), closedReason: 'user-disabled' satisfies EndReason, connectionsActive: 0 } })
      await audit(tx, admin, { action: 'user.disable', message: `Disabled user ${label}; their sessions and API tokens were ended` })
    }
    if (!disabled && user.disabled) {
      // The ended sessions only served to tell the browser why; they never come back.
      await tx.session.deleteMany({ where: { userId: user.id, endedReason: { not: null } } })
      await audit(tx, admin, { action: 'user.enable', message: `Enabled user ${label}` })
    }
    if (isAdmin !== user.isAdmin) {
      await audit(tx, admin, {
        action: isAdmin ? 'user.admin.grant' : 'user.admin.revoke',
        message: isAdmin ? `Made ${label} a site admin` : `Removed the site admin claim of ${label}`,
      })
    }
    return row
  })
  // their rights changed with no organization's event: shared reads holding them are dropped
  emitChange({ organizationId: null, kind: 'member', userId: user.id })
  return adminUserView(updated)
}

export const userAclDataInput = z.object({ userId: z.string().min(1) })

/** admin/userAclData ('Fetch Acl / compiledAcl data'): the user's access rights and compiled ACLs as stored. */
export async function fetchUserAclData(actor: Actor, raw: unknown) {
  requireSiteAdminActor(actor)
  const { userId } = parseInput(userAclDataInput, raw)
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { id: true } })
  if (!user) throw notFound('User not found')
  const [acl, compiled] = await Promise.all([
    prisma.accessRight.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
    prisma.compiledAcl.findMany({ where: { userId } }),
  ])
  return {
    acl: acl.map((a) => ({ id: a.id, organizationId: a.organizationId, userRoleId: a.roleId, resourceId: a.projectId, created: a.createdAt.toISOString() })),
    compiledAcl: compiled.map((c) => ({ organizationId: c.organizationId, projectId: c.projectId, permissions: parseJson<string[]>(c.permissions, []) })),
  }
}
