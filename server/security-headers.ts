import { randomBytes } from 'node:crypto'
import type express from 'express'
import helmet from 'helmet'
import { relaySessionOriginPattern } from '../app/domain/relay/address.server'
import { type Config } from './config'

/** What the portal's pages may not use at all (Permissions-Policy); the agent frame inherits it. */
const PERMISSIONS_POLICY = ['accelerometer', 'autoplay', 'camera', 'display-capture', 'geolocation', 'gyroscope', 'hid', 'magnetometer', 'microphone', 'midi', 'payment', 'serial', 'usb', 'xr-spatial-tracking']
  .map((feature) => `${feature}=()`)
  .join(', ')

type NonceLocals = { cspNonce: string }

/**
 * Security headers of the portal (docs/security.md), through helmet: a CSP whose scripts need the
 * per-request nonce (Remix's inline scripts carry it, app/entry.server.tsx), frames only from the
 * relay's session origins, never framed itself; nosniff, a same-origin Referrer-Policy (a
 * stricter `no-referrer` would make browsers send `Origin: null` on same-origin form posts),
 * Permissions-Policy, and HSTS only when the portal is served over HTTPS. Vite's development
 * server injects its own inline scripts, so `--dev` runs without the CSP.
 */
export function securityHeaders(config: Config, options: { dev: boolean }): express.RequestHandler[] {
  const https = config.publicUrl.startsWith('https:')
  const tileOrigin = config.MAP_TILE_URL ? new URL(config.MAP_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin : null
  const nonce = (_req: unknown, res: unknown) => `'nonce-${((res as express.Response).locals as NonceLocals).cspNonce}'`
  return [
    (_req, res, next) => {
      ;(res.locals as NonceLocals).cspNonce = randomBytes(16).toString('base64')
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY)
      next()
    },
    helmet({
      contentSecurityPolicy: options.dev
        ? false
        : {
            useDefaults: false,
            directives: {
              defaultSrc: ["'self'"],
              scriptSrc: ["'self'", nonce],
              // React style attributes and the toaster's injected stylesheet; styles cannot run code.
              styleSrc: ["'self'", "'unsafe-inline'"],
              imgSrc: ["'self'", 'data:', 'blob:', ...(tileOrigin ? [tileOrigin] : [])],
              fontSrc: ["'self'", 'data:'],
              connectSrc: ["'self'"],
              // The remote portal's frame: only relay session origins (read per request: the relay's port is known after start).
              frameSrc: [() => relaySessionOriginPattern()],
              frameAncestors: ["'none'"],
              objectSrc: ["'none'"],
              baseUri: ["'self'"],
              formAction: ["'self'"],
              ...(https ? { upgradeInsecureRequests: [] } : {}),
            },
          },
      // The portal is never framed (frame-ancestors 'none' above; X-Frame-Options for older browsers).
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
      strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      crossOriginEmbedderPolicy: false,
    }),
  ]
}
