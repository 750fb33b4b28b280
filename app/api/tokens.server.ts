import { z } from 'zod'
import { createApiToken, createApiTokenWithPassword, listApiTokens, revokeApiToken, revokeApiTokenValue } from '~/domain/auth/api-tokens.server'
import { tokenSpecFields } from '~/domain/auth/token-input'
import { createServiceToken, listServiceTokens, revokeServiceToken } from '~/domain/auth/service-tokens.server'
import { defineCall, definePublicCall, type ApiCalls } from './registry.server'
import { tokensOutputs } from './outputs/tokens'

/** CLI login: the token's name may be left out (the domain names it 'CLI <date>'). */
const signInTokenSpec = tokenSpecFields.extend({ name: z.string().trim().max(100, 'Token name is too long').optional() })

/** API tokens (CLI and scripts, CI). The plaintext token is returned once, at creation. */
export const tokenCalls: ApiCalls = {
  /** CLI login: e-mail + password -> token with a name, scope and expiry (same rules and rate limits as sign-in). */
  'public/auth/tokenCreate': definePublicCall({
    input: signInTokenSpec.extend({ email: z.string(), password: z.string() }),
    output: tokensOutputs['public/auth/tokenCreate'],
    handler: ({ info }, input) => createApiTokenWithPassword(input, info),
  }),
  'token/create': defineCall({
    input: tokenSpecFields,
    output: tokensOutputs['token/create'],
    handler: ({ actor }, input) => createApiToken(actor, input),
  }),
  'token/list': defineCall({
    input: z.object({}),
    output: tokensOutputs['token/list'],
    handler: async ({ actor }) => ({ tokens: await listApiTokens(actor) }),
  }),
  'token/revoke': defineCall({
    input: z.object({ id: z.string() }),
    output: tokensOutputs['token/revoke'],
    handler: ({ actor }, input) => revokeApiToken(actor, input.id),
  }),
  /** Revokes the token this request was made with (CLI logout). */
  'token/revokeCurrent': defineCall({
    input: z.object({}),
    output: tokensOutputs['token/revokeCurrent'],
    handler: async ({ actor, token }) => (token ? revokeApiTokenValue(actor, token) : { revoked: false }),
  }),
  /** Organization service tokens (org.update): belong to the organization, survive their creator leaving. */
  'organization/serviceTokenList': defineCall({
    input: z.object({ organizationId: z.string() }),
    output: tokensOutputs['organization/serviceTokenList'],
    handler: async ({ actor }, input) => ({ tokens: await listServiceTokens(actor, input.organizationId) }),
  }),
  'organization/serviceTokenCreate': defineCall({
    input: tokenSpecFields.extend({ organizationId: z.string() }),
    output: tokensOutputs['organization/serviceTokenCreate'],
    handler: ({ actor }, { organizationId, ...spec }) => createServiceToken(actor, organizationId, spec),
  }),
  'organization/serviceTokenRevoke': defineCall({
    input: z.object({ organizationId: z.string(), id: z.string() }),
    output: tokensOutputs['organization/serviceTokenRevoke'],
    handler: ({ actor }, input) => revokeServiceToken(actor, input.organizationId, input.id),
  }),
}
