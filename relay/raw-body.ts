/**
 * Large Content-Length answers over a data connection, carried raw (docs/decisions/014-relay-raw-bodies.md):
 * once Node's HTTP client has parsed the agent's response headers, the body's bytes go from the
 * data socket to the browser's response as they are read, without the HTTP parser, IncomingMessage
 * and its stream machinery per chunk. After exactly Content-Length bytes the connection stands at
 * the start of its next answer and goes back to the pool (DataPool.release), as keep-alive would.
 */
import type http from 'node:http'
import { createRequire } from 'node:module'
import type { Socket } from 'node:net'
import type { DataPool } from './data-connections'
import { agentResponseHeaders } from './headers'
import { looseBackpressure } from './loose-pipe'
import { hasOwnReads, holdReads, setReadSink, stopReads } from './data-reads'
import { nativePump, pumpStats, type PumpHandle } from './native-pump'

/** Bodies from this size on are carried raw; smaller ones are not worth leaving the HTTP client for. */
export const RAW_BODY_BYTES = 256 * 1024

/** Bodies with at least this much left after the takeover go to the native pump (relay/native-pump.ts). */
export const PUMP_BYTES = 1024 * 1024
const NOTHING = Buffer.alloc(0)

/** The listeners Node's HTTP client puts on a socket for one request (node:_http_client), by event. */
const CLIENT_LISTENERS: Record<string, string[]> = {
  data: ['socketOnData'],
  end: ['socketOnEnd'],
  close: ['socketCloseListener'],
  error: ['socketErrorListener'],
  drain: ['ondrain'],
  timeout: ['responseOnTimeout', 'emitRequestTimeout'],
}

type Parser = unknown
type HttpCommon = { freeParser?: (parser: Parser, req: unknown, socket: unknown) => void }
/** Node's own parser release (what it does when a response becomes an upgrade); absent: the parser is left to GC. */
const freeParser = (() => {
  try {
    return (createRequire(import.meta.url)('_http_common') as HttpCommon).freeParser
  } catch {
    return undefined
  }
})()

/**
 * The body length when this answer can be carried raw: a GET whose request is fully written, a
 * final status with a body, a plain Content-Length of at least RAW_BODY_BYTES, and a socket still
 * held by Node's HTTP client as expected (else the usual path).
 */
export function rawLength(req: http.IncomingMessage, upstream: http.ClientRequest, answer: http.IncomingMessage): number | undefined {
  if (req.method !== 'GET' || !upstream.writableFinished) return undefined
  const status = answer.statusCode ?? 0
  if (status < 200 || status === 204 || status === 304) return undefined
  if (answer.headers['transfer-encoding'] !== undefined) return undefined
  const text = answer.headers['content-length']
  if (!text || !/^\d{1,15}$/.test(text)) return undefined
  const length = Number(text)
  if (length < RAW_BODY_BYTES) return undefined
  const socket = upstream.socket
  if (!socket || !socket.listeners('data').some((listener) => listener.name === 'socketOnData')) return undefined
  return length
}

/** Takes the socket from Node's HTTP client and its Agent, as Node itself does for an upgrade. */
function detach(socket: Socket, upstream: http.ClientRequest) {
  socket.emit('agentRemove')
  for (const [event, names] of Object.entries(CLIENT_LISTENERS)) {
    for (const listener of socket.listeners(event)) if (names.includes(listener.name)) socket.removeListener(event, listener as (...args: unknown[]) => void)
  }
  const held = socket as Socket & { parser?: Parser; _httpMessage?: unknown }
  if (freeParser && held.parser) freeParser(held.parser, upstream, socket)
  held.parser = null
  held._httpMessage = null
}

type HandleSocket = Socket & { _handle?: { fd?: number } | null; encrypted?: boolean }
/** A plain TCP socket's descriptor (not TLS, not a stream of a tunnel), else -1. */
const descriptorOf = (socket: unknown) => {
  const held = socket as HandleSocket | null
  const fd = held && !held.encrypted && !held.destroyed ? held._handle?.fd : undefined
  return typeof fd === 'number' && fd >= 0 ? fd : -1
}

/**
 * Sends the answer's headers, then exactly `length` body bytes from the data socket. A browser
 * that leaves mid-body, or a data socket that ends or fails mid-body, cuts both (the connection
 * cannot be reused halfway through a body); a complete body gives the socket back to the pool.
 */
export function sendRaw(res: http.ServerResponse, upstream: http.ClientRequest, answer: http.IncomingMessage, length: number, pool: DataPool) {
  const socket = upstream.socket as Socket
  const reusable = answer.httpVersion === '1.1' && !/\bclose\b/i.test(String(answer.headers.connection ?? ''))
  res.writeHead(answer.statusCode ?? 502, agentResponseHeaders(answer.headers))
  let left = length
  let done = false
  const native = nativePump()
  // The native pump takes the body when both ends are plain TCP sockets: the data socket stops
  // reading at once (the parser keeps what it has), so little of the body passes through Node.
  const restartReads = native && length >= PUMP_BYTES && hasOwnReads(socket) && descriptorOf(socket) >= 0 && descriptorOf(res.socket) >= 0 ? stopReads(socket) : null
  /** the body is the pump's (being handed to it, or `pumping`): the data socket is not resumed here */
  let handingOver = restartReads !== null
  let pumping: PumpHandle | null = null
  // the data socket waits while over 1 MiB is queued towards the browser
  const flow = looseBackpressure(socket, res, () => !done && !handingOver)
  let owned = false
  // Reads go to `write` as views of the socket's own 1 MiB read buffers (relay/data-reads.ts), each
  // written as it comes: collecting a turn's reads into one writev (made for 64 KiB reads) queued
  // over 1 MiB at once, which paused and resumed the data socket every other read (decision 088).
  let sunk = false
  const cleanup = () => {
    if (sunk) setReadSink(socket, null)
    socket.off('data', write).off('end', cut).off('close', cut).off('error', cut)
  }
  const cut = () => {
    if (done) return
    done = true
    if (pumping) native?.cancel(pumping)
    pumping = null
    if (owned) cleanup()
    socket.destroy()
    res.destroy()
  }
  const complete = (clean: boolean) => {
    done = true
    res.end()
    if (!owned) return // Node's HTTP client still holds the socket and returns it to its Agent itself
    cleanup()
    if (!clean || !reusable) return void socket.destroy()
    // Reads that went to `write` while the browser's side was full may end the body with the socket
    // paused: the next request's client (and the pool, to see the agent close it) needs it flowing.
    if (socket.isPaused()) socket.resume()
    pool.release(socket)
  }
  /** `written`: called once the browser's socket is done with `chunk` (a read buffer to reuse). */
  function write(chunk: Buffer, written?: () => void) {
    if (done) return void written?.()
    if (chunk.length >= left) {
      // Bytes past the body (the UI sent more than it announced): the connection is out of step, not reused.
      res.write(chunk.length === left ? chunk : chunk.subarray(0, left), written)
      const clean = chunk.length === left
      left = 0
      return complete(clean)
    }
    left -= chunk.length
    res.write(chunk, written)
    flow.afterWrite()
  }
  res.once('close', () => {
    if (!done) cut()
  })
  // The reads that come before the takeover below wait for it, uncopied (relay/data-reads.ts).
  const holding = !restartReads && holdReads(socket)
  // The parser is still working through the read that carried the headers: take over once it is done with it.
  process.nextTick(() => {
    if (done) return
    if (answer.complete) {
      // A body this large never fits the parser's read; anything held would be bytes past it.
      if (holding) return cut()
      restartReads?.()
      // The whole body came with that read: it waits in `answer`, and the client keeps its socket.
      for (let chunk: Buffer | null; (chunk = answer.read() as Buffer | null) !== null; ) write(chunk)
      if (!done) cut()
      answer.resume()
      return
    }
    detach(socket, upstream)
    owned = true
    socket.on('end', cut).on('close', cut).on('error', cut)
    // What the parser read of the body so far waits in `answer`.
    for (let chunk: Buffer | null; !done && (chunk = answer.read() as Buffer | null) !== null; ) write(chunk)
    if (done) return
    if (restartReads) pumpTheRest(restartReads)
    else readOn()
  })
  /** The following reads go to `write` as they come; reading stops while the browser's side is full. */
  function readOn() {
    handingOver = false
    if (holding || (hasOwnReads(socket) && socket.readableLength === 0)) {
      sunk = true
      setReadSink(socket, (bytes, written) => {
        write(bytes, written)
        return !flow.waiting
      })
    } else socket.on('data', write)
    if (!flow.waiting) socket.resume()
  }
  /**
   * The rest of the body goes through the native pump, off the event loop, once the browser's
   * socket has sent what went before (the pump writes to that socket itself, behind Node's back).
   * It moves exactly the bytes left, so the connection stands at its next answer again.
   */
  function pumpTheRest(restart: () => void) {
    const fallBack = () => {
      restart()
      readOn()
    }
    const browser = res.socket as Socket
    if (!res.headersSent) res.flushHeaders()
    // Called once every byte queued before it has gone to the kernel.
    browser.write(NOTHING, () => {
      if (done) return
      if (browser.writableLength > 0 || descriptorOf(browser) < 0 || descriptorOf(socket) < 0) return fallBack()
      try {
        pumping = native!.pump(descriptorOf(socket), descriptorOf(browser), left, (error, moved) => {
          pumping = null
          pumpStats.moved += moved
          if (done) return
          if (error) return cut()
          pumpStats.bodies++
          left = 0
          restart()
          complete(true)
        })
      } catch {
        fallBack()
      }
    })
  }
}
