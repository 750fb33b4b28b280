import { prisma } from '~/utils/db.server'

/** What ended a token (ApiToken.revokedReason); a token revoked before reasons were kept counts as 'revoked'. */
export type ApiTokenEndReason = 'revoked' | 'logout' | 'passwordReset' | 'emailChange' | 'disabled'
export const API_TOKEN_END_LABELS: Record<ApiTokenEndReason | 'expired', string> = {
  revoked: 'revoked',
  logout: 'signed out',
  passwordReset: 'password reset',
  emailChange: 'e-mail change',
  disabled: 'account disabled',
  expired: 'expired',
}
/**
 * Ends every working token of a user (password reset, e-mail change, disable). Returns the Prisma
 * promise so callers can run it inside their own transaction.
 */
export function endApiTokensOf(userId: string, reason: Exclude<ApiTokenEndReason, 'revoked' | 'logout'>, db: Pick<typeof prisma, 'apiToken'> = prisma) {
  return db.apiToken.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date(), revokedReason: reason } })
}
