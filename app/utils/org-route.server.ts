import { requireOrganizationPermission } from '~/domain/access/access.server'
import { type Permission } from '~/domain/access/catalogue'
import { requireUser } from './auth.server'
import { domainCall } from './errors.server'

/** Loader/action guard for organization pages: signed in, a member, and holding `permission`. */
export async function requireOrgPermission(request: Request, organizationId: string | undefined, permission: Permission, projectId?: string | null) {
  const { actor, user } = await requireUser(request)
  const access = await domainCall(() => requireOrganizationPermission(actor, organizationId ?? '', permission, projectId))
  return { actor, user, access }
}
