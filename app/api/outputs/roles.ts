import { z } from 'zod'
import { permission } from './common'

/** A role as it is stored (the list adds whether it is in use and may be changed). */
const role = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  organizationId: z.string(),
  resourceType: z.number(),
  permissions: z.array(permission),
  assignableBy: z.array(z.string()),
  isDefault: z.boolean(),
})

const roleAnswer = z.object({ id: z.string(), role })

/** What each call of ../roles.server.ts answers (JSON: times are ISO strings). */
export const rolesOutputs = {
  'auth/userRoleList': z.object({
    roles: z.array(
      z.object({ ...role.shape, inUse: z.boolean(), editable: z.boolean(), deletable: z.boolean() })
    ),
    organizationId: z.string(),
    canCreate: z.boolean(),
    isAdmin: z.boolean(),
    scopes: z.array(z.union([z.literal(0), z.literal(1), z.literal(2)])),
    assignableByCandidates: z.array(z.object({ id: z.string(), name: z.string(), resourceType: z.number(), organizationId: z.string() })),
  }),
  'auth/userRoleCreate': roleAnswer,
  'auth/userRoleUpdate': roleAnswer,
  'auth/userRoleDelete': z.object({ id: z.string() }),
  'auth/userRolesQuery': z.object({
    accessRights: z.array(
      z.object({
        id: z.string(),
        userId: z.string(),
        userName: z.string(),
        email: z.string(),
        organizationId: z.string(),
        organizationName: z.string(),
        projectId: z.string().nullable(),
        projectName: z.string().nullable(),
      })
    ),
  }),
  'auth/userRolesCheck': z.object({ repairs: z.array(z.string()), usersCompiled: z.number() }),
  'auth/recompileAcls': z.object({ usersCompiled: z.number() }),
  'admin/userAclValidate': z.object({ status: z.string(), differences: z.array(z.string()) }),
  'admin/userAclRecompile': z.object({ userId: z.string() }),
}
