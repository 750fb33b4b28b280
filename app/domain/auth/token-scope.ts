/**
 * What an API token may do: its scope narrows the actor built from it (app/domain/actor.ts), and
 * the permission engine (app/domain/access) checks every call against it. Shared with the UI.
 */
import { ALL_PERMISSIONS, isPermission, type Permission } from '../access/catalogue'
import { DomainError } from '../errors'

export const TOKEN_SCOPES = ['full', 'read', 'custom'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]

/** Expiry choices in days; null = never. */
export const TOKEN_EXPIRY_DAYS = [1, 7, 30, 90] as const

/** The view and list permissions: everything a read-only token may do. */
export const READ_ONLY_PERMISSIONS: Permission[] = ALL_PERMISSIONS.filter((p) => /\.(view|list)$/.test(p))

/** A service token never gets these, whatever its scope: they are an owner's or staff's decisions. */
export const SERVICE_TOKEN_EXCLUDED: Permission[] = ['cloud.admin', 'org.create', 'org.delete', 'org.transfer']

/**
 * The grant an actor carries when it authenticated with an API token. `permissions` null = the
 * owner's own rights (a full personal token); otherwise the token may use only these.
 */
export type TokenGrant = {
  id: string
  name: string
  scope: TokenScope
  permissions: readonly Permission[] | null
  /** set for an organization service token: it acts only in this organization */
  organizationId: string | null
}

export function parseGrantPermissions(scope: string, json: string): readonly Permission[] | null {
  if (scope === 'read') return READ_ONLY_PERMISSIONS
  if (scope !== 'custom') return null
  try {
    const list: unknown = JSON.parse(json)
    return Array.isArray(list) ? list.filter((p): p is Permission => typeof p === 'string' && isPermission(p)) : []
  } catch {
    return []
  }
}

/** May a request made with this grant use `permission` (before the person's own rights are checked)? */
export function grantAllows(grant: TokenGrant | null | undefined, permission: Permission): boolean {
  if (!grant || grant.permissions === null) return true
  return grant.permissions.includes(permission)
}

/** A token limited to a list of permissions (read-only or custom) may not change the account itself. */
export const grantIsLimited = (grant: TokenGrant | null | undefined) => Boolean(grant && grant.permissions !== null)

export function describeScope(scope: string, permissions: readonly string[]): string {
  if (scope === 'read') return 'Read-only'
  if (scope === 'custom') return permissions.length === 1 ? '1 permission' : `${permissions.length} permissions`
  return 'Full access'
}

/**
 * Changes to the account itself (profile, password, tokens, subscriptions, joining or leaving or
 * creating organizations) are no catalogue permission: a limited token may make none of them.
 */
export function requireAccountWrite(actor: { kind: string; token?: TokenGrant }) {
  if (actor.kind === 'user' && grantIsLimited(actor.token)) {
    const what = actor.token!.scope === 'read' ? 'read-only' : 'limited to its permissions'
    throw new DomainError('permission-denied', `The API token "${actor.token!.name}" is ${what}: it cannot change the account`, 403)
  }
}
