/**
 * A 53-bit hash of a JSON-like value, by which ingest recognises what it last stored (a device
 * list, an issue). It walks the value and mixes its parts with cyrb53's multiply-xor steps, so it
 * needs no serialization (JSON.stringify + SHA-1 of a report's device list took about 10 µs). A
 * change goes unnoticed only if its hash collides with the previous one (about 1 in 2^53 per change).
 *
 * Every part is tagged with its type and strings, arrays and objects with their length or end,
 * so different structures do not mix into the same sequence ("ab","c" vs "a","bc"; 1 vs "1";
 * null vs absent; key order counts, as in the JSON text).
 *
 * Strings are mixed two UTF-16 units per step, and an object key (the same few names in every
 * report) by its own 64-bit code looked up in a bounded table: half the steps of one unit per
 * step with keys spelled out, which the ingest worker's profile showed at 12-18 % of its time.
 */

const float = new Float64Array(1)
const words = new Uint32Array(float.buffer)

const M1 = 2654435761
const M2 = 1597334677

let h1 = 0
let h2 = 0
const mix = (n: number) => {
  h1 = Math.imul(h1 ^ n, M1)
  h2 = Math.imul(h2 ^ n, M2)
}

/** A string: its tag, length, then two UTF-16 units per step (locals: one state write per string). */
function mixString(s: string) {
  const n = s.length
  let a = Math.imul(Math.imul(h1 ^ 1, M1) ^ n, M1)
  let b = Math.imul(Math.imul(h2 ^ 1, M2) ^ n, M2)
  let i = 0
  for (; i + 1 < n; i += 2) {
    const w = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16)
    a = Math.imul(a ^ w, M1)
    b = Math.imul(b ^ w, M2)
  }
  if (i < n) {
    const w = s.charCodeAt(i)
    a = Math.imul(a ^ w, M1)
    b = Math.imul(b ^ w, M2)
  }
  h1 = a
  h2 = b
}

/** Object keys seen so far -> their index in keyCodes (two 32-bit halves each); bounded: keys past it are hashed each time. */
const MAX_KEYS = 4096
const keyIndex = new Map<string, number>()
const keyCodes = new Int32Array(MAX_KEYS * 2)

/** A key's own code: the string hashed from fixed seeds, so cached and uncached keys mix the same two words. */
function mixKey(key: string) {
  let index = keyIndex.get(key)
  if (index === undefined) {
    const s1 = h1
    const s2 = h2
    h1 = 0x2f6b8c91
    h2 = 0x7d3a0e55
    mixString(key)
    const k1 = h1
    const k2 = h2
    h1 = s1
    h2 = s2
    if (keyIndex.size >= MAX_KEYS) {
      mix(10)
      mix(k1)
      return mix(k2)
    }
    index = keyIndex.size * 2
    keyIndex.set(key, index)
    keyCodes[index] = k1
    keyCodes[index + 1] = k2
  }
  mix(10)
  mix(keyCodes[index])
  mix(keyCodes[index + 1])
}

function walk(value: unknown) {
  switch (typeof value) {
    case 'string':
      return mixString(value)
    case 'number':
      float[0] = value
      mix(2)
      mix(words[0])
      return mix(words[1])
    case 'boolean':
      return mix(value ? 3 : 4)
    case 'undefined':
      return mix(5)
    case 'object':
      if (value === null) return mix(6)
      if (Array.isArray(value)) {
        mix(7)
        mix(value.length)
        for (let i = 0; i < value.length; i++) walk(value[i])
        return
      }
      mix(8)
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue
        mixKey(key)
        walk((value as Record<string, unknown>)[key])
      }
      return mix(9)
    default:
      // functions, symbols, bigints do not occur in parsed JSON; hashed by their text
      return mixString(String(value))
  }
}

export function valueHash(value: unknown): string {
  h1 = 0xdeadbeef
  h2 = 0x41c6ce57
  walk(value)
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507)
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507)
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)
}
