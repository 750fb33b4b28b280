import { z } from 'zod'
import { createAccount } from '~/domain/auth/account.server'
import { revokeSession } from '~/domain/auth/session.server'
import { defineCall, definePublicCall, type ApiCalls } from './registry.server'

/** Auth calls of spec 01 section 7. */
export const authCalls: ApiCalls = {
  'auth/authorized': defineCall({
    input: z.object({}).passthrough(),
    handler: async ({ actor }) => ({ authorized: true, uid: actor.userId, email: actor.email, name: actor.name, admin: actor.isSiteAdmin }),
  }),
  'auth/logout': defineCall({
    input: z.object({}).passthrough(),
    handler: async ({ token }) => {
      if (token) await revokeSession(token)
      return { ok: true }
    },
  }),
  'public/auth/userCreate': definePublicCall({
    input: z.object({ email: z.string(), password: z.string(), name: z.string() }),
    handler: async ({ info }, input) => createAccount(input, info),
  }),
}
