/**
 * Stream plumbing shared by the relay and the simulated agent (both ends of a tunnel); node:stream
 * only, no portal code. A socket's or response's own write buffer is 16 KiB, so `pipe` paused and
 * resumed the sender at every 64 KiB read, which made a download several times slower than the
 * sockets allow: here up to LOOSE_BUFFER_BYTES may queue on the receiving side first.
 */
import type { Readable, Writable } from 'node:stream'

/** Queued on the receiving side before the sending side is paused. */
export const LOOSE_BUFFER_BYTES = 1024 * 1024

type Pausable = { pause(): unknown; resume(): unknown }

/**
 * Backpressure for a hand-written copy loop: call `afterWrite()` after each write to `to`; once more
 * than LOOSE_BUFFER_BYTES wait there, `from` is paused until `to` drains, then resumed unless
 * `resumeIf()` says the copy is over.
 */
export function looseBackpressure(from: Pausable, to: Writable, resumeIf: () => boolean = () => true) {
  let waiting = false
  return {
    /** `from` is paused, waiting for `to` to drain */
    get waiting() {
      return waiting
    },
    afterWrite() {
      if (waiting || to.writableLength <= LOOSE_BUFFER_BYTES) return
      waiting = true
      from.pause()
      to.once('drain', () => {
        waiting = false
        if (resumeIf()) from.resume()
      })
    },
  }
}

/** Like `from.pipe(to)`, with LOOSE_BUFFER_BYTES allowed to queue on `to`. */
export function pipeLoose(from: Readable, to: Writable) {
  const flow = looseBackpressure(from, to)
  from.on('data', (chunk: Buffer) => {
    to.write(chunk)
    flow.afterWrite()
  })
  from.once('end', () => to.end())
}
