import { z } from 'zod'
import { type UserActor } from '~/domain/actor'
import { createAccount } from '~/domain/auth/account.server'
import { requestEmailVerification, requestPasswordReset } from '~/domain/auth/email-flows.server'
import { changeEmail, changeName, changePassword } from '~/domain/auth/own-account.server'
import { revokeApiTokenValue } from '~/domain/auth/api-tokens.server'
import { accessDenied } from '~/domain/errors'
import { defineCall, definePublicCall, type ApiCalls } from './registry.server'
import { authOutputs } from './outputs/auth'

/** Account calls name their uid; it must be the caller's own. */
function requireSelf(actor: UserActor, uid: string) {
  if (uid !== actor.userId) throw accessDenied('You can only change your own account')
}

/** Auth calls of spec 01 section 7. */
export const authCalls: ApiCalls = {
  'auth/authorized': defineCall({
    input: z.object({}),
    output: authOutputs['auth/authorized'],
    handler: async ({ actor }) => ({ authorized: true, uid: actor.userId, email: actor.email, name: actor.name, admin: actor.isSiteAdmin }),
  }),
  'auth/logout': defineCall({
    input: z.object({}),
    // Ends what the call was made with: the session, or the API token of a bearer caller.
    output: authOutputs['auth/logout'],
    handler: async ({ actor, token }) => {
      if (token) await revokeApiTokenValue(actor, token)
      return { ok: true }
    },
  }),
  'auth/nameChange': defineCall({
    input: z.object({ uid: z.string(), name: z.string() }),
    output: authOutputs['auth/nameChange'],
    handler: async ({ actor }, { uid, name }) => {
      requireSelf(actor, uid)
      return changeName(actor, { name })
    },
  }),
  'auth/emailChange': defineCall({
    input: z.object({ uid: z.string(), email: z.string(), password: z.string() }),
    output: authOutputs['auth/emailChange'],
    handler: async ({ actor }, { uid, email, password }) => {
      requireSelf(actor, uid)
      return changeEmail(actor, { email, currentPassword: password })
    },
  }),
  'auth/passwordChange': defineCall({
    input: z.object({ uid: z.string(), password: z.string(), current: z.string() }),
    output: authOutputs['auth/passwordChange'],
    handler: async ({ actor, token }, { uid, password, current }) => {
      requireSelf(actor, uid)
      return changePassword(actor, { currentPassword: current, password }, token)
    },
  }),
  'public/auth/userCreate': definePublicCall({
    input: z.object({ email: z.string(), password: z.string(), name: z.string() }),
    output: authOutputs['public/auth/userCreate'],
    handler: async ({ info }, input) => createAccount(input, info),
  }),
  'public/auth/emailVerifyRequest': definePublicCall({
    input: z.object({ email: z.string() }),
    output: authOutputs['public/auth/emailVerifyRequest'],
    handler: async ({ info }, input) => requestEmailVerification(input, info),
  }),
  'public/auth/passwordResetRequest': definePublicCall({
    input: z.object({ email: z.string() }),
    output: authOutputs['public/auth/passwordResetRequest'],
    handler: async ({ info }, input) => requestPasswordReset(input, info),
  }),
}
