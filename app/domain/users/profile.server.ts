import { z } from 'zod'
import { type Actor } from '../actor'
import { fromZodIssues, notLoggedIn } from '../errors'
import { requireAccountWrite } from '../auth/token-scope'
import { prisma } from '~/utils/db.server'

export const ORG_SORT_FIELDS = ['name', 'projectCount', 'agentCount', 'memberCount'] as const

export const profileUpdateInput = z
  .object({
    locale: z.string().trim().max(35).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Invalid locale').nullable(),
    timeZone: z
      .string()
      .trim()
      .max(64)
      .refine((tz) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: tz })
          return true
        } catch {
          return false
        }
      }, 'Unknown time zone')
      .nullable(),
    preferenceDefaultOrg: z.string().max(64).nullable(),
    preferenceSidebarCollapsed: z.boolean(),
    preferenceOrgIndexSort: z
      .string()
      .regex(new RegExp(`^(${ORG_SORT_FIELDS.join('|')}):(asc|desc)$`), 'Sort must be field:asc or field:desc')
      .nullable(),
  })
  .partial()
  .strict()

/** User/updateProfile: language, time zone and preferences of the signed-in user only. */
export async function updateProfile(actor: Actor, raw: unknown) {
  if (actor.kind !== 'user') throw notLoggedIn()
  requireAccountWrite(actor)
  const parsed = profileUpdateInput.safeParse(raw)
  if (!parsed.success) throw fromZodIssues(parsed.error.issues)
  const user = await prisma.user.update({
    where: { id: actor.userId },
    data: parsed.data,
    select: { locale: true, timeZone: true, preferenceDefaultOrg: true, preferenceSidebarCollapsed: true, preferenceOrgIndexSort: true },
  })
  return { profile: user }
}
