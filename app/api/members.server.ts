import { z } from 'zod'
import { addOrganizationMember, assignUserRole, listMembers, removeOrganizationMember, unassignUserRole } from '~/domain/members/members.server'
import { defineCall, type ApiCalls } from './registry.server'
import { membersOutputs } from './outputs/members'

const organizationId = z.string().min(1)

/** Members and access-right calls (spec 02 section 7: Org/addOrganizationMember, assignUserRole, ...). */
export const memberCalls: ApiCalls = {
  'organization/memberList': defineCall({
    input: z.object({ organizationId }),
    output: membersOutputs['organization/memberList'],
    handler: ({ actor }, input) => listMembers(actor, input.organizationId),
  }),
  'organization/memberAdd': defineCall({
    input: z.object({ organizationId, email: z.string(), roleId: z.string() }),
    output: membersOutputs['organization/memberAdd'],
    handler: ({ actor }, { organizationId, ...member }) => addOrganizationMember(actor, organizationId, member),
  }),
  'organization/memberRemove': defineCall({
    input: z.object({ organizationId, userId: z.string().min(1) }),
    output: membersOutputs['organization/memberRemove'],
    handler: ({ actor }, input) => removeOrganizationMember(actor, input.organizationId, input.userId),
  }),
  'organization/userRoleAssign': defineCall({
    input: z.object({ aclId: z.string(), organizationId, userId: z.string(), roleId: z.string() }),
    output: membersOutputs['organization/userRoleAssign'],
    handler: ({ actor }, input) => assignUserRole(actor, input),
  }),
  'organization/userRoleUnassign': defineCall({
    input: z.object({ aclId: z.string(), organizationId }),
    output: membersOutputs['organization/userRoleUnassign'],
    handler: ({ actor }, input) => unassignUserRole(actor, input),
  }),
}
