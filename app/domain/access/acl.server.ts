import { prisma, parseJson, type Tx } from '~/utils/db.server'
import { isPermission, type Permission } from './catalogue'

/** Organization-scoped compiled ACL rows use this project id. */
export const ORG_SCOPE = '*'

/**
 * Recompiles one user's ACLs (optionally only in one organization) from their access rights.
 * Call it inside the same transaction as the change to access rights or roles.
 */
export async function compileUserAcls(tx: Tx, userId: string, organizationId?: string) {
  const rights = await tx.accessRight.findMany({
    where: { userId, ...(organizationId ? { organizationId } : {}) },
    include: { role: { select: { permissions: true } } },
  })
  const compiled = new Map<string, { organizationId: string; projectId: string; permissions: Set<string> }>()
  for (const right of rights) {
    const projectId = right.projectId ?? ORG_SCOPE
    const key = `${right.organizationId}/${projectId}`
    const entry = compiled.get(key) ?? { organizationId: right.organizationId, projectId, permissions: new Set<string>() }
    for (const p of parseJson<string[]>(right.role.permissions, [])) if (isPermission(p)) entry.permissions.add(p)
    compiled.set(key, entry)
  }
  await tx.compiledAcl.deleteMany({ where: { userId, ...(organizationId ? { organizationId } : {}) } })
  if (compiled.size > 0) {
    await tx.compiledAcl.createMany({
      data: [...compiled.values()].map((c) => ({
        userId,
        organizationId: c.organizationId,
        projectId: c.projectId,
        permissions: JSON.stringify([...c.permissions].sort()),
      })),
    })
  }
}

/** Recompiles every user holding a role (after the role's permissions changed). */
export async function compileRoleHolders(tx: Tx, roleId: string) {
  const holders = await tx.accessRight.findMany({ where: { roleId }, select: { userId: true }, distinct: ['userId'] })
  for (const { userId } of holders) await compileUserAcls(tx, userId)
}

/** Recompiles the ACLs of all users ('Recompile ACLs'). Returns how many users were compiled. */
export async function compileAllAcls(tx: Tx): Promise<number> {
  const users = await tx.accessRight.findMany({ select: { userId: true }, distinct: ['userId'] })
  const orphaned = await tx.compiledAcl.findMany({
    // a relation filter, not the holders' ids: a large site's users would exceed the bound parameters
    where: { user: { accessRights: { none: {} } } },
    select: { userId: true },
    distinct: ['userId'],
  })
  for (const { userId } of orphaned) await tx.compiledAcl.deleteMany({ where: { userId } })
  for (const { userId } of users) await compileUserAcls(tx, userId)
  return users.length
}

/**
 * Compares stored compiled ACLs with what the access rights would compile to
 * ('Validate Compiled ACLs for User'). 'ok' or a list of differences.
 */
export async function validateUserAcls(userId: string): Promise<{ status: 'ok' | 'mismatch'; differences: string[] }> {
  const differences: string[] = []
  await prisma
    .$transaction(async (tx) => {
      const before = await tx.compiledAcl.findMany({ where: { userId } })
      await compileUserAcls(tx, userId)
      const after = await tx.compiledAcl.findMany({ where: { userId } })
      const key = (r: { organizationId: string; projectId: string }) => `${r.organizationId}/${r.projectId}`
      const beforeMap = new Map(before.map((r) => [key(r), r.permissions]))
      for (const row of after) {
        if (beforeMap.get(key(row)) !== row.permissions) differences.push(`missing or stale: ${key(row)}`)
        beforeMap.delete(key(row))
      }
      for (const k of beforeMap.keys()) differences.push(`unexpected: ${k}`)
      throw new RollbackValidation()
    })
    .catch((e) => {
      if (!(e instanceof RollbackValidation)) throw e
    })
  return { status: differences.length === 0 ? 'ok' : 'mismatch', differences }
}
class RollbackValidation extends Error {}

/** The compiled permissions of one user in one organization, keyed by project id or ORG_SCOPE. */
export async function loadCompiledAcls(db: Tx | typeof prisma, userId: string, organizationId: string) {
  const rows = await db.compiledAcl.findMany({ where: { userId, organizationId } })
  return new Map(rows.map((r) => [r.projectId, new Set(parseJson<Permission[]>(r.permissions, []))]))
}
