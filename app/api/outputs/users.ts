import { z } from 'zod'

/** What each call of ../users.server.ts answers (JSON: times are ISO strings). */
export const usersOutputs = {
  'user/updateProfile': z.object({
    profile: z.object({
      locale: z.string().nullable(),
      timeZone: z.string().nullable(),
      preferenceDefaultOrg: z.string().nullable(),
      preferenceSidebarCollapsed: z.boolean(),
      preferenceOrgIndexSort: z.string().nullable(),
    }),
  }),
}
