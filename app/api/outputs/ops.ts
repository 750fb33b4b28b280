import { z } from 'zod'
import { permission } from './common'

const openIssue = z.object({
  severityLabel: z.string(),
  latestAt: z.string(),
  id: z.string(),
  key: z.string(),
  kind: z.string(),
  severity: z.number(),
  message: z.string(),
  component: z.string(),
  deviceKey: z.string().nullable(),
  systemName: z.string(),
  agentName: z.string(),
  agentId: z.string(),
})

/** What each call of ../ops.server.ts answers (JSON: times are ISO strings). */
export const opsOutputs = {
  'access/explain': z.object({
    granted: z.boolean(),
    member: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    permission: permission,
    project: z.object({ id: z.string(), name: z.string() }).nullable(),
    chain: z.array(z.object({ id: z.string(), name: z.string() })),
    grants: z.array(
      z.object({
        roleId: z.string(),
        roleName: z.string(),
        level: z.enum(['organization', 'project']),
        projectId: z.string().nullable(),
        projectName: z.string().nullable(),
        inherited: z.boolean(),
      })
    ),
    special: z.enum(['owner', 'site-admin']).nullable(),
    rolesThatWould: z.array(z.object({ id: z.string(), name: z.string() })),
    summary: z.string(),
  }),
  'agent/bulk': z.object({
    operation: z.enum(['assign', 'remove']),
    total: z.number(),
    done: z.number(),
    unchanged: z.number(),
    skipped: z.array(z.object({ reason: z.string(), count: z.number(), agentIds: z.array(z.string()) })),
    message: z.string(),
  }),
  'agent/bulkExport': z.object({ count: z.number(), csv: z.string() }),
  'project/readiness': z.union([
    z.object({
      organization: z.object({ id: z.string(), name: z.string() }),
      project: z.object({ id: z.string(), name: z.string(), subProjects: z.number() }),
      generatedAt: z.string(),
      connectedWindowMinutes: z.number(),
      summary: z.object({
        agents: z.number(),
        agentsOffline: z.number(),
        baselineDeviations: z.number(),
        openIssues: z.number(),
        criticalOrErrorIssues: z.number(),
        tilesOverTemperature: z.number(),
        ready: z.boolean(),
      }),
      baselines: z.array(
        z.object({
          component: z.string(),
          product: z.string(),
          baseline: z.object({ software: z.string(), firmware: z.string(), count: z.number() }),
          total: z.number(),
          deviationsTotal: z.number(),
          deviations: z.array(
            z.object({
              systemId: z.string(),
              systemName: z.string(),
              agentId: z.string(),
              agentName: z.string(),
              software: z.string(),
              firmware: z.string(),
              count: z.number(),
            })
          ),
        })
      ),
      issuesBySeverity: z.array(
        z.object({
          severity: z.union([z.literal(2), z.literal(5), z.literal(4), z.literal(3), z.literal(6)]),
          label: z.string(),
          alerts: z.number(),
          deviations: z.number(),
        })
      ),
      openIssues: z.array(openIssue),
      openIssuesTruncated: z.boolean(),
      offline: z.array(z.object({ id: z.string(), name: z.string(), lastSeen: z.string().nullable(), systems: z.number(), disabled: z.boolean() })),
      tilesOverTemperature: z.array(openIssue),
    }),
    z.object({ csv: z.string() }),
  ]),
}
