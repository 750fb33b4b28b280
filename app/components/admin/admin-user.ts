/** One account as the site-admin users table lists it (the edit dialog shows and changes it). */
export type AdminUser = {
  uid: string
  displayName: string
  email: string
  emailVerified: boolean
  disabled: boolean
  customClaims: { admin?: true; mvr_agent?: true }
  times: { creation: string; lastSignIn: string | null }
}
