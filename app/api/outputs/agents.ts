import { z } from 'zod'

/** What each call of ../agents.server.ts answers (JSON: times are ISO strings). */
export const agentsOutputs = {
  'agent/applicationLookup': z.object({ applicationCode: z.string(), applicationCreated: z.string(), agentProduct: z.string(), agentName: z.string() }),
  'agent/enroll': z.object({
    organizationId: z.string(),
    projectId: z.string(),
    agentId: z.string(),
    organizationCreated: z.boolean(),
    systemsAssigned: z.number(),
  }),
  'agent/remove': z.object({ removed: z.boolean() }),
  'project/systemAssign': z.object({ systemId: z.string(), projectId: z.string().nullable() }),
  'agent/locationUpdate': z.object({
    useLocationMode: z.enum(['geoip', 'manual']),
    locationManual: z.object({ lati: z.number(), long: z.number() }).nullable(),
  }),
  'agent/list': z.object({
    agents: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        product: z.string(),
        serial: z.string(),
        version: z.string(),
        isConnected: z.boolean(),
        lastSeen: z.string().nullable(),
        enrolledAt: z.string().nullable(),
        systems: z.array(z.object({ id: z.string(), key: z.string(), name: z.string(), projectId: z.string().nullable(), projectName: z.string().nullable() })),
      })
    ),
    nextCursor: z.string().nullable(),
  }),
  'admin/selfEnrollTargets': z.object({
    options: z.array(
      z.object({ organizationId: z.string(), projectId: z.string(), organizationName: z.string(), projectName: z.string(), enabled: z.boolean() })
    ),
  }),
  'admin/selfEnrollTargetsUpdate': z.object({ targets: z.array(z.object({ organizationId: z.string(), projectId: z.string() })) }),
}
