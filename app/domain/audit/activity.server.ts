import { z } from 'zod'
import { type Actor } from '../actor'
import { requireOrganizationPermission } from '../access/access.server'
import { parseInput } from '../parse-input'
import { prisma } from '~/utils/db.server'

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
  cursor: z.string().max(200).nullish(),
  limit: z.coerce.number().int().min(1).max(100).default(AUDIT_PAGE_SIZE),
})

/** Activity page: the organization's audit log, newest first, paged by cursor. */
export async function listAuditRecords(actor: Actor, raw: z.input<typeof auditListInput>) {
  const { organizationId, cursor, limit } = parseInput(auditListInput, raw)
  await requireOrganizationPermission(actor, organizationId, 'org.audit.view')
  const after = cursor ? decodeCursor(cursor) : null
  const rows = await prisma.auditRecord.findMany({
    where: {
      organizationId,
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  })
  const page = rows.slice(0, limit)
  return {
    records: page.map((r) => ({ id: r.id, created: r.createdAt.toISOString(), ip: r.ip, userName: r.userName, message: r.message })),
    nextCursor: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
  }
}
