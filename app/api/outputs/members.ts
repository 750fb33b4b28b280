import { z } from 'zod'

/** What each call of ../members.server.ts answers (JSON: times are ISO strings). */
export const membersOutputs = {
  'organization/memberList': z.object({
    members: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        email: z.string(),
        lastSeen: z.number().nullable(),
        isOwner: z.boolean(),
        isYou: z.boolean(),
        canRemove: z.boolean(),
        accessRights: z.array(
          z.object({
            id: z.string(),
            resourceType: z.enum(['Project', 'Global', 'Organization']),
            resourceId: z.string().nullable(),
            scopeName: z.string(),
            roleId: z.string(),
            roleName: z.string(),
            roleChoices: z.array(z.object({ id: z.string(), name: z.string() })),
            canChangeRole: z.boolean(),
            canRemove: z.boolean(),
          })
        ),
      })
    ),
    memberRoles: z.array(z.object({ id: z.string(), name: z.string() })),
  }),
  'organization/memberAdd': z.object({ memberId: z.string(), aclId: z.string() }),
  'organization/memberRemove': z.object({ removed: z.string() }),
  'organization/userRoleAssign': z.object({ aclId: z.string(), roleId: z.string() }),
  'organization/userRoleUnassign': z.object({ aclId: z.string() }),
}
