import { type Actor } from '../actor'
import { requireOrganizationPermission } from '../access/access.server'
import { ALL_PERMISSIONS, type Permission } from '../access/catalogue'
import { audit } from '../audit/audit.server'
import { DomainError, invalid, notFound } from '../errors'
import { parseInput } from '../parse-input'
import { randomToken } from './crypto.server'
import { MAX_ACTIVE_TOKENS, newTokenSecret, summarySelect, type ApiTokenSummary, type CreatedApiToken } from './api-tokens.server'
import { tokenSpecInput } from './token-input'
import { READ_ONLY_PERMISSIONS, requireAccountWrite, SERVICE_TOKEN_EXCLUDED } from './token-scope'
import { prisma, parseJson } from '~/utils/db.server'

/**
 * Organization service tokens (CI): they belong to the organization, not to a person. Each one
 * has its own hidden service account (an isAgent user, which cannot sign in or be a member), so
 * it keeps working when its creator leaves; it acts only in its organization, with the fixed list
 * of permissions chosen at creation. Managing them needs org.update (Organization Admin, owner).
 */
export const SERVICE_TOKEN_PERMISSION: Permission = 'org.update'
/** The service account's name: audit entries read "Service account via token <name>". */
const SERVICE_ACCOUNT_NAME = 'Service account'

export type ServiceTokenSummary = ApiTokenSummary & { createdByName: string | null }

const serviceSelect = { ...summarySelect, createdByName: true } as const
const toServiceSummary = (row: { permissions: string } & Omit<ServiceTokenSummary, 'permissions'>): ServiceTokenSummary => ({
  ...row,
  permissions: parseJson<string[]>(row.permissions, []),
})

export async function listServiceTokens(actor: Actor, organizationId: string): Promise<ServiceTokenSummary[]> {
  await requireOrganizationPermission(actor, organizationId, SERVICE_TOKEN_PERMISSION)
  const rows = await prisma.apiToken.findMany({
    where: { organizationId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
    select: serviceSelect,
    orderBy: { createdAt: 'desc' },
  })
  return rows.map(toServiceSummary)
}

/**
 * Creates a service token. Its permissions are fixed now: read-only = the view and list
 * permissions, full = every organization permission, custom = the list; always only those the
 * creator holds organization-wide (nobody mints more than they have), never owner-only ones.
 */
export async function createServiceToken(actor: Actor, organizationId: string, raw: unknown): Promise<CreatedApiToken & { createdByName: string | null }> {
  requireAccountWrite(actor)
  const access = await requireOrganizationPermission(actor, organizationId, SERVICE_TOKEN_PERMISSION)
  const spec = parseInput(tokenSpecInput, raw)
  const grantable = (p: Permission) => !SERVICE_TOKEN_EXCLUDED.includes(p) && access.can(p)
  let permissions: Permission[]
  if (spec.scope === 'custom') {
    const refused = spec.permissions.filter((p) => !grantable(p))
    if (refused.length) {
      throw invalid(`A service token cannot have ${refused.join(', ')}: you do not hold it organization-wide, or it is reserved to the owner`, [{ path: 'permissions', message: 'Not grantable' }])
    }
    permissions = spec.permissions
  } else {
    permissions = (spec.scope === 'read' ? READ_ONLY_PERMISSIONS : ALL_PERMISSIONS).filter(grantable)
  }
  const active = await prisma.apiToken.count({ where: { organizationId, revokedAt: null } })
  if (active >= MAX_ACTIVE_TOKENS) {
    throw new DomainError('resource-exhausted', `This organization already has ${MAX_ACTIVE_TOKENS} service tokens. Revoke one first.`, 429)
  }
  const { token, tokenHash, prefix } = newTokenSecret()
  const createdByName = actor.kind === 'user' ? actor.name || actor.email : null
  const row = await prisma.$transaction(async (tx) => {
    const account = await tx.user.create({
      data: { email: `service-${randomToken(9).toLowerCase()}@service-token.invalid`, name: SERVICE_ACCOUNT_NAME, isAgent: true, provider: 'service' },
      select: { id: true },
    })
    const created = await tx.apiToken.create({
      data: { userId: account.id, organizationId, name: spec.name, tokenHash, prefix, scope: spec.scope, permissions: JSON.stringify(permissions), expiresAt: spec.expiresAt, createdByName },
      select: serviceSelect,
    })
    await audit(tx, actor, { organizationId, action: 'serviceToken.create', message: `Service token "${spec.name}" created (${spec.scope === 'read' ? 'read-only' : spec.scope})` })
    return created
  })
  return { ...toServiceSummary(row), token }
}

export async function revokeServiceToken(actor: Actor, organizationId: string, id: string) {
  requireAccountWrite(actor)
  await requireOrganizationPermission(actor, organizationId, SERVICE_TOKEN_PERMISSION)
  await prisma.$transaction(async (tx) => {
    const token = await tx.apiToken.findFirst({ where: { id, organizationId, revokedAt: null }, select: { name: true } })
    if (!token) throw notFound('Service token not found')
    await tx.apiToken.update({ where: { id }, data: { revokedAt: new Date(), revokedReason: 'revoked' } })
    await audit(tx, actor, { organizationId, action: 'serviceToken.revoke', message: `Service token "${token.name}" revoked` })
  })
  return { revoked: true }
}
