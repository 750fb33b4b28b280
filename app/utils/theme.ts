/** The colour themes a person can choose; 'system' follows the device's light or dark setting. */
export const THEMES = ['system', 'light', 'dark'] as const
export type Theme = (typeof THEMES)[number]

export const THEME_COOKIE = 'pf_theme'

/** The resource route that saves the choice. */
export const THEME_ACTION = '/resources/theme'

export const isTheme = (value: unknown): value is Theme => typeof value === 'string' && (THEMES as readonly string[]).includes(value)

/** The class on <html> for a theme: none for 'system', where the CSS follows prefers-color-scheme. */
export const themeClass = (theme: Theme) => (theme === 'system' ? undefined : theme)
