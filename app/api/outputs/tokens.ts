import { z } from 'zod'
import { isoTime } from './common'

/** A token as lists show it (never its secret). */
const tokenRow = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  createdAt: isoTime,
  lastUsedAt: isoTime.nullable(),
  expiresAt: isoTime.nullable(),
  scope: z.string(),
  permissions: z.array(z.string()),
})

/** A token just created: the row plus its secret, shown this once. */
const createdToken = tokenRow.extend({ token: z.string() })

/** What each call of ../tokens.server.ts answers (JSON: times are ISO strings). */
export const tokensOutputs = {
  'public/auth/tokenCreate': createdToken,
  'token/create': createdToken,
  'token/list': z.object({
    tokens: z.array(
      tokenRow
    ),
  }),
  'token/revoke': z.object({ revoked: z.boolean() }),
  'token/revokeCurrent': z.object({ revoked: z.boolean() }),
  'organization/serviceTokenList': z.object({
    tokens: z.array(
      tokenRow.extend({ createdByName: z.string().nullable() })
    ),
  }),
  'organization/serviceTokenCreate': createdToken.extend({ createdByName: z.string().nullable() }),
  'organization/serviceTokenRevoke': z.object({ revoked: z.boolean() }),
}
