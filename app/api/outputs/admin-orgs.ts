import { z } from 'zod'
import { isoTime } from './common'

const invoice = z.object({
  id: z.string(),
  organizationId: z.string(),
  reference: z.string(),
  total: z.string(),
  currency: z.string(),
  status: z.enum(['open', 'settled', 'draft', 'canceled']),
  dueOn: isoTime.nullable(),
  sentOn: isoTime.nullable(),
  settledOn: isoTime.nullable(),
  created: isoTime,
  updated: isoTime,
  author: z.object({ id: z.string(), userName: z.string() }),
})
const invoiceAnswer = z.object({ invoice })

/** What each call of ../admin-orgs.server.ts answers (JSON: times are ISO strings). */
export const adminOrgsOutputs = {
  'admin/orgs': z.object({
    items: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        ownerId: z.string(),
        ownerName: z.string(),
        billingStatus: z.string(),
        billingPeriod: z.string(),
        createdAt: isoTime,
      })
    ),
    nextPageToken: z.string().nullable(),
  }),
  'admin/org': z.object({
    ownerName: z.string(),
    agentCount: z.number(),
    projectCount: z.number(),
    id: z.string(),
    name: z.string(),
    description: z.string(),
    ownerId: z.string(),
    billingStatus: z.string(),
    billingPeriod: z.string(),
    createdAt: isoTime,
    projects: z.array(z.object({ id: z.string(), name: z.string(), parentId: z.string().nullable() })),
  }),
  'admin/orgClients': z.object({
    items: z.array(
      z.object({
        systemsCount: z.number(),
        id: z.string(),
        createdAt: isoTime,
        updatedAt: isoTime,
        organizationId: z.string().nullable(),
        clientName: z.string(),
        enabled: z.boolean(),
        product: z.string(),
        serial: z.string(),
        version: z.string(),
        enrolledAt: isoTime.nullable(),
        defaultProjectId: z.string().nullable(),
        lastSeen: isoTime.nullable(),
        lastIp: z.string().nullable(),
        locationLat: z.number().nullable(),
        locationLong: z.number().nullable(),
        locationLookupIp: z.string().nullable(),
        locationManualLat: z.number().nullable(),
        locationManualLong: z.number().nullable(),
        useLocationMode: z.string(),
        nextNotice: isoTime.nullable(),
        tunnelStatus: z.string().nullable(),
        tunnelPublicKey: z.string().nullable(),
        dataSegsOut: z.number(),
        dsackDups: z.number(),
        totalRetrans: z.number(),
        stateUpdatedAt: isoTime.nullable(),
        online: z.boolean(),
        alertsCount: z.number(),
        alertsSeverity: z.number(),
        deviationsCount: z.number(),
        deviationsSeverity: z.number(),
      })
    ),
    nextPageToken: z.string().nullable(),
  }),
  'admin/clientSystems': z.object({
    items: z.array(
      z.object({
        devicesCount: z.number(),
        id: z.string(),
        name: z.string(),
        updatedAt: isoTime,
        project: z.object({ id: z.string(), name: z.string() }).nullable(),
        alertsCount: z.number(),
        deviationsCount: z.number(),
        key: z.string(),
      })
    ),
  }),
  'admin/orgEvents': z.object({
    items: z.array(
      z.object({
        id: z.string(),
        type: z.string(),
        agentId: z.string(),
        agentName: z.string(),
        systemId: z.string().nullable(),
        projects: z.array(z.object({ id: z.string(), name: z.string() })),
        created: isoTime,
      })
    ),
    nextPageToken: z.string().nullable(),
  }),
  'admin/updateOrgBillingStatus': z.object({
    organizationId: z.string(),
    billingStatus: z.enum(['disabled', 'enabled', 'requested', 'suspended', 'internal']),
    billingPeriod: z.enum(['custom', 'monthly', 'quarterly', 'yearly']),
  }),
  'admin/fetchOrgMetricsAggregated': z.object({
    organizationId: z.string(),
    computedAt: isoTime,
    projects: z.array(
      z.object({ projectId: z.string(), name: z.string(), agents: z.number(), systems: z.number(), alerts: z.number(), deviations: z.number() })
    ),
    systems: z.array(
      z.object({
        systemId: z.string(),
        name: z.string(),
        agentId: z.string(),
        agentName: z.string(),
        projectId: z.string().nullable(),
        projectName: z.string().nullable(),
        devices: z.number(),
        alerts: z.number(),
        deviations: z.number(),
      })
    ),
    issues: z.array(
      z.object({
        systemId: z.string(),
        agentId: z.string(),
        projectId: z.string().nullable(),
        message: z.string(),
        id: z.string(),
        key: z.string(),
        kind: z.string(),
        component: z.string(),
        severity: z.number(),
        latestCount: z.number(),
        latestAt: isoTime,
      })
    ),
    devices: z.array(z.object({ component: z.string(), count: z.number() })),
    deviceIssues: z.array(
      z.object({
        agentId: z.string(),
        systemId: z.string(),
        projectId: z.string().nullable(),
        orgId: z.string(),
        componentLabel: z.string(),
        count: z.number(),
        issueCount: z.number(),
        priorityIssueCount: z.number(),
        issueBreakdown: z.record(z.number()),
      })
    ),
  }),
  'admin/invoices': z.object({ items: z.array(invoice), nextPageToken: z.string().nullable() }),
  'admin/createInvoice': invoiceAnswer,
  'admin/updateInvoice': invoiceAnswer,
  'admin/deleteInvoice': z.object({ deleted: z.string() }),
  'admin/usageAggregated': z.object({
    organizationId: z.string(),
    groupBy: z.enum(['organization', 'project']),
    projectId: z.string().nullable(),
    period: z.enum(['monthly', 'daily', 'hourly']),
    periodStart: isoTime,
    periodEnd: isoTime,
    activeClients: z.number(),
    apiCalls: z.number(),
    calls: z.record(z.number()),
    computedAt: isoTime,
    cached: z.boolean(),
  }),
  'admin/runEventAggregation': z.object({ organizationId: z.string(), type: z.string(), rebuilt: z.number() }),
  'admin/clearEventAggregation': z.object({ organizationId: z.string(), type: z.string(), cleared: z.number() }),
  'admin/ingestDeadLetters': z.discriminatedUnion('broker', [
    z.object({ broker: z.literal('embedded'), deadLetters: z.null() }),
    z.object({ broker: z.literal('external'), queue: z.string(), deadLetters: z.number().nullable(), error: z.string().optional() }),
  ]),
}
