/**
 * Issue 10, items 1 and 2 without a browser: portal cookies are `__Host-` prefixed exactly when
 * the portal is served over HTTPS (one place decides), RELAY_DOMAIN is validated, and session
 * origins, host parsing and the frame rules follow the configuration.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { hostLabelOf, portalFrameAncestors, relaySessionOrigin, relaySessionOriginPattern } from '~/domain/relay/address.server'
import { sessionCookie } from '~/utils/auth.server'
import { getConfig, setConfig } from '~/utils/env.server'
import { oidcSignInCookie } from '~/utils/oidc-auth.server'
import { ConfigError, loadConfig } from '../../server/config'

const original = getConfig()
const configure = (env: Record<string, string>) => setConfig(loadConfig({ NODE_ENV: 'test', DATABASE_URL: original.DATABASE_URL, ...env }))

afterEach(() => setConfig(original))

describe('portal cookies', () => {
  it('are __Host- prefixed (Secure, Path=/, no Domain) over HTTPS and keep their plain name over http', async () => {
    configure({ PUBLIC_URL: 'https://portal.example.com', RELAY_PUBLIC_URL: 'https://relay.example.com', RELAY_DOMAIN: 'relay.example.com' })
    expect(sessionCookie.name).toBe('__Host-pf_session')
    const cookie = await sessionCookie.serialize('token')
    expect(cookie).toMatch(/^__Host-pf_session=/)
    expect(cookie).toContain('Path=/')
    expect(cookie).toContain('Secure')
    expect(cookie).not.toMatch(/Domain=/i)
    expect(await sessionCookie.parse(cookie.split(';')[0])).toBe('token')
    // a plain-named cookie planted by another host is not read over HTTPS
    expect(await sessionCookie.parse(`pf_session=${cookie.split(';')[0].split('=')[1]}`)).toBeNull()
    expect(oidcSignInCookie.name).toBe('__Host-pf_oidc')
    expect(relaySessionOrigin('abcdefghijklmnopqrstuvwxyz')).toBe('https://abcdefghijklmnopqrstuvwxyz.relay.example.com')
    expect(relaySessionOriginPattern()).toBe('https://*.relay.example.com')
    expect(portalFrameAncestors()).toEqual(['https://portal.example.com'])

    configure({ PORT: '3000', RELAY_PORT: '3001' })
    expect(sessionCookie.name).toBe('pf_session')
    expect(await sessionCookie.serialize('token')).not.toContain('Secure')
    expect(relaySessionOrigin('abcdefghijklmnopqrstuvwxyz')).toBe('http://abcdefghijklmnopqrstuvwxyz.localhost:3001')
    expect(portalFrameAncestors()).toContain('http://127.0.0.1:3000')
  })
})

describe('relay hosts', () => {
  it('names a session only for {label}.{RELAY_DOMAIN}', () => {
    configure({ RELAY_DOMAIN: 'Relay.Example.com' })
    expect(getConfig().RELAY_DOMAIN).toBe('relay.example.com')
    expect(hostLabelOf('abcdefghijklmnopqrstuvwxyz.relay.example.com:8443')).toBe('abcdefghijklmnopqrstuvwxyz')
    expect(hostLabelOf('ABCDEFGHIJKLMNOPQRSTUVWXYZ.relay.example.com')).toBe('abcdefghijklmnopqrstuvwxyz')
    expect(hostLabelOf('relay.example.com')).toBeNull()
    expect(hostLabelOf('x.abcdefghijklmnopqrstuvwxyz.relay.example.com')).toBeNull()
    expect(hostLabelOf('abcdefghijklmnopqrstuvwxyz.relay.example.com.evil.test')).toBeNull()
    expect(hostLabelOf(undefined)).toBeNull()
  })

  it('refuses a RELAY_DOMAIN that is not a DNS name', () => {
    for (const bad of ['http://relay.example.com', 'relay.example.com:3001', '127.0.0.1', '*.relay.example.com']) {
      expect(() => loadConfig({ NODE_ENV: 'test', RELAY_DOMAIN: bad }), bad).toThrow(ConfigError)
    }
    expect(() => loadConfig({ NODE_ENV: 'test', RELAY_SESSION_IDLE_MINUTES: '0' })).toThrow(/RELAY_SESSION_IDLE_MINUTES/)
  })
})
