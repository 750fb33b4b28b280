/** Languages the portal is offered in; a browser's language resolves to one of them. */
export const SUPPORTED_LOCALES = [{ value: 'en', label: 'English' }] as const

/** en-GB, en-US, ... -> en; anything not supported falls back to English. */
export function resolveLocale(tag: string | null | undefined): string {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0]
  return SUPPORTED_LOCALES.find((l) => l.value === base)?.value ?? 'en'
}

export const localeLabel = (value: string) => SUPPORTED_LOCALES.find((l) => l.value === value)?.label ?? value
