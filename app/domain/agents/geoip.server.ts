/**
 * IP -> location for an agent's automatic (geoip) location mode. No offline geoip database ships
 * with the portal (the free ones need a licence key to download and weigh tens of MB), so the
 * default lookup knows nothing: ingest records lastIp and leaves the geoip location empty. A
 * deployment with a local database (e.g. a MaxMind reader) installs it with setLocationLookup.
 */
import { isIP } from 'node:net'

export type Location = { lat: number; long: number }
export type LocationLookup = (ip: string) => Promise<Location | null> | Location | null

let lookup: LocationLookup = () => null

export function setLocationLookup(next: LocationLookup) {
  lookup = next
}

/** Loopback, private and link-local addresses have no place on a map. */
export function isPublicAddress(ip: string): boolean {
  const version = isIP(ip)
  if (version === 4) return !/^(10\.|127\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|0\.)/.test(ip)
  if (version === 6) return !/^(::1$|::$|f[cd]|fe80)/i.test(ip)
  return false
}

export async function lookupLocation(ip: string): Promise<Location | null> {
  if (!isPublicAddress(ip)) return null
  try {
    return await lookup(ip)
  } catch {
    return null
  }
}
