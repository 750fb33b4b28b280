import { describe, expect, it } from 'vitest'
import { createSession } from '~/domain/auth/session.server'
import { action } from '~/routes/client.v1.$'
import { sessionCookie } from '~/utils/auth.server'
import { prisma } from '~/utils/db.server'

let run = 0
type Caller = { user: { id: string }; call: (name: string, body: object) => Promise<{ status: number; body: Record<string, unknown> }> }

async function invoke(name: string, body: object, cookie?: string) {
  const request = new Request(`http://portal.test/client/v1/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  })
  const response = (await action({ request, params: { '*': name }, context: {} })) as Response
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

async function signedIn(label: string, data: { isAdmin?: boolean } = {}): Promise<Caller> {
  const n = ++run
  const user = await prisma.user.create({ data: { email: `${label}${n}@admin-orgs.test`, name: `${label} ${n}`, emailVerified: true, ...data } })
  const { token } = await createSession(user.id, { ip: '127.0.0.1', userAgent: 'vitest' })
  const cookie = (await sessionCookie.serialize(token)).split(';')[0]
  return { user, call: (name, body) => invoke(name, body, cookie) }
}

async function ownerWithOrg(name: string) {
  const owner = await signedIn('owner')
  const created = await owner.call('organization/create', { name })
  expect(created.status).toBe(200)
  return { owner, organizationId: created.body.organizationId as string }
}

describe('admin organization calls', () => {
  it('refuse the organization owner, a cloud.admin holder without the admin claim, and anonymous callers', async () => {
    const { owner, organizationId } = await ownerWithOrg('Refused Org')
    const cloudAdmin = await signedIn('cloud')
    await prisma.compiledAcl.create({ data: { userId: cloudAdmin.user.id, organizationId, projectId: '*', permissions: JSON.stringify(['cloud.admin', 'org.view']) } })
    const staff = await signedIn('staff', { isAdmin: true })
    const invoice = (await staff.call('admin/createInvoice', { organizationId, invoice: { total: '10' } })).body.invoice as { id: string }

    const calls: [string, object][] = [
      ['admin/orgs', { limit: 20 }],
      ['admin/org', { orgId: organizationId }],
      ['admin/orgClients', { orgId: organizationId }],
      ['admin/clientSystems', { agentId: 'x' }],
      ['admin/orgEvents', { orgId: organizationId, limit: 20 }],
      ['admin/updateOrgBillingStatus', { organizationId, status: 'enabled', period: 'yearly' }],
      ['admin/fetchOrgMetricsAggregated', { organizationId }],
      ['admin/invoices', { organizationId, limit: 24 }],
      ['admin/createInvoice', { organizationId, invoice: { total: '5', status: 'open' } }],
      ['admin/updateInvoice', { organizationId, id: invoice.id, invoice: { status: 'settled' } }],
      ['admin/deleteInvoice', { organizationId, id: invoice.id }],
      ['admin/usageAggregated', { organizationId, period: 'monthly', groupBy: 'organization' }],
      ['admin/runEventAggregation', { organizationId, type: 'usage' }],
      ['admin/clearEventAggregation', { organizationId, type: 'usage' }],
      ['admin/ingestDeadLetters', {}],
    ]
    for (const [name, body] of calls) {
      for (const [who, caller] of [
        ['owner', owner],
        ['cloud.admin', cloudAdmin],
      ] as const) {
        const result = await caller.call(name, body)
        expect({ name, who, status: result.status, code: result.body.code }).toEqual({ name, who, status: 403, code: 'permission-denied' })
      }
      const anonymous = await invoke(name, body)
      expect({ name, status: anonymous.status, code: anonymous.body.code }).toEqual({ name, status: 403, code: 'permission-denied' })
      // The site admin is served (or gets a plain input error), never refused.
      expect([200, 400, 404]).toContain((await staff.call(name, name === 'admin/deleteInvoice' || name === 'admin/updateInvoice' ? { ...body, id: 'gone' } : body)).status)
    }
    expect(await prisma.organization.findUniqueOrThrow({ where: { id: organizationId } })).toMatchObject({ billingStatus: 'enabled', billingPeriod: 'yearly' })
    expect(await prisma.invoice.count({ where: { organizationId, total: '5.00' } })).toBe(1)
  })

  it('lists organizations 20 per page with owner and billing, paging until a short page', async () => {
    const staff = await signedIn('staff', { isAdmin: true })
    for (let i = 0; i < 3; i++) await ownerWithOrg(`Paged ${i}`)
    const total = await prisma.organization.count()
    const seen: string[] = []
    let pageToken: string | null = null
    let pages = 0
    do {
      const page = await staff.call('admin/orgs', { limit: 2, pageToken })
      const items = page.body.items as { id: string; ownerName: string; billingStatus: string; billingPeriod: string }[]
      expect(items.every((o) => o.ownerName && o.billingStatus && o.billingPeriod)).toBe(true)
      seen.push(...items.map((o) => o.id))
      pageToken = page.body.nextPageToken as string | null
      pages++
    } while (pageToken)
    expect(new Set(seen).size).toBe(total)
    // The look-ahead row means a full last page already carries no token (no empty extra page).
    expect(pages).toBe(Math.ceil(total / 2))
    expect((await staff.call('admin/orgs', {})).body.items).toHaveLength(Math.min(20, total))
  })

  it('billing request from the customer reaches staff, and the customer sees the status staff set', async () => {
    const { owner, organizationId } = await ownerWithOrg('Billing Flow')
    const staff = await signedIn('staff', { isAdmin: true })
    expect((await owner.call('organization/billingStatusUpdateRequest', { id: organizationId })).status).toBe(200)
    const listed = await staff.call('admin/org', { orgId: organizationId })
    expect(listed.body).toMatchObject({ billingStatus: 'requested', billingPeriod: 'monthly' })

    expect(await staff.call('admin/updateOrgBillingStatus', { organizationId, status: 'paused', period: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Unknown billing status' } })
    expect(await staff.call('admin/updateOrgBillingStatus', { status: 'enabled', period: 'monthly' })).toMatchObject({ status: 400, body: { message: 'Organization ID is required' } })
    const updated = await staff.call('admin/updateOrgBillingStatus', { organizationId, status: 'enabled', period: 'quarterly' })
    expect(updated).toMatchObject({ status: 200, body: { billingStatus: 'enabled', billingPeriod: 'quarterly' } })

    const { getBilling } = await import('~/domain/organizations/organizations.server')
    const { sessionActor } = await actorOf(owner.user.id)
    expect(await getBilling(sessionActor, organizationId)).toMatchObject({ billingStatus: 'enabled', billingPeriod: 'quarterly', canRequest: false })
    const audit = await prisma.auditRecord.findMany({ where: { organizationId, action: { in: ['billing.request', 'billing.status'] } }, orderBy: { createdAt: 'asc' } })
    expect(audit.map((a) => a.action)).toEqual(['billing.request', 'billing.status'])
    expect(audit[1].message).toBe('Billing status set to enabled / quarterly (was requested / monthly)')
  })

  it('invoice rules: required total and status, date reference, starts open, total and reference locked, delete; members with org.invoices.view read them', async () => {
    const { owner, organizationId } = await ownerWithOrg('Invoices Org')
    const staff = await signedIn('staff', { isAdmin: true })

    expect(await staff.call('admin/createInvoice', { invoice: { total: '1' } })).toMatchObject({ status: 400, body: { message: 'Organization ID is required' } })
    expect(await staff.call('admin/createInvoice', { organizationId, invoice: { total: '' } })).toMatchObject({ status: 400, body: { message: 'Invoice Total', issues: [{ path: 'total' }] } })
    expect(await staff.call('admin/createInvoice', { organizationId, invoice: { total: '12', status: '' } })).toMatchObject({ status: 400, body: { message: 'Status required', issues: [{ path: 'status' }] } })
    expect(await staff.call('admin/createInvoice', { organizationId, invoice: { total: 'ten' } })).toMatchObject({ status: 400, body: { issues: [{ path: 'total' }] } })
    expect(await prisma.invoice.count({ where: { organizationId } })).toBe(0)

    const created = await staff.call('admin/createInvoice', { organizationId, invoice: { total: '1250.5', currency: 'eur', dueOn: '2026-12-31T00:00:00.000Z' } })
    expect(created.status).toBe(200)
    const invoice = created.body.invoice as { id: string; reference: string; total: string; status: string; currency: string }
    expect(invoice).toMatchObject({ reference: new Date().toISOString().slice(0, 10), total: '1250.50', status: 'open', currency: 'EUR' })
    const second = (await staff.call('admin/createInvoice', { organizationId, invoice: { total: '3', status: 'draft', reference: 'INV-7' } })).body.invoice as { id: string }
    expect(second).toMatchObject({ reference: 'INV-7', status: 'draft' })

    const locked = 'Total and reference cannot be changed on an existing invoice'
    expect(await staff.call('admin/updateInvoice', { organizationId, id: invoice.id, invoice: { total: '99' } })).toMatchObject({ status: 400, body: { message: locked } })
    expect(await staff.call('admin/updateInvoice', { organizationId, id: invoice.id, invoice: { reference: 'X' } })).toMatchObject({ status: 400, body: { message: locked } })
    const settled = await staff.call('admin/updateInvoice', { organizationId, id: invoice.id, invoice: { total: '1250.50', reference: invoice.reference, status: 'settled', sentOn: '2026-11-20T00:00:00.000Z' } })
    expect(settled.body.invoice).toMatchObject({ total: '1250.50', reference: invoice.reference, status: 'settled', sentOn: '2026-11-20T00:00:00.000Z', settledOn: expect.any(String) })

    const { sessionActor } = await actorOf(owner.user.id)
    const { listOrganizationInvoices } = await import('~/domain/billing/invoices.server')
    expect((await listOrganizationInvoices(sessionActor, organizationId)).items.map((i) => i.reference)).toEqual(['INV-7', invoice.reference])
    const outsider = await signedIn('outsider')
    await expect(listOrganizationInvoices((await actorOf(outsider.user.id)).sessionActor, organizationId)).rejects.toMatchObject({ status: 403 })

    expect((await staff.call('admin/invoices', { organizationId, limit: 1 })).body).toMatchObject({ items: [{ reference: 'INV-7' }], nextPageToken: second.id })
    expect(await staff.call('admin/deleteInvoice', { organizationId, id: second.id })).toMatchObject({ status: 200 })
    expect((await staff.call('admin/invoices', { organizationId, limit: 24 })).body).toMatchObject({ items: [{ id: invoice.id }], nextPageToken: null })
    const audit = await prisma.auditRecord.findMany({ where: { organizationId, action: { startsWith: 'invoice.' } }, orderBy: { createdAt: 'asc' } })
    expect(audit.map((a) => a.action)).toEqual(['invoice.create', 'invoice.create', 'invoice.update', 'invoice.delete'])
  })
})

async function actorOf(userId: string) {
  const user = await prisma.user.findUniqueOrThrow({ where: { id: userId } })
  return { sessionActor: { kind: 'user' as const, userId: user.id, email: user.email, name: user.name, isSiteAdmin: user.isAdmin, ip: '127.0.0.1', userAgent: 'vitest' } }
}
