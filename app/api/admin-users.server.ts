import { listAdminAgents, listAdminTunnelConnections, listAgentsInput, tunnelConnectionsInput } from '~/domain/admin/agents-admin.server'
import { fetchUserAclData, listAdminUsers, listUsersInput, updateAdminUser, updateUserInput, userAclDataInput } from '~/domain/admin/users-admin.server'
import { defineCall, type ApiCalls } from './registry.server'
import { adminUsersOutputs } from './outputs/admin-users'

/**
 * Admin > Users and Admin > Agents (spec 01 section 7). Site admins only: anyone else gets 403
 * whatever they send (checked before the body, app/routes/client.v1.$.tsx, and again by the domain).
 * The input schemas are the domain's own.
 */
export const adminUserCalls: ApiCalls = {
  'admin/users': defineCall({ input: listUsersInput, output: adminUsersOutputs['admin/users'], handler: ({ actor }, input) => listAdminUsers(actor, input) }),
  'admin/updateUser': defineCall({ input: updateUserInput, output: adminUsersOutputs['admin/updateUser'], handler: ({ actor }, input) => updateAdminUser(actor, input) }),
  'admin/userAclData': defineCall({ input: userAclDataInput, output: adminUsersOutputs['admin/userAclData'], handler: ({ actor }, input) => fetchUserAclData(actor, input) }),
  'admin/agents': defineCall({ input: listAgentsInput, output: adminUsersOutputs['admin/agents'], handler: ({ actor }, input) => listAdminAgents(actor, input) }),
  'admin/tunnelConnections': defineCall({ input: tunnelConnectionsInput, output: adminUsersOutputs['admin/tunnelConnections'], handler: ({ actor }, input) => listAdminTunnelConnections(actor, input) }),
}
