/**
 * Invoices (spec 01 sections 3 to 5): manual records staff keep so organization admins can see
 * what they were billed; real invoicing happens in an external accounting system. Staff create,
 * edit and delete them; members holding org.invoices.view read them.
 */
import { type Invoice } from '@prisma/client'
import { z } from 'zod'
import { type Actor } from '../actor'
import { getOrganizationAccess } from '../access/access.server'
import { audit } from '../audit/audit.server'
import { invalid, notFound } from '../errors'
import { parseInput } from '../parse-input'
import { memberOrganizationIds } from '../organizations/membership.server'
import { requireOrganizationId, requireStaff } from '../admin/orgs-admin.server'
import { prisma } from '~/utils/db.server'

export const INVOICE_STATUSES = ['open', 'settled', 'draft', 'canceled'] as const
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]
export const INVOICES_PAGE_SIZE = 24

const LOCKED_MESSAGE = 'Total and reference cannot be changed on an existing invoice'

const dateField = z
  .union([z.string(), z.date(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined
    if (v === null || v === '') return null
    const date = v instanceof Date ? v : new Date(v)
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'Invalid date' })
      return z.NEVER
    }
    return date
  })

const statusField = z
  .unknown()
  .transform((v, ctx) => {
    if (v === null || v === '' || !INVOICE_STATUSES.includes(v as InvoiceStatus)) {
      ctx.addIssue({ code: 'custom', message: v === null || v === '' ? 'Status required' : 'Unknown invoice status' })
      return z.NEVER
    }
    return v as InvoiceStatus
  })

const totalField = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v, ctx) => {
    const text = v === null || v === undefined ? '' : String(v).trim()
    if (!text) {
      ctx.addIssue({ code: 'custom', message: 'Invoice Total' })
      return z.NEVER
    }
    if (!/^\d{1,12}(\.\d{1,2})?$/.test(text)) {
      ctx.addIssue({ code: 'custom', message: 'Invoice Total must be an amount like 1250.00' })
      return z.NEVER
    }
    return Number(text).toFixed(2)
  })

const common = {
  currency: z
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{3}$/, 'Currency is a three-letter code such as USD'))
    .optional(),
  dueOn: dateField,
  sentOn: dateField,
  settledOn: dateField,
}

// A missing status means a new invoice, which starts open; an explicit empty one is an error.
const createSchema = z.object({
  reference: z.string().trim().max(80, 'Reference is at most 80 characters').nullish(),
  total: totalField,
  status: z.unknown().transform((v) => (v === undefined ? 'open' : v)).pipe(statusField),
  ...common,
})

const updateSchema = z.object({
  reference: z.string().nullish(),
  total: z.union([z.string(), z.number(), z.null()]).optional(),
  status: statusField.optional(),
  ...common,
})

export type InvoiceView = {
  id: string
  organizationId: string
  reference: string
  total: string
  currency: string
  status: InvoiceStatus
  dueOn: Date | null
  sentOn: Date | null
  settledOn: Date | null
  created: Date
  updated: Date
  author: { id: string; userName: string }
}

const view = (i: Invoice): InvoiceView => ({
  id: i.id,
  organizationId: i.organizationId,
  reference: i.reference,
  total: i.total,
  currency: i.currency,
  status: i.status as InvoiceStatus,
  dueOn: i.dueOn,
  sentOn: i.sentOn,
  settledOn: i.settledOn,
  created: i.createdAt,
  updated: i.updatedAt,
  author: { id: i.authorId, userName: i.authorName },
})

const invoiceField = (raw: unknown) => (raw && typeof raw === 'object' ? raw : {})

/** The date (UTC) as reference, suffixed when the organization already has one for that day. */
async function autoReference(organizationId: string, now: Date) {
  const base = now.toISOString().slice(0, 10)
  const taken = new Set(
    (await prisma.invoice.findMany({ where: { organizationId, reference: { startsWith: base } }, select: { reference: true } })).map((i) => i.reference),
  )
  if (!taken.has(base)) return base
  let n = 2
  while (taken.has(`${base}-${n}`)) n++
  return `${base}-${n}`
}

async function requireOrganization(organizationId: string) {
  const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } })
  if (!org) throw notFound('Organization not found')
}

/** admin/createInvoice {organizationId, invoice} */
export async function createInvoice(actor: Actor | null, raw: { organizationId?: unknown; invoice?: unknown }) {
  const staff = requireStaff(actor)
  const organizationId = requireOrganizationId(raw.organizationId)
  const input = parseInput(createSchema, invoiceField(raw.invoice))
  await requireOrganization(organizationId)
  const reference = input.reference || (await autoReference(organizationId, new Date()))
  const invoice = await prisma.$transaction(async (tx) => {
    const created = await tx.invoice.create({
      data: {
        organizationId,
        reference,
        total: input.total,
        currency: input.currency ?? 'USD',
        status: input.status,
        dueOn: input.dueOn ?? null,
        sentOn: input.sentOn ?? null,
        settledOn: input.settledOn ?? (input.status === 'settled' ? new Date() : null),
        authorId: staff.userId,
        authorName: staff.name || staff.email,
      },
    })
    await audit(tx, staff, { organizationId, action: 'invoice.create', message: `Invoice ${reference} created (${created.total} ${created.currency}, ${created.status})` })
    return created
  })
  return { invoice: view(invoice) }
}

/** admin/updateInvoice {organizationId, id, invoice}: status and dates only; total and reference are locked. */
export async function updateInvoice(actor: Actor | null, raw: { organizationId?: unknown; id?: unknown; invoice?: unknown }) {
  const staff = requireStaff(actor)
  const organizationId = requireOrganizationId(raw.organizationId)
  const input = parseInput(updateSchema, invoiceField(raw.invoice))
  const existing = await prisma.invoice.findFirst({ where: { id: String(raw.id ?? ''), organizationId } })
  if (!existing) throw notFound('Invoice not found')
  if (input.reference != null && input.reference.trim() !== existing.reference) throw invalid(LOCKED_MESSAGE, [{ path: 'reference', message: LOCKED_MESSAGE }])
  if (input.total != null && String(input.total).trim() !== '' && Number(input.total).toFixed(2) !== existing.total) {
    throw invalid(LOCKED_MESSAGE, [{ path: 'total', message: LOCKED_MESSAGE }])
  }
  const status = input.status ?? (existing.status as InvoiceStatus)
  const settledOn = input.settledOn !== undefined ? input.settledOn : status === 'settled' && !existing.settledOn ? new Date() : existing.settledOn
  const invoice = await prisma.$transaction(async (tx) => {
    const updated = await tx.invoice.update({
      where: { id: existing.id },
      data: {
        status,
        ...(input.currency ? { currency: input.currency } : {}),
        ...(input.dueOn !== undefined ? { dueOn: input.dueOn } : {}),
        ...(input.sentOn !== undefined ? { sentOn: input.sentOn } : {}),
        settledOn,
      },
    })
    const changes = status !== existing.status ? ` (status ${existing.status} -> ${status})` : ''
    await audit(tx, staff, { organizationId, action: 'invoice.update', message: `Invoice ${existing.reference} updated${changes}` })
    return updated
  })
  return { invoice: view(invoice) }
}

/** admin/deleteInvoice {organizationId, id} */
export async function deleteInvoice(actor: Actor | null, raw: { organizationId?: unknown; id?: unknown }) {
  const staff = requireStaff(actor)
  const organizationId = requireOrganizationId(raw.organizationId)
  const existing = await prisma.invoice.findFirst({ where: { id: String(raw.id ?? ''), organizationId } })
  if (!existing) throw notFound('Invoice not found')
  await prisma.$transaction(async (tx) => {
    await tx.invoice.delete({ where: { id: existing.id } })
    await audit(tx, staff, { organizationId, action: 'invoice.delete', message: `Invoice ${existing.reference} deleted (${existing.total} ${existing.currency})` })
  })
  return { deleted: existing.id }
}

export const invoiceListInput = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(INVOICES_PAGE_SIZE),
  pageToken: z.string().max(64).nullish(),
})

async function invoicePage(organizationId: string, raw: unknown) {
  const { limit, pageToken } = parseInput(invoiceListInput, raw ?? {})
  const rows = await prisma.invoice.findMany({
    where: { organizationId },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
    ...(pageToken ? { cursor: { id: pageToken }, skip: 1 } : {}),
  })
  const items = rows.slice(0, limit)
  return { items: items.map(view), nextPageToken: rows.length > limit ? items.at(-1)!.id : null }
}

/** admin/invoices {organizationId, limit, pageToken}: newest first, 24 per page. */
export async function listInvoicesAdmin(actor: Actor | null, raw: { organizationId?: unknown; limit?: unknown; pageToken?: unknown }) {
  requireStaff(actor)
  const organizationId = requireOrganizationId(raw.organizationId)
  await requireOrganization(organizationId)
  return invoicePage(organizationId, { limit: raw.limit, pageToken: raw.pageToken })
}

/** Settings > Billing: the organization's invoices for members holding org.invoices.view. */
export async function listOrganizationInvoices(actor: Actor, organizationId: string, raw: unknown = {}) {
  const access = await getOrganizationAccess(actor, organizationId)
  access.require('org.invoices.view')
  return invoicePage(organizationId, raw)
}

export type BillingOverviewItem = {
  id: string
  name: string
  billingStatus: string | null
  billingPeriod: string | null
  canViewInvoices: boolean
  invoices: InvoiceView[]
  moreInvoices: boolean
}

/** /billing: the signed-in user's organizations where they may see billing or invoices. */
export async function billingOverview(actor: Actor): Promise<BillingOverviewItem[]> {
  const ids = await memberOrganizationIds(actor)
  const orgs = await prisma.organization.findMany({ where: { id: { in: ids } }, orderBy: { name: 'asc' }, select: { id: true, name: true, billingStatus: true, billingPeriod: true } })
  const result: BillingOverviewItem[] = []
  for (const org of orgs) {
    const access = await getOrganizationAccess(actor, org.id)
    // Site admins see every organization in the admin area; here only what membership grants.
    const canBilling = access.isMember && access.can('org.billing.view')
    const canInvoices = access.isMember && access.can('org.invoices.view')
    if (!canBilling && !canInvoices) continue
    const page = canInvoices ? await invoicePage(org.id, { limit: INVOICES_PAGE_SIZE }) : { items: [], nextPageToken: null }
    result.push({
      id: org.id,
      name: org.name,
      billingStatus: canBilling ? org.billingStatus : null,
      billingPeriod: canBilling ? org.billingPeriod : null,
      canViewInvoices: canInvoices,
      invoices: page.items,
      moreInvoices: page.nextPageToken !== null,
    })
  }
  return result
}
