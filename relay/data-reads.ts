/**
 * Reads of a data connection into buffers the relay keeps (docs/decisions/019-relay-reused-read-buffers.md).
 * Node reads an accepted socket into a new 64 KiB ArrayBuffer per read: at a download's ~1.5 GB/s
 * that is ~25,000 short-lived external buffers a second, and V8, counting their memory, can fall
 * into a full mark-compact every ~30 ms. `onread` (reads into the caller's buffers) exists only
 * for sockets a process creates, so the accepted connection's TCP handle is moved into a new
 * net.Socket created with it, as Node does for handles passed between processes.
 *
 * While Node's HTTP client parses answers, reads land in one 64 KiB buffer all data connections
 * share (each read is copied out and pushed as usual before the next read of any socket can start,
 * so an idle connection holds no buffer of its own). While a raw body is carried (relay/raw-body.ts)
 * each read goes to a sink as a view of a 1 MiB buffer of the relay's pool, and a buffer whose
 * bytes are still queued for writing is not read into again (docs/decisions/088-relay-downloads-read-and-written-whole.md).
 */
import net, { type Socket } from 'node:net'

/** A raw body's read takes up to this much: fewer, larger reads than Node's 64 KiB (1 MiB measured best of 256 KiB, 1 and 4 MiB). */
const READ_BYTES = 1024 * 1024
/**
 * A read for the HTTP client takes up to this much, as Node's own reads do: each is copied out, and
 * the first read of a large answer (its headers and the start of its body) was a 1 MiB copy into a
 * fresh allocation per download when this was READ_BYTES.
 */
const PARSE_READ_BYTES = 64 * 1024
/** Buffers given back by finished writes that the relay keeps for the next raw bodies. */
const POOL_MAX = 16

/** Where every data connection reads while its reads are copied out (see above). */
const shared = Buffer.allocUnsafe(PARSE_READ_BYTES)
const pool: Buffer[] = []
const takeBuffer = () => pool.pop() ?? Buffer.allocUnsafe(READ_BYTES)
const giveBack = (buffer: Buffer) => {
  if (buffer !== shared && pool.length < POOL_MAX) pool.push(buffer)
}

/**
 * Takes a read's bytes (a view of a buffer that is read into again once `done` has been called);
 * returns false to pause reading.
 */
export type ReadSink = (bytes: Buffer, done: () => void) => boolean

/** A read held for a sink still being set up: its bytes, and what gives its buffer back. */
type Held = { bytes: Buffer; done: () => void }
/** Held at most before reading pauses until the sink is set. */
const HOLD_BYTES = 1024 * 1024

type OwnReads = {
  sink: ReadSink | null
  /** reads waiting for the sink (holdReads), in order */
  held: Held[] | null
  /** makes the next read land in a buffer of the pool rather than the shared one */
  readIntoPool: () => void
}
const owned = new WeakMap<Socket, OwnReads>()

type TcpHandle = { useUserBuffer?: unknown; readStop(): number; readStart?: () => number; reading?: boolean }

type HandleSocket = Socket & { _handle: TcpHandle | null; _server: net.Server | null; server: net.Server | null }

/**
 * The same connection as a socket whose reads land in reused buffers, or `accepted` itself when
 * it cannot be moved (not a plain TCP handle, data already buffered, another Node version).
 * `accepted` must be fresh from an upgrade: no listeners of its own that matter any more.
 */
export function withOwnReads(accepted: Socket): Socket {
  const old = accepted as HandleSocket
  const handle = old._handle
  if (!handle || typeof handle.useUserBuffer !== 'function' || old.readableLength > 0 || old.destroyed || !old.readable || !old.writable || old.writableLength > 0) return accepted
  /** the buffer the next read lands in: `shared`, or while a raw body is carried one of the pool's */
  let current: Buffer = shared
  const state: OwnReads = {
    sink: null,
    held: null,
    readIntoPool: () => {
      if (current === shared) current = takeBuffer()
    },
  }
  let socket: Socket | undefined = undefined
  /** whether the sink was removed (its body ended) during the call just made to it */
  const sinkGone = () => state.sink === null
  const onread = {
    buffer: () => current,
    callback: (length: number, buffer: Uint8Array): boolean => {
      const read = buffer as Buffer
      if (!state.sink) {
        if (current !== shared) giveBack(current)
        current = shared
        return socket!.push(Buffer.from(read.subarray(0, length)))
      }
      // The first read after the sink was set landed in `shared` (Node takes the next read's buffer
      // right after each read): that one is copied, at most PARSE_READ_BYTES.
      if (read === shared) {
        const more = state.sink(Buffer.from(read.subarray(0, length)), () => undefined)
        if (!sinkGone()) current = takeBuffer()
        return more
      }
      let inUse = true
      const more = state.sink(read.subarray(0, length), () => {
        if (!inUse) return
        inUse = false
        // Given back after the next read took another buffer: back to the pool.
        if (read !== current) giveBack(read)
      })
      if (sinkGone()) {
        // The body ended with this read: the next one (the next answer's headers) is for Node's
        // HTTP client again and lands in `shared`. Landing in this 1 MiB buffer, it was copied
        // whole (~430 KB per download, most of the relay's garbage).
        if (!inUse) giveBack(read)
        current = shared
        return more
      }
      // Still queued for writing: the next read takes another buffer meanwhile.
      if (inUse) current = takeBuffer()
      return more
    },
  }
  handle.readStop()
  handle.reading = false
  old.setTimeout(0)
  old._handle = null
  // `handle` is the option Node itself uses for accepted and passed handles (not in its typings).
  // Not half-open (the upgraded socket was, for the HTTP server's sake): the agent closing its side
  // ends the connection, as Node's HTTP client expects of its sockets.
  socket = new net.Socket({ handle, onread, allowHalfOpen: false } as net.SocketConstructorOpts)
  if ((socket as HandleSocket)._handle !== handle) {
    // A Node that no longer takes `handle`: the accepted socket keeps its connection and reads on.
    old._handle = handle
    old.read(0)
    return accepted
  }
  // The server counts the connection until it closes: that is now the new socket's close.
  const server = old._server
  old._server = null
  ;(socket as HandleSocket)._server = server
  ;(socket as HandleSocket).server = server
  const flowing = old.readableFlowing
  old.destroy()
  owned.set(socket, state)
  // A buffer of the pool that no read will use any more (never one still being written: that is never `current`).
  socket.once('close', () => {
    giveBack(current)
    current = shared
    ownReadsTraffic.open.delete(socket!)
    ownReadsTraffic.closedIn += socket!.bytesRead
    ownReadsTraffic.closedOut += socket!.bytesWritten
  })
  ownReadsTraffic.open.add(socket)
  if (flowing) socket.resume()
  return socket
}

/**
 * Bytes of the connections moved to sockets of their own (withOwnReads): the relay server's
 * `connection` listeners saw the sockets they came from, whose counters stop at the move
 * (the metrics' relay bytes, server/metrics.ts).
 */
export const ownReadsTraffic = { closedIn: 0, closedOut: 0, open: new Set<Socket>() }

/** Whether `socket`'s reads can go to a sink (it came from withOwnReads). */
export const hasOwnReads = (socket: Socket) => owned.has(socket)

/**
 * Sends the socket's reads to `sink` from now on (null: back to pushing copies, for Node's HTTP
 * client). Whatever is still waiting in the socket's readable buffer must be taken first by the caller.
 */
export function setReadSink(socket: Socket, sink: ReadSink | null) {
  const state = owned.get(socket)
  if (!state) throw new Error('This socket does not read into its own buffers')
  const held = state.held
  state.held = null
  state.sink = sink
  if (!held) return
  // Held reads go first, in order (the sink pauses the socket itself when its side is full).
  for (let i = 0; i < held.length; i++) {
    if (sink && state.sink === sink) {
      sink(held[i].bytes, held[i].done)
      continue
    }
    held[i].done()
    // The sink's body ended with reads still held: bytes past it, the connection is out of step.
    if (sink) socket.destroy()
  }
}

/**
 * From the next read on, until setReadSink: reads land in the pool's buffers and wait there,
 * uncopied, for the sink being set up; past HOLD_BYTES the socket pauses. For a raw body whose
 * headers Node's HTTP client is still parsing: libuv reads up to 32 times per wakeup before the
 * takeover's nextTick runs, and those reads went through the parser as 64 KiB copies (~340 KB
 * per download, the relay's main source of garbage). False (nothing held) when the socket does
 * not read into its own buffers or has bytes waiting in its readable buffer.
 */
export function holdReads(socket: Socket): boolean {
  const state = owned.get(socket)
  if (!state || state.sink || socket.readableLength > 0) return false
  const held: Held[] = []
  let bytes = 0
  state.held = held
  state.sink = (read, done) => {
    held.push({ bytes: read, done })
    bytes += read.length
    if (bytes < HOLD_BYTES) return true
    socket.pause()
    return false
  }
  state.readIntoPool()
  return true
}

/**
 * Stops reading the socket until the returned function is called, for a reader outside Node (the
 * native pump, relay/native-pump.ts). pause() alone is not enough: a Readable asks for more
 * (read(0)) while its buffer is below its high-water mark, paused or not, and Node starts the
 * handle reading again for it. So the handle's readStart does nothing meanwhile.
 */
export function stopReads(socket: Socket): () => void {
  const handle = (socket as HandleSocket)._handle
  socket.pause()
  if (!handle) return () => undefined
  handle.readStop()
  handle.reading = false
  handle.readStart = () => 0
  let stopped = true
  return () => {
    if (!stopped) return
    stopped = false
    delete handle.readStart
    if ((socket as HandleSocket)._handle !== handle || socket.destroyed) return
    // Started here, not left to resume(): a read Node asked for meanwhile is still pending in its
    // Readable (no data came), and it asks for no other until one does.
    handle.reading = true
    const error = handle.readStart!()
    if (error) socket.destroy(new Error(`readStart failed (${error})`))
    socket.resume()
  }
}
