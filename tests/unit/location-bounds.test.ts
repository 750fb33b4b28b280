import { describe, expect, it } from 'vitest'
import { boundsAround, DEFAULT_START, EARTH_RADIUS_KM, parseCoordinate } from '~/components/fleet/location-bounds'

describe('manual location picker geometry', () => {
  it('bounds reach about 100 km from the start on the 6371 km sphere', () => {
    const [sw, ne] = boundsAround(DEFAULT_START)
    const kmPerDegree = (Math.PI / 180) * EARTH_RADIUS_KM
    expect((ne.lati - DEFAULT_START.lati) * kmPerDegree).toBeCloseTo(100, 5)
    expect((DEFAULT_START.lati - sw.lati) * kmPerDegree).toBeCloseTo(100, 5)
    // east-west degrees are wider away from the equator: 100 km along the start's parallel
    expect((ne.long - DEFAULT_START.long) * kmPerDegree * Math.cos((DEFAULT_START.lati * Math.PI) / 180)).toBeCloseTo(100, 5)
    // near a pole the box is clamped to valid coordinates
    const [polarSw, polarNe] = boundsAround({ lati: 89.9, long: 179.9 })
    expect(polarNe.lati).toBe(90)
    expect(polarNe.long).toBe(180)
    expect(polarSw.long).toBeGreaterThanOrEqual(-180)
  })

  it('typed coordinates: numbers in range, clear messages otherwise', () => {
    expect(parseCoordinate(' 48.8566 ', 'lati')).toEqual({ value: 48.8566 })
    expect(parseCoordinate('-180', 'long')).toEqual({ value: -180 })
    expect(parseCoordinate('90.01', 'lati')).toEqual({ error: 'Latitude must be between -90 and 90' })
    expect(parseCoordinate('181', 'long')).toEqual({ error: 'Longitude must be between -180 and 180' })
    expect(parseCoordinate('north', 'lati')).toEqual({ error: 'Latitude must be a number' })
    expect(parseCoordinate('', 'long')).toEqual({ error: 'Longitude is required' })
  })
})
