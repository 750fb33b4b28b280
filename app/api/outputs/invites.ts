import { z } from 'zod'

/** An invite as the organization's list shows it. */
const inviteRow = z.object({
  id: z.string(),
  organizationId: z.string(),
  recipient: z.string(),
  status: z.string(),
  roleName: z.string(),
  projects: z.array(z.object({ id: z.string(), name: z.string() })),
  projectRoleName: z.string().nullable(),
  sent: z.string().nullable(),
})

/** What each call of ../invites.server.ts answers (JSON: times are ISO strings). */
export const invitesOutputs = {
  'organization/inviteList': z.object({
    invites: z.array(inviteRow),
  }),
  'organization/inviteCreate': z.object({ inviteId: z.string() }),
  'organization/inviteResend': z.object({ inviteId: z.string(), sent: z.string().nullable() }),
  'organization/inviteRevoke': z.object({ inviteId: z.string() }),
  'invite/mine': z.object({
    // the recipient's own invites: which organization, and whether they may still act on it
    invites: z.array(z.object({ organizationName: z.string(), canManage: z.boolean(), ...inviteRow.shape })),
  }),
  'invite/accept': z.object({ organizationId: z.string() }),
  'invite/decline': z.object({ inviteId: z.string() }),
}
