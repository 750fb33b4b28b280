import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { accessDenied } from '../errors'
import { parseInput } from '../parse-input'
import { prisma } from '~/utils/db.server'
import { ID_CHUNK, inChunks } from '~/utils/id-chunks'

/** Audit log page size (spec 01 section 9: audits 20). */
export const AUDIT_PAGE_SIZE = 20

/** Opaque cursor: the (createdAt, id) of the last record of the previous page. */
const encodeCursor = (r: { createdAt: Date; id: string }) => Buffer.from(`${r.createdAt.toISOString()}|${r.id}`).toString('base64url')
function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|')
  const createdAt = new Date(iso ?? '')
  return id && !Number.isNaN(createdAt.getTime()) ? { createdAt, id } : null
}

export const auditListInput = z.object({
  organizationId: z.string().min(1),
  /** A project's log: records of that project and of every project below it. */
  projectId: z.string().min(1).nullish(),
  cursor: z.string().max(200).nullish(),
  limit: z.coerce.number().int().min(1).max(100).default(AUDIT_PAGE_SIZE),
})

/**
 * Activity: the organization's audit log, or with `projectId` a project's log (that project and
 * its sub-projects), newest first, paged by cursor. The organization log needs org.audit.view.
 * A project's log is readable with org.audit.view at organization level or with project.update on
 * the project: the spec shows the project's audit tab to whoever may update the project (its
 * settings tab has the same gate), and project.view alone would let viewers read who changed what.
 */
export async function listAuditRecords(actor: Actor, raw: z.input<typeof auditListInput>) {
  const { organizationId, projectId, cursor, limit } = parseInput(auditListInput, raw)
  const access = await getOrganizationAccess(actor, organizationId)
  let projectIds: string[] | null = null
  if (projectId) {
    if (!access.hasProject(projectId)) throw accessDenied()
    if (!access.can('org.audit.view') && !access.can('project.update', projectId)) throw accessDenied()
    projectIds = await projectSubtree(organizationId, projectId)
  } else access.require('org.audit.view')
  const after = cursor ? decodeCursor(cursor) : null
  const newest = (ids: string[] | null) =>
    prisma.auditRecord.findMany({
      where: {
        organizationId,
        ...(ids ? { projectId: { in: ids } } : {}),
        ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    })
  // a subtree may hold more projects than one statement binds: the newest
  // records of each chunk of projects hold the page's, merged in the same order
  const rows =
    projectIds && projectIds.length > ID_CHUNK
      ? (await inChunks(projectIds, newest)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).slice(0, limit + 1)
      : await newest(projectIds)
  const page = rows.slice(0, limit)
  return {
    records: page.map((r) => ({ id: r.id, created: r.createdAt.toISOString(), ip: r.ip, userName: r.userName, message: r.message })),
    nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
  }
}

/** The project and every project below it. */
async function projectSubtree(organizationId: string, projectId: string): Promise<string[]> {
  const projects = await prisma.project.findMany({ where: { organizationId }, select: { id: true, parentId: true } })
  const result = [projectId]
  for (let i = 0; i < result.length; i++) for (const p of projects) if (p.parentId === result[i]) result.push(p.id)
  return result
}
