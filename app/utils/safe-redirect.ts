/**
 * The one check for every redirect target taken from a request (login ?redirect=, the login form's
 * redirect field, the portal's ?close=, /a/... rewrites, the Google sign-in return path). Only a
 * same-origin relative path survives; anything else becomes `fallback`.
 *
 * Browsers are lenient with Location values: they drop tabs and newlines, treat `\` as `/`, read
 * `//host` and `/\host` as another host, and a target may arrive percent-encoded more than once. So
 * the target is judged in its most-decoded, cleaned form, then resolved against a placeholder
 * origin; the answer is the resolved path (never the raw input), checked once more.
 */
const PLACEHOLDER = 'http://same-origin.invalid'

// eslint-disable-next-line no-control-regex
const CONTROL_AND_SPACE = /[\u0000-\u0020\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028\u2029\u202f\u205f\u3000\ufeff]/g

function decodeFully(value: string): string {
  let current = value
  for (let i = 0; i < 5; i++) {
    let next: string
    try {
      next = decodeURIComponent(current)
    } catch {
      return current
    }
    if (next === current) return current
    current = next
  }
  return current
}

const looksOffSite = (path: string) => !path.startsWith('/') || path.startsWith('//') || /^\/*[a-z][a-z0-9+.-]*:/i.test(path)

export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (typeof target !== 'string' || target.length === 0 || target.length > 2048) return fallback
  const probe = decodeFully(target).replace(CONTROL_AND_SPACE, '').replace(/\\/g, '/')
  if (looksOffSite(probe)) return fallback
  const cleaned = target.replace(CONTROL_AND_SPACE, '').replace(/\\/g, '/')
  if (looksOffSite(cleaned)) return fallback
  let resolved: URL
  try {
    resolved = new URL(cleaned, PLACEHOLDER)
  } catch {
    return fallback
  }
  if (resolved.origin !== PLACEHOLDER) return fallback
  const result = resolved.pathname + resolved.search + resolved.hash
  // `/.//evil.example` resolves to the path `//evil.example`, which a browser would read as a host.
  if (looksOffSite(result) || looksOffSite(decodeFully(result).replace(CONTROL_AND_SPACE, '').replace(/\\/g, '/'))) return fallback
  return result
}
