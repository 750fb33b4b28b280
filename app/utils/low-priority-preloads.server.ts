import { StringDecoder } from 'node:string_decoder'
import { Transform, type TransformCallback } from 'node:stream'

const NEEDLE = '<link rel="modulepreload"'
const REPLACEMENT = '<link rel="modulepreload" fetchpriority="low"'

/**
 * Marks Remix's `<link rel="modulepreload">` tags `fetchpriority="low"` (decision 017): pages are
 * server-rendered, so their first paint needs the HTML and the stylesheet only; at the default
 * (high) priority the 180-310 KB of page JavaScript shares a phone's connection with the
 * stylesheet and delays the first paint. Low priority lets the browser fetch the stylesheet first;
 * the scripts load right behind it and hydrate as before. `<Scripts>` has no option for this.
 */
export class LowPriorityPreloads extends Transform {
  private decoder = new StringDecoder('utf8')
  // the end of the last chunk when it might be the start of a tag split across chunks
  private tail = ''

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback) {
    const text = this.tail + (typeof chunk === 'string' ? chunk : this.decoder.write(chunk))
    const replaced = text.replaceAll(NEEDLE, REPLACEMENT)
    const keep = partialNeedleAtEnd(replaced)
    this.tail = replaced.slice(replaced.length - keep)
    const out = replaced.slice(0, replaced.length - keep)
    callback(null, out.length ? out : undefined)
  }

  override _flush(callback: TransformCallback) {
    const rest = this.tail + this.decoder.end()
    this.tail = ''
    callback(null, rest.length ? rest.replaceAll(NEEDLE, REPLACEMENT) : undefined)
  }
}

/** How many characters at the end of `text` are a proper prefix of the tag. */
function partialNeedleAtEnd(text: string) {
  for (let n = Math.min(NEEDLE.length - 1, text.length); n > 0; n--) {
    if (NEEDLE.startsWith(text.slice(text.length - n))) return n
  }
  return 0
}
