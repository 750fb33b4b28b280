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
 * Security headers of the portal (docs/security.md), as helmet defines them: a CSP whose scripts need the
 * per-request nonce (Remix's inline scripts carry it, app/entry.server.tsx), frames only from the
 * relay's session origins, never framed itself; nosniff, a same-origin Referrer-Policy (a
 * stricter `no-referrer` would make browsers send `Origin: null` on same-origin form posts),
 * Permissions-Policy, and HSTS only when the portal is served over HTTPS. Vite's development
 * server injects its own inline scripts, so `--dev` runs without the CSP.
 *
 * helmet rebuilt every header on every request (eleven middlewares, the CSP from its directives):
 * a measurable share of a small page's CPU. Its output only varies with the nonce and the relay's
 * session pattern (known once the relay listens), so helmet runs once per pattern against a
 * recording response with a placeholder nonce, and each request replays those headers with its
 * own nonce. Nonces come from a pool of CSPRNG bytes (one system call per 256 requests).
 */
export function securityHeaders(config: Config, options: { dev: boolean }): express.RequestHandler[] {
  const helmetHandler = helmetFor(config, options)
  let recorded: { pattern: string; headers: Array<[string, string]> } | null = null
  const headersFor = (pattern: string) => {
    if (recorded?.pattern !== pattern) recorded = { pattern, headers: recordHeaders(helmetHandler) }
    return recorded.headers
  }
  return [
    (_req, res, next) => {
      const nonce = nextNonce()
      ;(res.locals as NonceLocals).cspNonce = nonce
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY)
      for (const [name, value] of headersFor(relaySessionOriginPattern())) res.setHeader(name, value.includes(NONCE_PLACEHOLDER) ? value.replace(NONCE_PLACEHOLDER, nonce) : value)
      next()
    },
  ]
}

/** Stands for the nonce while helmet's output is recorded; base64 never contains `!`. */
const NONCE_PLACEHOLDER = '!pf-nonce!'

/** Runs helmet (synchronously, as it is) on a stand-in response and returns the headers it set. */
function recordHeaders(handler: express.RequestHandler): Array<[string, string]> {
  const headers = new Map<string, string>()
  const res = {
    locals: { cspNonce: NONCE_PLACEHOLDER },
    setHeader: (name: string, value: string | number | readonly string[]) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  }
  let done = false
  handler({ headers: {}, method: 'GET' } as express.Request, res as unknown as express.Response, (error?: unknown) => {
    if (error) throw error
    done = true
  })
  if (!done) throw new Error('helmet did not finish synchronously')
  return [...headers]
}

let pool = Buffer.alloc(0)
let poolOffset = 0
function nextNonce() {
  if (poolOffset + 16 > pool.length) {
    pool = randomBytes(16 * 256)
    poolOffset = 0
  }
  const nonce = pool.toString('base64', poolOffset, poolOffset + 16)
  poolOffset += 16
  return nonce
}

/** helmet as the portal configures it (exported for the test that replays must equal it). */
export function helmetFor(config: Config, options: { dev: boolean }): express.RequestHandler {
  const https = config.publicUrl.startsWith('https:')
  const tileOrigin = config.MAP_TILE_URL ? new URL(config.MAP_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin : null
  const nonce = (_req: unknown, res: unknown) => `'nonce-${((res as express.Response).locals as NonceLocals).cspNonce}'`
  return helmet({
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
  })
}
