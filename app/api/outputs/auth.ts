import { z } from 'zod'

/** What each call of ../auth.server.ts answers (JSON: times are ISO strings). */
export const authOutputs = {
  'auth/authorized': z.object({ authorized: z.boolean(), uid: z.string(), email: z.string(), name: z.string(), admin: z.boolean() }),
  'auth/logout': z.object({ ok: z.boolean() }),
  'auth/nameChange': z.object({ name: z.string() }),
  'auth/emailChange': z.object({ email: z.string(), signedOut: z.boolean() }),
  'auth/passwordChange': z.object({ ok: z.boolean() }),
  'public/auth/userCreate': z.object({ ok: z.literal(true) }),
  'public/auth/emailVerifyRequest': z.object({ ok: z.boolean() }),
  'public/auth/passwordResetRequest': z.object({ ok: z.boolean() }),
}
