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
