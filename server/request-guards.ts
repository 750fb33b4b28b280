import './route-match-cache'
// Deep import: the adapter's own request/response converters (not re-exported from its index).
import { createRemixRequest, sendRemixResponse } from '@remix-run/express/dist/server.js'
import { createRequestHandler as createNodeHandler, type ServerBuild } from '@remix-run/node'
import type express from 'express'
import { withHttpRequestScope } from '../app/utils/request-scope.server'

/**
 * Guards every request passes before Remix sees it: the client address and scheme (honouring
 * X-Forwarded-* only from TRUST_PROXY hops), the cross-site request check, and the body-size cap.
 * Decisions in docs/decisions/003-sessions-and-csrf.md and 007-login-limiter-and-proxies.md.
 */

/** Set from the socket (or a trusted proxy's X-Forwarded-For); any inbound value is replaced. */
export const CLIENT_IP_HEADER = 'x-pixelfleet-client-ip'
/** `https` when the browser reached us over TLS (directly or through a trusted proxy). */
export const CLIENT_PROTO_HEADER = 'x-pixelfleet-client-proto'

/** No route takes uploads: forms and API calls are small. Larger bodies are refused unread. */
export const MAX_BODY_BYTES = 1024 * 1024

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

export function clientInfoMiddleware(): express.RequestHandler {
  return (req, _res, next) => {
    // req.ip and req.protocol follow the app's 'trust proxy' setting (TRUST_PROXY).
    req.headers[CLIENT_IP_HEADER] = (req.ip ?? req.socket.remoteAddress ?? '').replace(/^::ffff:/, '')
    req.headers[CLIENT_PROTO_HEADER] = req.protocol
    next()
  }
}

/**
 * A path with a NUL or broken percent-encoding is no page of ours; refusing it here keeps such ids
 * from reaching route loaders and the database (where a NUL byte made a 500).
 */
export function pathGuard(): express.RequestHandler {
  return (req, res, next) => {
    let decoded: string
    try {
      decoded = decodeURIComponent(req.path)
    } catch {
      decoded = '\0'
    }
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(decoded)) {
      res.status(400).json({ code: 'invalid-argument', message: 'The address contains invalid characters' })
      return
    }
    next()
  }
}

const originOf = (value: string) => {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null
  } catch {
    return null
  }
}

/** The portal's session cookie; a request without it carries no ambient credential. */
const hasSessionCookie = (cookieHeader: string | undefined) => /(?:^|;\s*)(?:__Host-)?pf_session=/.test(cookieHeader ?? '')

/**
 * Cross-site request forgery check for every state-changing request: the Origin header decides,
 * the Referer when Origin is absent; a foreign (or opaque `null`) source is refused. A request with
 * neither header is not a browser's cross-site form post (browsers send Origin on those) and is
 * let through; SameSite=Lax cookies are the second line. The only exemption is a bearer-token API
 * request that carries no session cookie, because then nothing ambient authenticates it.
 */
export function csrfMiddleware(publicUrl: () => string): express.RequestHandler {
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next()
    const bearerOnly = /^Bearer\s+\S/i.test(req.headers.authorization ?? '') && !hasSessionCookie(req.headers.cookie)
    if (bearerOnly) return next()
    const source = req.headers.origin ?? req.headers.referer
    if (source === undefined) return next()
    const url = originOf(source)
    const sameSite = url !== null && (url.origin === originOf(publicUrl())?.origin || url.host === req.headers.host)
    if (!sameSite) {
      res.status(403).json({ code: 'csrf', message: 'Cross-site request refused' })
      return
    }
    next()
  }
}

class PayloadTooLargeError extends Error {}

const refused = new WeakSet<express.Request>()

/** Lingering close after a 413: how much more of the upload is read (and dropped), and for how long. */
const LINGER_BYTES = 16 * 1024 * 1024
const LINGER_MS = 5_000

/**
 * Answers 413 straight on the socket: Node's own response path would either read the rest of the
 * upload (keep-alive) or reset the connection at once (Connection: close). A reset while the
 * client is still sending makes its kernel drop the unread answer (the client sees ECONNRESET, not
 * 413), so this is a lingering close, as nginx does: answer, half-close, then read and drop what
 * the client still sends until it stops, for at most LINGER_MS / LINGER_BYTES.
 */
function refuseTooLarge(req: express.Request, res: express.Response) {
  if (refused.has(req) || res.headersSent) return
  refused.add(req)
  const body = JSON.stringify({ code: 'payload-too-large', message: `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB` })
  const socket = req.socket
  socket.write(`HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  socket.end()
  let dropped = 0
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > LINGER_BYTES) socket.destroy()
  })
  req.resume()
  setTimeout(() => socket.destroy(), LINGER_MS).unref()
}

/**
 * Remix's Express handler with a body cap: a declared Content-Length over the cap is refused before
 * anything is read, and a streamed body is cut off (413) as soon as it passes the cap.
 */
export function remixHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  mode: string,
  getLoadContext?: (req: express.Request, res: express.Response) => Record<string, unknown>,
): express.RequestHandler {
  const handle = createNodeHandler(build, mode)
  return async (req, res, next) => {
    try {
      if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return refuseTooLarge(req, res)
      let request = createRemixRequest(req, res)
      if (request.body) {
        let total = 0
        const limited = request.body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, controller) {
              total += chunk.byteLength
              if (total > MAX_BODY_BYTES) {
                refuseTooLarge(req, res)
                controller.error(new PayloadTooLargeError('Request body too large'))
              } else controller.enqueue(chunk)
            },
          }),
        )
        request = new Request(request.url, { method: request.method, headers: request.headers, signal: request.signal, body: limited, duplex: 'half' } as RequestInit)
      }
      const response = await withHttpRequestScope(() => handle(request, getLoadContext?.(req, res)))
      if (res.headersSent || refused.has(req)) {
        await response.body?.cancel().catch(() => undefined)
        return
      }
      await sendRemixResponse(res, response)
    } catch (error) {
      if (error instanceof PayloadTooLargeError) return refuseTooLarge(req, res)
      next(error)
    }
  }
}
