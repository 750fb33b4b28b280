import { z } from 'zod'
import { listAdminAgents, listAdminTunnelConnections } from '~/domain/admin/agents-admin.server'
import { fetchUserAclData, listAdminUsers, updateAdminUser } from '~/domain/admin/users-admin.server'
import { defineCall, type ApiCalls } from './registry.server'
import { adminUsersOutputs } from './outputs/admin-users'

/**
 * Admin > Users and Admin > Agents (spec 01 section 7). Site admins only. The payload schemas live
 * beside the domain functions (listUsersInput, updateUserInput, userAclDataInput, listAgentsInput,
 * tunnelConnectionsInput), which check the caller first: anyone else gets 403 whatever they send.
 */
const payload = z.object({}).passthrough()

export const adminUserCalls: ApiCalls = {
  'admin/users': defineCall({ input: payload, output: adminUsersOutputs['admin/users'], handler: ({ actor }, input) => listAdminUsers(actor, input) }),
  'admin/updateUser': defineCall({ input: payload, output: adminUsersOutputs['admin/updateUser'], handler: ({ actor }, input) => updateAdminUser(actor, input) }),
  'admin/userAclData': defineCall({ input: payload, output: adminUsersOutputs['admin/userAclData'], handler: ({ actor }, input) => fetchUserAclData(actor, input) }),
  'admin/agents': defineCall({ input: payload, output: adminUsersOutputs['admin/agents'], handler: ({ actor }, input) => listAdminAgents(actor, input) }),
  'admin/tunnelConnections': defineCall({ input: payload, output: adminUsersOutputs['admin/tunnelConnections'], handler: ({ actor }, input) => listAdminTunnelConnections(actor, input) }),
}
