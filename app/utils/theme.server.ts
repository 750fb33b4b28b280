import { isTheme, THEME_COOKIE, type Theme } from './theme'

/** The theme chosen in this browser (cookie pf_theme), 'system' when none or an unknown value. */
export function readTheme(request: Request): Theme {
  const header = request.headers.get('Cookie') ?? ''
  const value = header
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === THEME_COOKIE)?.[1]
  return isTheme(value) ? value : 'system'
}

/** A year-long cookie for the chosen theme: a preference of this browser, not a secret. */
export function themeCookie(theme: Theme, secure: boolean) {
  return `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${365 * 24 * 3600}; SameSite=Lax${secure ? '; Secure' : ''}`
}
