import { fastAll } from '~/utils/fast-read.server'

export type AccessRows = {
  organization: { id: string; name: string; ownerId: string } | null
  /** the user's compiled ACL rows anywhere holding cloud.admin (a global grant) */
  cloudAdminRows: { permissions: string }[]
  acls: { projectId: string; permissions: string }[]
  projects: { id: string; parentId: string | null }[]
}

const ORGANIZATION = `SELECT "id", "name", "ownerId" FROM "Organization" WHERE "id" = ?`
// LIKE narrows to rows naming the permission; the caller still parses the JSON to be exact
const CLOUD_ADMIN = `SELECT "permissions" FROM "CompiledAcl" WHERE "userId" = ? AND "permissions" LIKE '%"cloud.admin"%'`
const ACLS = `SELECT "projectId", "permissions" FROM "CompiledAcl" WHERE "userId" = ? AND "organizationId" = ?`
const PROJECTS = `SELECT "id", "parentId" FROM "Project" WHERE "organizationId" = ?`

/**
 * What loading one user's access to one organization reads, as prepared statements on SQLite
 * (every page loads it; see app/utils/fast-read.server.ts). null: no fast path, use Prisma.
 */
export async function readAccessRows(userId: string | null, organizationId: string): Promise<AccessRows | null> {
  const organization = await fastAll<AccessRows['organization'] & object>(ORGANIZATION, organizationId)
  if (!organization) return null
  const [cloudAdminRows, acls, projects] = await Promise.all([
    userId ? fastAll<{ permissions: string }>(CLOUD_ADMIN, userId) : [],
    userId ? fastAll<{ projectId: string; permissions: string }>(ACLS, userId, organizationId) : [],
    fastAll<{ id: string; parentId: string | null }>(PROJECTS, organizationId),
  ])
  return { organization: organization[0] ?? null, cloudAdminRows: cloudAdminRows ?? [], acls: acls ?? [], projects: projects ?? [] }
}

const MEMBER_ORGANIZATIONS = `SELECT "id", "name" FROM "Organization"
  WHERE "ownerId" = ? OR "id" IN (SELECT "organizationId" FROM "CompiledAcl" WHERE "userId" = ?) ORDER BY "name" ASC`

/** Organizations a user owns or holds a right in, by name; null: no fast path. */
export async function readMemberOrganizations(userId: string): Promise<{ id: string; name: string }[] | null> {
  return fastAll<{ id: string; name: string }>(MEMBER_ORGANIZATIONS, userId, userId)
}
