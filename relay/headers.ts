/**
 * Headers and cookies on the browser side of the relay (docs/security.md): the relay cookie that
 * binds a session to one browser, what agent headers may reach the browser, and the relay's own
 * minimal security headers.
 */
import type http from 'node:http'
import type http2 from 'node:http2'
import { portalFrameAncestors, relayServedOverHttps } from '../app/domain/relay/address.server'
import { relaySessionLimits } from '../app/domain/relay/session-checks.server'
import { getConfig } from '../app/utils/env.server'
import { hostCookieName } from '../app/utils/host-cookie.server'

/** Headers that describe one hop and never travel through a proxy (RFC 9110 7.6.1, plus HTTP/2's bans). */
export const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'http2-settings'])

/** Cookies the agent may never see nor set: the relay's binding cookie and the portal's session cookie (any form). */
const RESERVED_COOKIES = new Set(['pf_relay', '__Host-pf_relay', 'pf_session', '__Host-pf_session', 'pf_google', '__Host-pf_google', 'pf_oidc', '__Host-pf_oidc'])

/** Values derived from the configuration alone, computed once per configuration (they were several URL parses per request). */
let derived: { config: object; cookieName: string; frameAncestors: string } | null = null
function fromConfig() {
  const config = getConfig()
  if (derived?.config !== config) derived = { config, cookieName: hostCookieName('pf_relay', relayServedOverHttps()), frameAncestors: `frame-ancestors ${portalFrameAncestors().join(' ')}` }
  return derived
}

export const relayCookieName = () => fromConfig().cookieName

/**
 * The binding cookie, on the session origin only (no Domain, Path=/). SameSite=None + Partitioned:
 * the frame is a third party of the portal page in development (`*.localhost` vs the portal's
 * host), and a partitioned cookie is kept only under the top-level site that framed it, so the
 * session does not work opened directly or framed by another site. Secure is required for both
 * (browsers accept it on http://*.localhost).
 */
export function relayCookie(browserKey: string) {
  const maxAge = Math.round(relaySessionLimits().maxMs / 1000)
  return `${relayCookieName()}=${browserKey}; Path=/; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=None; Partitioned`
}

export function readRelayCookie(header: string | undefined): string | null {
  const name = relayCookieName()
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || null
  }
  return null
}

/** The browser's Cookie header without the relay's and the portal's cookies (the agent never sees them). */
export function agentCookies(cookieHeader: string): string {
  return cookieHeader
    .split(';')
    .filter((part) => !RESERVED_COOKIES.has(part.split('=')[0].trim()))
    .join(';')
    .trim()
}

/**
 * An agent cookie stays on the session's own origin: its Domain attribute is dropped (a Domain
 * would widen it to sibling hosts), reserved names are refused, and it is partitioned like the
 * relay cookie so it works inside the portal's frame and nowhere else.
 */
export function confineCookie(cookie: string): string | null {
  const [pair, ...attributes] = cookie.split(';')
  const name = pair.split('=')[0].trim()
  if (RESERVED_COOKIES.has(name) || name.startsWith('__Host-pf_') || name.startsWith('__Secure-pf_')) return null
  const kept = attributes.filter((a) => !/^\s*(domain|samesite|secure|partitioned)\s*(=|$)/i.test(a))
  if (!kept.some((a) => /^\s*path\s*=/i.test(a))) kept.push(' Path=/')
  return [pair, ...kept, ' Secure', ' SameSite=None', ' Partitioned'].join(';')
}

/** The relay's frame rule: only the portal may show relay pages in a frame. */
export const frameAncestors = () => fromConfig().frameAncestors

/** Headers of the relay's own answers (errors, redirects, /login): nothing runs, nothing is sniffed or cached. */
export function relayOwnHeaders(contentType?: string): http.OutgoingHttpHeaders {
  return {
    ...(contentType ? { 'Content-Type': contentType } : {}),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': `default-src 'none'; base-uri 'none'; form-action 'none'; ${frameAncestors()}`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  }
}

/**
 * The agent's response headers for the browser: no hop-by-hop ones, cookies confined to the
 * session origin, no service-worker scope widening, and the relay's frame rule added to the
 * agent's own CSP (browsers enforce every policy sent).
 */
export function agentResponseHeaders(h2headers: http2.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const out: http.OutgoingHttpHeaders = {}
  for (const [name, value] of Object.entries(h2headers)) {
    if (name.startsWith(':') || HOP_BY_HOP.has(name) || value === undefined) continue
    // The portal shows the agent's UI in a frame; an agent's own frame ban would blank it (frame-ancestors below replaces it).
    if (name === 'x-frame-options') continue
    // A worker may never claim more than its script's directory (and worker scripts are refused anyway).
    if (name === 'service-worker-allowed') continue
    if (name === 'set-cookie') {
      out[name] = (Array.isArray(value) ? value : [value]).map(confineCookie).filter((c): c is string => c !== null)
      continue
    }
    out[name] = value
  }
  const csp = out['content-security-policy']
  ;(out as Record<string, http.OutgoingHttpHeader>)['content-security-policy'] = [...(csp === undefined ? [] : Array.isArray(csp) ? csp : [String(csp)]), frameAncestors()]
  out['referrer-policy'] ??= 'same-origin'
  return out
}
