import { z } from 'zod'
import { listAdminAgents, listAgentsInput, listAdminTunnelConnections, tunnelConnectionsInput } from '~/domain/admin/agents-admin.server'
import { fetchUserAclData, listAdminUsers, listUsersInput, updateAdminUser, updateUserInput } from '~/domain/admin/users-admin.server'
import { defineCall, type ApiCalls } from './registry.server'

/** Admin > Users and Admin > Agents (spec 01 section 7). Site admins only; the domain enforces it. */
export const adminUserCalls: ApiCalls = {
  'admin/users': defineCall({ input: listUsersInput, handler: ({ actor }, input) => listAdminUsers(actor, input) }),
  'admin/updateUser': defineCall({ input: updateUserInput, handler: ({ actor }, input) => updateAdminUser(actor, input) }),
  'admin/userAclData': defineCall({ input: z.object({ userId: z.string().min(1) }), handler: ({ actor }, input) => fetchUserAclData(actor, input.userId) }),
  'admin/agents': defineCall({ input: listAgentsInput, handler: ({ actor }, input) => listAdminAgents(actor, input) }),
  'admin/tunnelConnections': defineCall({ input: tunnelConnectionsInput, handler: ({ actor }, input) => listAdminTunnelConnections(actor, input) }),
}
