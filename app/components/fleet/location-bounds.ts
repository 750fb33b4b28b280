/** Manual location picker constants and geometry (spec 02 section 9). Pure, shared by the map and tests. */

export const EARTH_RADIUS_KM = 6371
/** The picker's bounds reach about this far from its starting point in every direction. */
export const PICKER_RADIUS_KM = 100
/** Where the picker starts when the agent has no location yet (Amsterdam, a fixed point). */
export const DEFAULT_START = { lati: 52.3676, long: 4.9041 } as const
/** The map appears this long after the card mounts; the picker accepts moves this long after that. */
export const MAP_DELAY_MS = 1000
export const PICK_DELAY_MS = 2000

export type LatLong = { lati: number; long: number }

/** South-west and north-east corners of the box about `radiusKm` around `center`. */
export function boundsAround(center: LatLong, radiusKm = PICKER_RADIUS_KM): [LatLong, LatLong] {
  const dLat = (radiusKm / EARTH_RADIUS_KM) * (180 / Math.PI)
  const dLong = dLat / Math.max(Math.cos((center.lati * Math.PI) / 180), 0.01)
  const clampLat = (v: number) => Math.max(-90, Math.min(90, v))
  const clampLong = (v: number) => Math.max(-180, Math.min(180, v))
  return [
    { lati: clampLat(center.lati - dLat), long: clampLong(center.long - dLong) },
    { lati: clampLat(center.lati + dLat), long: clampLong(center.long + dLong) },
  ]
}

/** Typed coordinates: a number in range, or the message the form shows (the server checks the same ranges). */
export function parseCoordinate(text: string, kind: 'lati' | 'long'): { value: number } | { error: string } {
  const [name, limit] = kind === 'lati' ? ['Latitude', 90] : ['Longitude', 180]
  if (text.trim() === '') return { error: `${name} is required` }
  const value = Number(text.trim())
  if (!Number.isFinite(value)) return { error: `${name} must be a number` }
  if (value < -limit || value > limit) return { error: `${name} must be between -${limit} and ${limit}` }
  return { value }
}
