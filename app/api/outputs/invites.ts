import { z } from 'zod'

/** What each call of ../invites.server.ts answers (JSON: times are ISO strings). */
export const invitesOutputs = {
  'organization/inviteList': z.object({
    invites: z.array(
      z.object({
        id: z.string(),
        organizationId: z.string(),
        recipient: z.string(),
        status: z.string(),
        roleName: z.string(),
        projects: z.array(z.object({ id: z.string(), name: z.string() })),
        projectRoleName: z.string().nullable(),
        sent: z.string().nullable(),
      })
    ),
  }),
  'organization/inviteCreate': z.object({ inviteId: z.string() }),
  'organization/inviteResend': z.object({ inviteId: z.string(), sent: z.string().nullable() }),
  'organization/inviteRevoke': z.object({ inviteId: z.string() }),
  'invite/mine': z.object({
    invites: z.array(
      z.object({
        organizationName: z.string(),
        canManage: z.boolean(),
        id: z.string(),
        organizationId: z.string(),
        recipient: z.string(),
        status: z.string(),
        roleName: z.string(),
        projects: z.array(z.object({ id: z.string(), name: z.string() })),
        projectRoleName: z.string().nullable(),
        sent: z.string().nullable(),
      })
    ),
  }),
  'invite/accept': z.object({ organizationId: z.string() }),
  'invite/decline': z.object({ inviteId: z.string() }),
}
