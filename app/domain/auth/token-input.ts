import { z } from 'zod'
import { isPermission, type Permission } from '../access/catalogue'
import { TOKEN_EXPIRY_DAYS, TOKEN_SCOPES } from './token-scope'

const DAY_MS = 24 * 60 * 60 * 1000

/** Name, scope and expiry of a new token (personal or service); one schema for the UI, API and CLI. */
export const tokenSpecFields = z.object({
  name: z.string({ required_error: 'Token name is required' }).trim().min(1, 'Token name is required').max(100, 'Token name is too long'),
  scope: z.enum(TOKEN_SCOPES, { errorMap: () => ({ message: 'Scope must be full, read or custom' }) }).default('full'),
  permissions: z
    .array(z.string().refine(isPermission, (p) => ({ message: `Unknown permission '${p}'` })))
    .max(100)
    .default([]),
  /** 1, 7, 30 or 90 days; null or absent = never expires */
  expiresInDays: z
    .union([z.literal(TOKEN_EXPIRY_DAYS[0]), z.literal(TOKEN_EXPIRY_DAYS[1]), z.literal(TOKEN_EXPIRY_DAYS[2]), z.literal(TOKEN_EXPIRY_DAYS[3]), z.null()], {
      errorMap: () => ({ message: 'Expiry must be 1, 7, 30 or 90 days, or none' }),
    })
    .optional()
    .default(null),
})

/** The fields checked together (a custom scope needs permissions) and turned into what is stored. */
export const tokenSpecInput = tokenSpecFields
  .superRefine((v, ctx) => {
    if (v.scope === 'custom' && v.permissions.length === 0) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['permissions'], message: 'Choose at least one permission for a custom scope' })
    }
  })
  .transform((v) => ({
    name: v.name,
    scope: v.scope,
    permissions: v.scope === 'custom' ? [...new Set(v.permissions as Permission[])] : [],
    expiresAt: v.expiresInDays === null ? null : new Date(Date.now() + v.expiresInDays * DAY_MS),
  }))

export type TokenSpec = z.output<typeof tokenSpecInput>
