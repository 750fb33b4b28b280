import { z } from 'zod'

const capabilities = z.object({
  canUpdate: z.boolean(),
  canDelete: z.boolean(),
  canTransfer: z.boolean(),
  canProjectCreate: z.boolean(),
  canProjectUpdate: z.boolean(),
  canProjectDelete: z.boolean(),
  canBillingView: z.boolean(),
  canUserEditRoles: z.boolean(),
  canUserAssignRole: z.boolean(),
  canUserAdd: z.boolean(),
  canUserInvite: z.boolean(),
  canUserRemove: z.boolean(),
  canAgentEnroll: z.boolean(),
  canAgentDelete: z.boolean(),
  canAssignToProject: z.boolean(),
  canListAgents: z.boolean(),
  canListProjects: z.boolean(),
  canListMembers: z.boolean(),
  canListNotes: z.boolean(),
  canMetricsView: z.boolean(),
  canAuditView: z.boolean(),
  isCurrentUserOwner: z.boolean(),
})

/** What each call of ../organizations.server.ts answers (JSON: times are ISO strings). */
export const organizationsOutputs = {
  'organization/create': z.object({ organizationId: z.string() }),
  'organization/update': z.object({ updated: z.array(z.enum(['name', 'description'])) }),
  'organization/delete': z.object({ organizationId: z.string() }),
  'organization/memberLeave': z.object({ organizationId: z.string() }),
  'organization/transferOwner': z.object({ organizationId: z.string(), ownerId: z.string() }),
  'organization/billingStatusUpdateRequest': z.object({ billingStatus: z.enum(['disabled', 'enabled', 'requested', 'suspended', 'internal']) }),
  'organization/get': z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    owner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    linkTo: z.string(),
    capabilities,
  }),
  'organization/list': z.object({
    organizations: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string(),
        isDefault: z.boolean(),
        isOwner: z.boolean(),
        linkTo: z.string(),
        projectCount: z.number().nullable(),
        agentCount: z.number().nullable(),
        memberCount: z.number().nullable(),
        capabilities,
      })
    ),
  }),
}
