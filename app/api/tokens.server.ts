import { z } from 'zod'
import { createApiToken, createApiTokenWithPassword, listApiTokens, revokeApiToken, revokeApiTokenValue } from '~/domain/auth/api-tokens.server'
import { defineCall, definePublicCall, type ApiCalls } from './registry.server'

/** Personal API tokens (CLI and scripts). The plaintext token is returned once, at creation. */
export const tokenCalls: ApiCalls = {
  /** CLI login: e-mail + password -> token (same rules and rate limits as sign-in). */
  'public/auth/tokenCreate': definePublicCall({
    input: z.object({}).passthrough(),
    handler: ({ info }, input) => createApiTokenWithPassword(input, info),
  }),
  'token/create': defineCall({
    input: z.object({}).passthrough(),
    handler: ({ actor }, input) => createApiToken(actor, input),
  }),
  'token/list': defineCall({
    input: z.object({}).passthrough(),
    handler: async ({ actor }) => ({ tokens: await listApiTokens(actor) }),
  }),
  'token/revoke': defineCall({
    input: z.object({ id: z.string() }),
    handler: ({ actor }, input) => revokeApiToken(actor, input.id),
  }),
  /** Revokes the token this request was made with (CLI logout). */
  'token/revokeCurrent': defineCall({
    input: z.object({}).passthrough(),
    handler: async ({ actor, token }) => (token ? revokeApiTokenValue(actor, token) : { revoked: false }),
  }),
}
