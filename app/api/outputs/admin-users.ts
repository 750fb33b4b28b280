import { z } from 'zod'

const adminUser = z.object({
  uid: z.string(),
  displayName: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  customClaims: z.object({ admin: z.literal(true).optional(), mvr_agent: z.literal(true).optional() }),
  times: z.object({ creation: z.string(), lastSignIn: z.string().nullable() }),
})

/** What each call of ../admin-users.server.ts answers (JSON: times are ISO strings). */
export const adminUsersOutputs = {
  'admin/users': z.object({ items: z.array(adminUser), nextPageToken: z.string().nullable() }),
  'admin/updateUser': adminUser,
  'admin/userAclData': z.object({
    acl: z.array(z.object({ id: z.string(), organizationId: z.string(), userRoleId: z.string(), resourceId: z.string().nullable(), created: z.string() })),
    compiledAcl: z.array(z.object({ organizationId: z.string(), projectId: z.string(), permissions: z.array(z.string()) })),
  }),
  'admin/agents': z.object({
    items: z.array(
      z.object({
        id: z.string(),
        clientName: z.string(),
        product: z.string(),
        version: z.string(),
        enabled: z.boolean(),
        organizationId: z.string().nullable(),
        organizationName: z.string().nullable(),
        enrollmentCodes: z.array(z.object({ code: z.string(), created: z.string(), current: z.boolean() })),
      })
    ),
    nextPageToken: z.string().nullable(),
  }),
  'admin/tunnelConnections': z.object({
    items: z.array(
      z.object({
        id: z.string(),
        address: z.string(),
        port: z.number(),
        relayNode: z.string(),
        createdAt: z.string(),
        lastSeen: z.string(),
        forwards: z.record(z.object({ connectionsActive: z.number() })),
      })
    ),
  }),
}
