import { z } from 'zod'
import {
  acceptInvite,
  createOrganizationInvite,
  declineInvite,
  listInvites,
  listMyInvites,
  resendOrganizationInvite,
  revokeOrganizationInvite,
} from '~/domain/invites/invites.server'
import { defineCall, type ApiCalls } from './registry.server'
import { invitesOutputs } from './outputs/invites'

const inviteId = z.string().min(1)

/** Invite calls (spec 02 section 7: Org/createOrganizationInvite, resend, revoke) and the recipient's answers. */
export const inviteCalls: ApiCalls = {
  'organization/inviteList': defineCall({
    input: z.object({ organizationId: z.string().min(1) }),
    output: invitesOutputs['organization/inviteList'],
    handler: ({ actor }, input) => listInvites(actor, input.organizationId),
  }),
  'organization/inviteCreate': defineCall({
    input: z.object({
      organizationId: z.string().min(1),
      recipient: z.string(),
      roleId: z.string(),
      projects: z.array(z.string()).optional(),
      projectRoleId: z.string().optional(),
    }),
    output: invitesOutputs['organization/inviteCreate'],
    handler: ({ actor }, input) => createOrganizationInvite(actor, input),
  }),
  'organization/inviteResend': defineCall({
    input: z.object({ inviteId }),
    output: invitesOutputs['organization/inviteResend'],
    handler: ({ actor }, input) => resendOrganizationInvite(actor, input.inviteId),
  }),
  'organization/inviteRevoke': defineCall({
    input: z.object({ inviteId }),
    output: invitesOutputs['organization/inviteRevoke'],
    handler: ({ actor }, input) => revokeOrganizationInvite(actor, input.inviteId),
  }),
  'invite/mine': defineCall({
    input: z.object({}),
    output: invitesOutputs['invite/mine'],
    handler: ({ actor }) => listMyInvites(actor),
  }),
  'invite/accept': defineCall({
    input: z.object({ inviteId, code: z.string().optional() }),
    output: invitesOutputs['invite/accept'],
    handler: ({ actor }, input) => acceptInvite(actor, input),
  }),
  'invite/decline': defineCall({
    input: z.object({ inviteId, code: z.string().optional() }),
    output: invitesOutputs['invite/decline'],
    handler: ({ actor }, input) => declineInvite(actor, input),
  }),
}
