import { z } from 'zod'
import { ingestDeadLetters } from '~/domain/admin/ingest-dead-letters.server'
import { fetchOrgMetricsAggregated } from '~/domain/admin/org-metrics-admin.server'
import {
  billingInput,
  clientSystemsInput,
  getOrgAdmin,
  listClientSystems,
  listOrgClients,
  listOrgEventsAdmin,
  listOrgsAdmin,
  orgClientsInput,
  orgEventsInput,
  ORGS_PAGE_SIZE,
  pageSchema,
  updateOrgBillingStatus,
} from '~/domain/admin/orgs-admin.server'
import { createInvoice, deleteInvoice, INVOICE_STATUSES, invoiceListInput, listInvoicesAdmin, updateInvoice } from '~/domain/billing/invoices.server'
import { aggregatedInput, aggregationInput, clearEventAggregation, runEventAggregation, usageAggregated } from '~/domain/billing/usage-admin.server'
import { defineCall, type ApiCalls } from './registry.server'
import { adminOrgsOutputs } from './outputs/admin-orgs'

// Site admins only: the route refuses everyone else before the body is read, so the schemas below
// give outsiders no hints; the domain checks the caller and the input again.
const organizationId = z.string({ required_error: 'Organization ID is required' }).min(1, 'Organization ID is required')
const invoiceId = z.string({ required_error: 'Invoice ID is required' }).min(1, 'Invoice ID is required')
/** A day or an instant (ISO 8601), or null to clear it. */
const invoiceDate = z.string().nullish()
/**
 * An invoice as sent. The domain's schema takes any value and explains what is wrong with it (its
 * status field is z.unknown), so the wire schema is written here; the domain still checks amounts,
 * currency codes, dates and which fields an existing invoice may change.
 */
const invoiceFields = z.object({
  reference: z.string().max(80, 'Reference is at most 80 characters').nullish(),
  /** an amount such as "1250.00" */
  total: z.union([z.string(), z.number(), z.null()]).optional(),
  status: z
    .enum(INVOICE_STATUSES, {
      errorMap: (_issue, ctx) => ({
        message: ctx.data === '' || ctx.data === null ? 'Status required' : 'Unknown invoice status',
      }),
    })
    .optional(),
  /** a three-letter code such as USD */
  currency: z.string().max(3, 'Currency is a three-letter code such as USD').optional(),
  dueOn: invoiceDate,
  sentOn: invoiceDate,
  settledOn: invoiceDate,
})

/** Site-administrator organization calls: list, detail, billing, invoices, usage (spec 01 section 7). */
export const adminOrgCalls: ApiCalls = {
  'admin/orgs': defineCall({
    input: pageSchema(100, ORGS_PAGE_SIZE),
    output: adminOrgsOutputs['admin/orgs'],
    handler: ({ actor }, input) => listOrgsAdmin(actor, input),
  }),
  'admin/org': defineCall({
    input: z.object({ orgId: organizationId }),
    output: adminOrgsOutputs['admin/org'],
    handler: ({ actor }, input) => getOrgAdmin(actor, input.orgId),
  }),
  'admin/orgClients': defineCall({
    input: orgClientsInput,
    output: adminOrgsOutputs['admin/orgClients'],
    handler: ({ actor }, input) => listOrgClients(actor, input),
  }),
  'admin/clientSystems': defineCall({
    input: clientSystemsInput,
    output: adminOrgsOutputs['admin/clientSystems'],
    handler: ({ actor }, input) => listClientSystems(actor, input),
  }),
  'admin/orgEvents': defineCall({
    input: orgEventsInput,
    output: adminOrgsOutputs['admin/orgEvents'],
    handler: ({ actor }, input) => listOrgEventsAdmin(actor, input),
  }),
  'admin/updateOrgBillingStatus': defineCall({
    input: billingInput,
    output: adminOrgsOutputs['admin/updateOrgBillingStatus'],
    handler: ({ actor }, input) => updateOrgBillingStatus(actor, input),
  }),
  'admin/fetchOrgMetricsAggregated': defineCall({
    input: z.object({ organizationId }),
    output: adminOrgsOutputs['admin/fetchOrgMetricsAggregated'],
    handler: ({ actor }, input) => fetchOrgMetricsAggregated(actor, input),
  }),
  'admin/invoices': defineCall({
    input: invoiceListInput.extend({ organizationId }),
    output: adminOrgsOutputs['admin/invoices'],
    handler: ({ actor }, input) => listInvoicesAdmin(actor, input),
  }),
  'admin/createInvoice': defineCall({
    input: z.object({ organizationId, invoice: invoiceFields }),
    payloadField: 'invoice',
    output: adminOrgsOutputs['admin/createInvoice'],
    handler: ({ actor }, input) => createInvoice(actor, input),
  }),
  'admin/updateInvoice': defineCall({
    input: z.object({ organizationId, id: invoiceId, invoice: invoiceFields }),
    payloadField: 'invoice',
    output: adminOrgsOutputs['admin/updateInvoice'],
    handler: ({ actor }, input) => updateInvoice(actor, input),
  }),
  'admin/deleteInvoice': defineCall({
    input: z.object({ organizationId, id: invoiceId }),
    output: adminOrgsOutputs['admin/deleteInvoice'],
    handler: ({ actor }, input) => deleteInvoice(actor, input),
  }),
  'admin/usageAggregated': defineCall({
    input: aggregatedInput,
    output: adminOrgsOutputs['admin/usageAggregated'],
    handler: ({ actor }, input) => usageAggregated(actor, input),
  }),
  'admin/runEventAggregation': defineCall({
    input: aggregationInput,
    output: adminOrgsOutputs['admin/runEventAggregation'],
    handler: ({ actor }, input) => runEventAggregation(actor, input),
  }),
  'admin/ingestDeadLetters': defineCall({
    input: z.object({}),
    output: adminOrgsOutputs['admin/ingestDeadLetters'],
    handler: ({ actor }) => ingestDeadLetters(actor),
  }),
  'admin/clearEventAggregation': defineCall({
    input: aggregationInput,
    output: adminOrgsOutputs['admin/clearEventAggregation'],
    handler: ({ actor }, input) => clearEventAggregation(actor, input),
  }),
}
