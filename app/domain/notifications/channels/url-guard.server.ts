import { lookup } from 'node:dns/promises'
import dns, { type LookupAddress } from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import { invalid } from '../../errors'
import { getConfig } from '~/utils/env.server'

/**
 * Channel URLs are fetched by the server, so they must not reach into the portal's own network
 * (SSRF): https only (http on localhost in development and tests), and in production no loopback,
 * private, link-local or otherwise internal address unless CHANNEL_ALLOW_PRIVATE is set. Decisions
 * are made on the URL parser's normalised host (it already turns 2130706433, 0x7f.1 and 017.0.0.1
 * into 127.0.0.1 and every IPv6 spelling into one) and on the addresses DNS gives: when the channel
 * is saved, before every delivery, and at connect time (guardedFetch's lookup), so a name that
 * resolves inside only at send time (DNS rebinding) is refused too. Redirects are never followed.
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** A dotted-quad IPv4 address as a 32-bit number. */
function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)
}

const inV4 = (n: number, base: string, bits: number) => bits === 0 || n >>> (32 - bits) === ipv4Number(base) >>> (32 - bits)

/** IPv4 ranges the public internet does not route or that must not be asked (RFC 6890 and friends). */
const INTERNAL_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 16], // IETF assignments, TEST-NET-1, the old 6to4 relay range
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 3], // multicast, reserved, broadcast
]

function internalV4(n: number): boolean {
  return INTERNAL_V4.some(([base, bits]) => inV4(n, base, bits))
}

/** The eight 16-bit groups of a valid IPv6 address (any spelling: `::`, a trailing dotted quad). */
function ipv6Groups(ip: string): number[] {
  let text = ip
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const n = ipv4Number(dotted[2]!)
    text = `${dotted[1]}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const left = part(head)
  const right = part(tail)
  return tail === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right]
}

/**
 * Is this IPv4/IPv6 address one the public internet cannot route to (or must not be asked)? IPv6
 * must be global unicast (2000::/3) outside the documentation, Teredo and other IETF ranges;
 * addresses that carry an IPv4 address (IPv4-mapped in dotted or hex form, NAT64 64:ff9b::/96,
 * SIIT-translated, 6to4) are decided on that address; IPv4-compatible (::a.b.c.d, deprecated) and
 * anything that is not an address at all are internal.
 */
export function isInternalAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase()
  const family = isIP(ip)
  if (family === 4) return internalV4(ipv4Number(ip))
  if (family !== 6) return true
  const g = ipv6Groups(ip)
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0)
  const embedded = ((g[6]! << 16) | g[7]!) >>> 0
  if (zero(0, 5) && g[5] === 0xffff) return internalV4(embedded) // ::ffff:a.b.c.d, ::ffff:7f00:1
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) return internalV4(embedded) // ::ffff:0:a.b.c.d
  if (g[0] === 0x64 && g[1] === 0xff9b && zero(2, 6)) return internalV4(embedded) // NAT64
  if (zero(0, 6)) return true // ::, ::1, IPv4-compatible
  if (g[0] === 0x2002) return internalV4(((g[1]! << 16) | g[2]!) >>> 0) // 6to4
  if ((g[0]! & 0xe000) !== 0x2000) return true // not global unicast: ULA, link-local, multicast, 64:ff9b:1::/48, ...
  if (g[0] === 0x2001 && (g[1]! < 0x200 || g[1] === 0xdb8)) return true // Teredo, benchmarking, ORCHID; documentation
  return false
}

const isLoopback = (address: string) => {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(ip) === 4) return ip.startsWith('127.')
  if (isIP(ip) !== 6) return false
  const g = ipv6Groups(ip)
  return (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) || (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff && g[6]! >> 8 === 127)
}

const refuse = (message: string) => invalid(message, [{ path: 'url', message }])

const devOrTest = () => getConfig().NODE_ENV !== 'production'

/** Syntax and scheme: throws a 400 with a field error, returns the parsed URL. */
export function parseChannelUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw refuse('URL must be an absolute address such as https://hooks.example.com/...')
  }
  const local = LOOPBACK_NAMES.has(url.hostname)
  if (url.username || url.password) throw refuse('URL must not contain a user name or password')
  if (url.protocol === 'https:') return url
  // http only for a receiver on this machine: development, tests, or an explicit CHANNEL_ALLOW_PRIVATE.
  if (url.protocol === 'http:' && local && (devOrTest() || getConfig().CHANNEL_ALLOW_PRIVATE)) return url
  throw refuse('URL must start with https://')
}

/**
 * Resolves the host and refuses internal addresses (unless allowed). `resolve` is injectable for
 * tests. Loopback is allowed in development and tests, where receivers run on localhost.
 */
export async function assertPublicDestination(url: URL, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<void> {
  const config = getConfig()
  if (config.CHANNEL_ALLOW_PRIVATE) return
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const addresses = isIP(host) ? [host] : await resolve(host).catch(() => [])
  if (!addresses.length) throw refuse(`The host ${host} cannot be resolved`)
  const refused = internalAmong(addresses)
  if (refused) throw refuse(`URL points to an internal address (${refused}); channels may only post to public addresses`)
}

/** The first address a channel may not reach (loopback only counts in development and tests), or null. */
function internalAmong(addresses: string[]): string | null {
  if (getConfig().CHANNEL_ALLOW_PRIVATE) return null
  if (devOrTest() && addresses.every(isLoopback)) return null
  return addresses.find(isInternalAddress) ?? null
}

/**
 * A DNS lookup for the channel's HTTP request that refuses internal addresses: the address checked
 * is the one connected to, so a name that changes between the check and the request (DNS
 * rebinding) cannot reach inside.
 */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, found) => {
    const addresses = found as unknown as LookupAddress[] | undefined
    if (error || !addresses?.length) return void callback(error ?? Object.assign(new Error(`The host ${hostname} cannot be resolved`), { code: 'ENOTFOUND' }), '', 4)
    const refused = internalAmong(addresses.map((a) => a.address))
    if (refused) {
      const message = `The host ${hostname} now resolves to an internal address (${refused}); not sent`
      return void callback(Object.assign(new Error(message), { code: 'invalid-argument' }), '', 4)
    }
    if (options.all) return void (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses)
    callback(null, addresses[0]!.address, addresses[0]!.family)
  })
}

export type ChannelResponse = { status: number; text: () => Promise<string> }

/** The most of a receiver's answer kept (for the delivery log): the rest is not read. */
const RESPONSE_TEXT_LIMIT = 16 * 1024

/**
 * POSTs to a channel URL through publicOnlyLookup; redirects are not followed (a 3xx is the answer).
 * The body of the answer is read up to 16 KiB.
 */
export function guardedFetch(url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }): Promise<ChannelResponse> {
  const target = new URL(url)
  const client = target.protocol === 'https:' ? https : http
  return new Promise((resolve, reject) => {
    const request = client.request(target, { method: init.method, headers: { ...init.headers, 'content-length': Buffer.byteLength(init.body) }, signal: init.signal, lookup: publicOnlyLookup }, (response) => {
      const chunks: Buffer[] = []
      let size = 0
      const text = new Promise<string>((done) => {
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_TEXT_LIMIT) chunks.push(chunk)
          size += chunk.length
        })
        response.on('end', () => done(Buffer.concat(chunks).subarray(0, RESPONSE_TEXT_LIMIT).toString('utf8')))
        response.on('error', () => done(Buffer.concat(chunks).toString('utf8')))
      })
      resolve({ status: response.statusCode ?? 0, text: () => text })
    })
    request.on('error', reject)
    request.end(init.body)
  })
}

async function resolveAll(host: string): Promise<string[]> {
  const found = await lookup(host, { all: true, verbatim: true })
  return found.map((a) => a.address)
}

/** Both checks, for saving a channel. */
export async function validateChannelUrl(raw: string, resolve?: (host: string) => Promise<string[]>): Promise<string> {
  const url = parseChannelUrl(raw)
  await assertPublicDestination(url, resolve)
  return url.toString()
}
