import { createCookie, type Cookie, type CookieOptions } from '@remix-run/node'
import { getConfig } from './env.server'

/**
 * The one place that decides how the portal names and flags its cookies. Served over HTTPS, a
 * cookie is `__Host-` prefixed: the browser then accepts it only with Secure, Path=/ and no Domain,
 * so no other host (a relay session origin, a sibling sub-domain) can plant or overwrite it.
 * Over plain http (localhost development) browsers refuse the prefix, so the plain name is used.
 */
export function portalServedOverHttps(): boolean {
  return getConfig().publicUrl.startsWith('https:')
}

export function hostCookieName(base: string, secure: boolean): string {
  return secure ? `__Host-${base}` : base
}

/** A Remix cookie whose name and Secure flag follow the configuration read at use time. */
export function hostCookie(base: string, options: Omit<CookieOptions, 'secure' | 'path' | 'domain'>) {
  const made = new Map<string, Cookie>()
  const current = () => {
    const secure = portalServedOverHttps()
    const name = hostCookieName(base, secure)
    let cookie = made.get(name)
    if (!cookie) {
      cookie = createCookie(name, { ...options, path: '/', secure })
      made.set(name, cookie)
    }
    return cookie
  }
  return {
    get name() {
      return current().name
    },
    parse: (header: string | null, parseOptions?: Parameters<Cookie['parse']>[1]) => current().parse(header, parseOptions),
    serialize: (value: unknown, serializeOptions?: Parameters<Cookie['serialize']>[1]) => current().serialize(value, serializeOptions),
  }
}
