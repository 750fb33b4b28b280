const NEEDLE = Buffer.from('<link rel="modulepreload"')
const REPLACEMENT = Buffer.from('<link rel="modulepreload" fetchpriority="low"')

/**
 * Marks Remix's `<link rel="modulepreload">` tags `fetchpriority="low"` (decision 017): pages are
 * server-rendered, so their first paint needs the HTML and the stylesheet only; at the default
 * (high) priority the 180-310 KB of page JavaScript shares a phone's connection with the
 * stylesheet and delays the first paint. Low priority lets the browser fetch the stylesheet first;
 * the scripts load right behind it and hydrate as before. `<Scripts>` has no option for this.
 * Works on the complete page's bytes (app/entry.server.tsx renders a page whole; the tag is ASCII,
 * so it never matches inside a multi-byte character).
 */
export function markPreloadsLow(bytes: Buffer): Buffer {
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
