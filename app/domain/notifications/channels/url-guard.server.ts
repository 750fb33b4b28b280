import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import { invalid } from '../../errors'
import { getConfig } from '~/utils/env.server'

/**
 * Channel URLs are fetched by the server, so they must not reach into the portal's own network
 * (SSRF): https only (http on localhost in development and tests), and in production no loopback,
 * private, link-local or otherwise internal address unless CHANNEL_ALLOW_PRIVATE is set. The host
 * is resolved and checked when the channel is saved and again before every delivery.
 */

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1', '[::1]'])

/** Is this IPv4/IPv6 address one the public internet cannot route to (or must not be asked)? */
export function isInternalAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, '').toLowerCase()
  const mapped = ip.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)
  if (mapped) return isInternalAddress(mapped[1]!)
  if (isIP(ip) === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number]
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) || (a === 192 && b === 0) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    )
  }
  if (isIP(ip) === 6) {
    return ip === '::' || ip === '::1' || /^f[cd]/.test(ip) || /^fe[89ab]/.test(ip) || ip.startsWith('ff') || ip.startsWith('64:ff9b:')
  }
  return true
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
  const loopbackOnly = addresses.every((a) => a === '::1' || a.startsWith('127.'))
  if (loopbackOnly && devOrTest()) return
  if (addresses.some(isInternalAddress)) throw refuse('URL points to an internal address; channels may only post to public addresses')
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
