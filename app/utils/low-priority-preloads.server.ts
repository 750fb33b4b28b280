import { Transform, type TransformCallback } from 'node:stream'

const NEEDLE = Buffer.from('<link rel="modulepreload"')
const REPLACEMENT = Buffer.from('<link rel="modulepreload" fetchpriority="low"')

/**
 * Marks Remix's `<link rel="modulepreload">` tags `fetchpriority="low"` (decision 017): pages are
 * server-rendered, so their first paint needs the HTML and the stylesheet only; at the default
 * (high) priority the 180-310 KB of page JavaScript shares a phone's connection with the
 * stylesheet and delays the first paint. Low priority lets the browser fetch the stylesheet first;
 * the scripts load right behind it and hydrate as before. `<Scripts>` has no option for this.
 * Works on bytes (the tag is ASCII, so it never matches inside a multi-byte character); a tag split
 * across chunks is kept back until the next chunk. Chunks without the tag pass as they are.
 */
export class LowPriorityPreloads extends Transform {
  private tail: Buffer | null = null

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    if (this.tail) {
      bytes = Buffer.concat([this.tail, bytes])
      this.tail = null
    }
    const keep = partialNeedleAtEnd(bytes)
    if (keep) {
      this.tail = Buffer.from(bytes.subarray(bytes.length - keep))
      bytes = bytes.subarray(0, bytes.length - keep)
    }
    callback(null, bytes.length ? markLow(bytes) : undefined)
  }

  override _flush(callback: TransformCallback) {
    const rest = this.tail
    this.tail = null
    callback(null, rest?.length ? markLow(rest) : undefined)
  }
}

function markLow(bytes: Buffer) {
  let at = bytes.indexOf(NEEDLE)
  if (at === -1) return bytes
  const parts: Buffer[] = []
  let from = 0
  while (at !== -1) {
    parts.push(bytes.subarray(from, at), REPLACEMENT)
    from = at + NEEDLE.length
    at = bytes.indexOf(NEEDLE, from)
  }
  parts.push(bytes.subarray(from))
  return Buffer.concat(parts)
}

/** How many bytes at the end of `bytes` are a proper prefix of the tag. */
function partialNeedleAtEnd(bytes: Buffer) {
  const lt = bytes.lastIndexOf(0x3c /* < */, bytes.length - 1)
  if (lt === -1 || bytes.length - lt >= NEEDLE.length) return 0
  return NEEDLE.subarray(0, bytes.length - lt).equals(bytes.subarray(lt)) ? bytes.length - lt : 0
}
