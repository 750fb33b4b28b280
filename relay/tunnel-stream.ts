import { Duplex } from 'node:stream'
import { type WebSocket } from 'ws'

/** Buffered per direction before the tunnel applies backpressure (h2 flow control does the rest). */
const HIGH_WATER_MARK = 1024 * 1024

/**
 * The byte stream HTTP/2 runs over, on both ends of a tunnel (relay and agent). Unlike
 * `ws.createWebSocketStream`, everything HTTP/2 writes in one go (a batch of frames, each as a
 * 9-byte header buffer plus its payload) leaves as ONE WebSocket message: one frame header, one
 * mask, one socket write instead of one per buffer. Message boundaries carry no meaning.
 */
export function tunnelStream(ws: WebSocket): Duplex {
  const duplex = new Duplex({
    readableHighWaterMark: HIGH_WATER_MARK,
    writableHighWaterMark: HIGH_WATER_MARK,
    allowHalfOpen: false,
    read() {
      if (ws.isPaused) ws.resume()
    },
    write(chunk: Buffer, _encoding, callback) {
      send(chunk, callback)
    },
    writev(chunks, callback) {
      send(chunks.length === 1 ? (chunks[0].chunk as Buffer) : Buffer.concat(chunks.map((c) => c.chunk as Buffer)), callback)
    },
    final(callback) {
      ws.close()
      callback()
    },
    destroy(error, callback) {
      ws.terminate()
      callback(error)
    },
  })
  const send = (data: Buffer, callback: (error?: Error | null) => void) => {
    if (ws.readyState !== ws.OPEN) return callback(new Error('The tunnel is closed'))
    ws.send(data, { binary: true, compress: false }, callback)
  }
  ws.on('message', (data: Buffer) => {
    if (!duplex.push(data)) ws.pause()
  })
  ws.once('close', () => {
    duplex.push(null)
    duplex.destroy()
  })
  ws.once('error', (error) => duplex.destroy(error))
  return duplex
}
