import { getConfig } from '~/utils/env.server'

/**
 * The relay base address a browser should use (API call `relay`), without trailing slashes.
 * RELAY_PUBLIC_URL when set; otherwise the relay's port on the host name the browser used for the
 * portal, so a portal opened as 127.0.0.1 or a LAN name reaches its relay the same way.
 */
export function relayBaseAddress(requestUrl?: string): string {
  const config = getConfig()
  const base = new URL(config.relayPublicUrl)
  if (!config.RELAY_PUBLIC_URL && requestUrl) base.hostname = new URL(requestUrl).hostname
  return base.toString().replace(/\/+$/, '')
}

/**
 * Whether a browser origin is the portal's: the configured PUBLIC_URL, or (without PUBLIC_URL)
 * the portal's port on the host name the relay was reached by. Relay /login answers only these.
 */
export function isPortalOrigin(origin: string | undefined, relayHost: string | undefined): boolean {
  if (!origin) return false
  const config = getConfig()
  try {
    const from = new URL(origin)
    const portal = new URL(config.publicUrl)
    if (from.origin === portal.origin) return true
    if (config.PUBLIC_URL || !relayHost) return false
    const relayHostname = new URL(`http://${relayHost}`).hostname
    return from.protocol === portal.protocol && from.port === portal.port && from.hostname === relayHostname
  } catch {
    return false
  }
}

let scheme: { url: string; protocol: string; port: string } | null = null

/** The relay's public scheme and port suffix (`:3001`, or '' for the scheme's default port); parsed once per address (read by every page's CSP). */
function relayScheme() {
  const url = getConfig().relayPublicUrl
  if (scheme?.url !== url) {
    const base = new URL(url)
    scheme = { url, protocol: base.protocol, port: base.port ? `:${base.port}` : '' }
  }
  return scheme
}

/** The origin of one proxy session: `{hostLabel}.{RELAY_DOMAIN}` on the relay's public scheme and port. */
export function relaySessionOrigin(hostLabel: string): string {
  const { protocol, port } = relayScheme()
  return `${protocol}//${hostLabel}.${getConfig().RELAY_DOMAIN}${port}`
}

/** CSP source matching every session origin (the portal's frame-src). */
export function relaySessionOriginPattern(): string {
  const { protocol, port } = relayScheme()
  return `${protocol}//*.${getConfig().RELAY_DOMAIN}${port}`
}

/** Whether the relay is reached over HTTPS (its cookie then gets the `__Host-` prefix). */
export function relayServedOverHttps(): boolean {
  return relayScheme().protocol === 'https:'
}

const HOST_LABEL = /^[a-z0-9]{16,40}$/

/** The session label a request's Host names (`{label}.{RELAY_DOMAIN}`, any port), or null for any other host. */
export function hostLabelOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null
  let hostname: string
  try {
    hostname = new URL(`http://${hostHeader}`).hostname.toLowerCase()
  } catch {
    return null
  }
  const suffix = `.${getConfig().RELAY_DOMAIN}`
  if (!hostname.endsWith(suffix)) return null
  const label = hostname.slice(0, -suffix.length)
  return HOST_LABEL.test(label) ? label : null
}

/**
 * Origins allowed to frame relay pages (CSP frame-ancestors on the relay's answers): the portal's
 * PUBLIC_URL; without one (development), the portal's port on the loopback names.
 */
export function portalFrameAncestors(): string[] {
  const config = getConfig()
  const portal = new URL(config.publicUrl)
  if (config.PUBLIC_URL) return [portal.origin]
  const port = portal.port ? `:${portal.port}` : ''
  return [...new Set([portal.origin, `${portal.protocol}//localhost${port}`, `${portal.protocol}//127.0.0.1${port}`, `${portal.protocol}//[::1]${port}`])]
}
