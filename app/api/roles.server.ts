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

const userId = z.object({ userId: z.string().min(1) })

/** Role and ACL calls (spec 01 section 7: auth/userRole*, recompileAcls, admin/userAcl*). */
export const roleCalls: ApiCalls = {
  'auth/userRoleList': defineCall({
    input: z.object({ organizationId: z.string() }),
    handler: ({ actor }, input) => listRoles(actor, input.organizationId),
  }),
  'auth/userRoleCreate': defineCall({ input: createRoleInput, handler: ({ actor }, input) => createRole(actor, input) }),
  'auth/userRoleUpdate': defineCall({ input: updateRoleInput, handler: ({ actor }, input) => updateRole(actor, input) }),
  'auth/userRoleDelete': defineCall({ input: deleteRoleInput, handler: ({ actor }, input) => deleteRole(actor, input) }),
  'auth/userRolesQuery': defineCall({ input: queryUserRolesInput, handler: ({ actor }, input) => queryUserRoles(actor, input) }),
  'auth/userRolesCheck': defineCall({ input: z.object({}), handler: ({ actor }) => checkUserRoles(actor) }),
  'auth/recompileAcls': defineCall({ input: z.object({}), handler: ({ actor }) => recompileAcls(actor) }),
  'admin/userAclValidate': defineCall({ input: userId, handler: ({ actor }, input) => validateUserAcl(actor, input.userId) }),
  'admin/userAclRecompile': defineCall({ input: userId, handler: ({ actor }, input) => recompileUserAcl(actor, input.userId) }),
}
