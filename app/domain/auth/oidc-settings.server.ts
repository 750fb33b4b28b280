import { type Config } from '../../../server/config'

/**
 * The one external sign-in provider: OIDC_* settings (any OpenID Connect provider) or, when only
 * the older GOOGLE_* names are set, Google mapped onto the same generic client.
 */
export type OidcSettings = {
  /** 'google' when configured through GOOGLE_*: the account provider, button and callback path keep Google's names */
  kind: 'google' | 'oidc'
  issuer: string
  clientId: string
  clientSecret: string | undefined
  buttonLabel: string
  /** how messages name the sign-in ("Google sign-in", "Single sign-on") */
  displayName: string
  scopes: string
  prompt: string | undefined
  callbackPath: string
}

export function oidcSettingsFrom(config: Config): OidcSettings | null {
  if (config.OIDC_CLIENT_ID && config.OIDC_ISSUER) {
    return {
      kind: 'oidc',
      issuer: config.OIDC_ISSUER,
      clientId: config.OIDC_CLIENT_ID,
      clientSecret: config.OIDC_CLIENT_SECRET,
      buttonLabel: config.OIDC_BUTTON_LABEL,
      displayName: 'Single sign-on',
      scopes: config.OIDC_SCOPES,
      prompt: config.OIDC_PROMPT,
      callbackPath: '/auth/oidc/callback',
    }
  }
  if (config.GOOGLE_CLIENT_ID) {
    return {
      kind: 'google',
      issuer: config.GOOGLE_ISSUER,
      clientId: config.GOOGLE_CLIENT_ID,
      clientSecret: config.GOOGLE_CLIENT_SECRET,
      buttonLabel: 'Sign in with Google',
      displayName: 'Google sign-in',
      scopes: 'openid email profile',
      // Google shows its account chooser by default so a shared browser can pick another account
      prompt: config.OIDC_PROMPT ?? 'select_account',
      callbackPath: '/auth/google/callback',
    }
  }
  return null
}
