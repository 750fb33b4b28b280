import { z } from 'zod'
import { ingestDeadLetters } from '~/domain/admin/ingest-dead-letters.server'
import { fetchOrgMetricsAggregated } from '~/domain/admin/org-metrics-admin.server'
import { getOrgAdmin, listClientSystems, listOrgClients, listOrgEventsAdmin, listOrgsAdmin, updateOrgBillingStatus } from '~/domain/admin/orgs-admin.server'
import { createInvoice, deleteInvoice, listInvoicesAdmin, updateInvoice } from '~/domain/billing/invoices.server'
import { clearEventAggregation, runEventAggregation, usageAggregated } from '~/domain/billing/usage-admin.server'
import { defineCall, type ApiCalls } from './registry.server'
import { adminOrgsOutputs } from './outputs/admin-orgs'

// Inputs are checked by the domain (after the site-admin check, so non-admins learn nothing);
// the schemas here only take the call's documented fields.
const page = { limit: z.unknown(), pageToken: z.unknown() }

/** Site-administrator organization calls: list, detail, billing, invoices, usage (spec 01 section 7). */
export const adminOrgCalls: ApiCalls = {
  'admin/orgs': defineCall({ input: z.object(page), output: adminOrgsOutputs['admin/orgs'], handler: ({ actor }, input) => listOrgsAdmin(actor, input) }),
  'admin/org': defineCall({ input: z.object({ orgId: z.unknown() }), output: adminOrgsOutputs['admin/org'], handler: ({ actor }, input) => getOrgAdmin(actor, input.orgId) }),
  'admin/orgClients': defineCall({ input: z.object({ orgId: z.unknown(), ...page }), output: adminOrgsOutputs['admin/orgClients'], handler: ({ actor }, input) => listOrgClients(actor, input) }),
  'admin/clientSystems': defineCall({ input: z.object({ agentId: z.unknown() }), output: adminOrgsOutputs['admin/clientSystems'], handler: ({ actor }, input) => listClientSystems(actor, input) }),
  'admin/orgEvents': defineCall({ input: z.object({ orgId: z.unknown(), ...page }), output: adminOrgsOutputs['admin/orgEvents'], handler: ({ actor }, input) => listOrgEventsAdmin(actor, input) }),
  'admin/updateOrgBillingStatus': defineCall({
    input: z.object({ organizationId: z.unknown(), status: z.unknown(), period: z.unknown() }),
    output: adminOrgsOutputs['admin/updateOrgBillingStatus'],
    handler: ({ actor }, input) => updateOrgBillingStatus(actor, input),
  }),
  'admin/fetchOrgMetricsAggregated': defineCall({
    input: z.object({ organizationId: z.unknown() }),
    output: adminOrgsOutputs['admin/fetchOrgMetricsAggregated'],
    handler: ({ actor }, input) => fetchOrgMetricsAggregated(actor, input),
  }),
  'admin/invoices': defineCall({ input: z.object({ organizationId: z.unknown(), ...page }), output: adminOrgsOutputs['admin/invoices'], handler: ({ actor }, input) => listInvoicesAdmin(actor, input) }),
  'admin/createInvoice': defineCall({ input: z.object({ organizationId: z.unknown(), invoice: z.unknown() }), output: adminOrgsOutputs['admin/createInvoice'], handler: ({ actor }, input) => createInvoice(actor, input) }),
  'admin/updateInvoice': defineCall({
    input: z.object({ organizationId: z.unknown(), id: z.unknown(), invoice: z.unknown() }),
    output: adminOrgsOutputs['admin/updateInvoice'],
    handler: ({ actor }, input) => updateInvoice(actor, input),
  }),
  'admin/deleteInvoice': defineCall({ input: z.object({ organizationId: z.unknown(), id: z.unknown() }), output: adminOrgsOutputs['admin/deleteInvoice'], handler: ({ actor }, input) => deleteInvoice(actor, input) }),
  'admin/usageAggregated': defineCall({
    input: z.object({ organizationId: z.unknown(), period: z.unknown(), sourceDate: z.unknown(), groupBy: z.unknown(), projectId: z.unknown(), refresh: z.unknown() }),
    output: adminOrgsOutputs['admin/usageAggregated'],
    handler: ({ actor }, input) => usageAggregated(actor, input),
  }),
  'admin/runEventAggregation': defineCall({ input: z.object({ organizationId: z.unknown(), type: z.unknown() }), output: adminOrgsOutputs['admin/runEventAggregation'], handler: ({ actor }, input) => runEventAggregation(actor, input) }),
  'admin/ingestDeadLetters': defineCall({ input: z.object({}), output: adminOrgsOutputs['admin/ingestDeadLetters'], handler: ({ actor }) => ingestDeadLetters(actor) }),
  'admin/clearEventAggregation': defineCall({ input: z.object({ organizationId: z.unknown(), type: z.unknown() }), output: adminOrgsOutputs['admin/clearEventAggregation'], handler: ({ actor }, input) => clearEventAggregation(actor, input) }),
}
