import zlib from 'node:zlib'
import type express from 'express'

/** Smaller bodies are sent as they are: compressing them saves less than their headers weigh. */
export const COMPRESS_THRESHOLD = 1024
/** A body that grows past this is sent uncompressed as it comes (no page is near it; targets keep pages < 500 KB). */
export const COMPRESS_MAX_BUFFER = 8 * 1024 * 1024

const COMPRESSIBLE = /^\s*(text\/(?!event-stream)|application\/(json|javascript|x-javascript|xml|manifest\+json)|image\/svg\+xml)/i

type Chunk = string | Buffer | Uint8Array
type Callback = (error?: Error | null) => void

/**
 * Response compression in one piece. The `compression` middleware compressed pages as a stream:
 * a zlib stream per response, every chunk React streamed sent through the thread pool and flushed
 * into its own deflate block. The profile of /login (docs/benchmarks.md) had zlib at ~18 % of the
 * server's CPU for an 8 KB page. Pages here are complete before they are sent (no deferred data),
 * so the body is collected and compressed with one call (gzip when the browser takes it, which
 * costs less CPU than brotli, else brotli at quality 4). Event streams, responses whose headers
 * were already sent (flushHeaders, writeHead), non-text types, `no-transform` and HEAD go out as
 * they come.
 */
export function compressResponses(): express.RequestHandler {
  return (req, res, next) => {
    const write = res.write
    const end = res.end
    const writeHead = res.writeHead
    // the originals, called with whatever arguments the caller passed
    const rawWrite = write as (...args: unknown[]) => boolean
    const rawEnd = end as (...args: unknown[]) => express.Response
    let chunks: Buffer[] | null = null
    let size = 0

    const restore = () => {
      res.write = write
      res.end = end
      res.writeHead = writeHead
    }
    /** Sends what was collected as it is and lets the rest pass. */
    const release = () => {
      const pending = chunks ?? []
      chunks = null
      restore()
      for (const chunk of pending) rawWrite.call(res, chunk)
    }
    const shouldCollect = () => {
      if (res.headersSent || req.method === 'HEAD' || res.statusCode === 204 || res.statusCode === 304) return false
      if (!COMPRESSIBLE.test(String(res.getHeader('Content-Type') ?? ''))) return false
      if (res.getHeader('Content-Encoding') || /no-transform/i.test(String(res.getHeader('Cache-Control') ?? ''))) return false
      return true
    }
    const start = () => {
      if (chunks !== null) return true
      if (!shouldCollect()) {
        restore()
        return false
      }
      res.vary('Accept-Encoding')
      chunks = []
      return true
    }
    const toBuffer = (chunk: Chunk, encoding?: BufferEncoding) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))

    res.write = function (chunk: Chunk, encoding?: BufferEncoding | Callback, callback?: Callback) {
      const cb = typeof encoding === 'function' ? encoding : callback
      const enc = typeof encoding === 'string' ? encoding : undefined
      if (!start()) return rawWrite.call(res, ...(typeof encoding === 'function' ? [chunk, encoding] : [chunk, encoding, callback]))
      const buffer = toBuffer(chunk, enc)
      chunks!.push(buffer)
      size += buffer.length
      if (size > COMPRESS_MAX_BUFFER) release()
      if (cb) process.nextTick(cb)
      return true
    } as typeof res.write

    res.writeHead = function (this: express.Response, ...args: unknown[]) {
      // headers fixed by the handler itself: what was collected goes out as it is, after them
      const pending = chunks
      chunks = null
      restore()
      const result = (writeHead as (...a: unknown[]) => express.Response).apply(res, args)
      for (const chunk of pending ?? []) rawWrite.call(res, chunk)
      return result
    } as typeof res.writeHead

    res.end = function (chunk?: Chunk | Callback, encoding?: BufferEncoding | Callback, callback?: Callback) {
      const cb = typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : callback
      const data = typeof chunk === 'function' ? undefined : chunk
      const enc = typeof encoding === 'string' ? encoding : undefined
      if (chunks === null && (data === undefined || data === null || !start())) {
        restore()
        return rawEnd.call(res, ...[chunk, encoding, callback].filter((a) => a !== undefined))
      }
      if (data !== undefined && data !== null) chunks!.push(toBuffer(data, enc))
      const body = Buffer.concat(chunks!)
      chunks = null
      restore()
      const encodingName = body.length >= COMPRESS_THRESHOLD ? pickEncoding(req) : null
      const out = encodingName === 'gzip' ? zlib.gzipSync(body, GZIP) : encodingName === 'br' ? zlib.brotliCompressSync(body, BROTLI) : body
      if (encodingName) res.setHeader('Content-Encoding', encodingName)
      res.setHeader('Content-Length', out.length)
      return cb ? rawEnd.call(res, out, cb) : rawEnd.call(res, out)
    } as typeof res.end

    next()
  }
}

/**
 * Level 3, the last of zlib's fast levels (levels 4-9 switch to lazy matching): on this app's pages
 * it takes 40-60 % of level 6's CPU for 4-19 % more bytes (measured in docs/benchmarks.md, "Web
 * request cost"; a 154 KB agents list: 15.3 KB at level 6, 18.2 KB at level 3).
 */
export const GZIP_LEVEL = 3
const GZIP = { level: GZIP_LEVEL }
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }

function pickEncoding(req: express.Request): 'gzip' | 'br' | null {
  const chosen = req.acceptsEncodings('gzip', 'br', 'identity')
  return chosen === 'gzip' || chosen === 'br' ? chosen : null
}
