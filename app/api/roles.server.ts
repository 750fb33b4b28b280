import { z } from 'zod'
import {
  checkUserRoles,
  createRole,
  createRoleInput,
  deleteRole,
  deleteRoleInput,
  listRoles,
  queryUserRoles,
  queryUserRolesInput,
  recompileAcls,
  recompileUserAcl,
  updateRole,
  updateRoleInput,
  validateUserAcl,
} from '~/domain/roles/roles.server'
import { defineCall, type ApiCalls } from './registry.server'
import { rolesOutputs } from './outputs/roles'

const userId = z.object({ userId: z.string().min(1) })

/** Role and ACL calls (spec 01 section 7: auth/userRole*, recompileAcls, admin/userAcl*). */
export const roleCalls: ApiCalls = {
  'auth/userRoleList': defineCall({
    input: z.object({ organizationId: z.string() }),
    output: rolesOutputs['auth/userRoleList'],
    handler: ({ actor }, input) => listRoles(actor, input.organizationId),
  }),
  'auth/userRoleCreate': defineCall({ input: createRoleInput, output: rolesOutputs['auth/userRoleCreate'], handler: ({ actor }, input) => createRole(actor, input) }),
  'auth/userRoleUpdate': defineCall({ input: updateRoleInput, output: rolesOutputs['auth/userRoleUpdate'], handler: ({ actor }, input) => updateRole(actor, input) }),
  'auth/userRoleDelete': defineCall({ input: deleteRoleInput, output: rolesOutputs['auth/userRoleDelete'], handler: ({ actor }, input) => deleteRole(actor, input) }),
  'auth/userRolesQuery': defineCall({ input: queryUserRolesInput, output: rolesOutputs['auth/userRolesQuery'], handler: ({ actor }, input) => queryUserRoles(actor, input) }),
  'auth/userRolesCheck': defineCall({ input: z.object({}), output: rolesOutputs['auth/userRolesCheck'], handler: ({ actor }) => checkUserRoles(actor) }),
  'auth/recompileAcls': defineCall({ input: z.object({}), output: rolesOutputs['auth/recompileAcls'], handler: ({ actor }) => recompileAcls(actor) }),
  'admin/userAclValidate': defineCall({ input: userId, output: rolesOutputs['admin/userAclValidate'], handler: ({ actor }, input) => validateUserAcl(actor, input.userId) }),
  'admin/userAclRecompile': defineCall({ input: userId, output: rolesOutputs['admin/userAclRecompile'], handler: ({ actor }, input) => recompileUserAcl(actor, input.userId) }),
}
