import type * as Leaflet from 'leaflet'
import type { GeometryCollection, Topology } from 'topojson-specification'
import { useEffect, useRef, useState } from 'react'
import { Alert } from '~/components/ui/alert'
import { boundsAround, PICK_DELAY_MS, type LatLong } from './location-bounds'
import { useNearViewport } from './use-near-viewport'

export type MapPoint = LatLong & { label: string; tone: 'geoip' | 'manual' }

const TONE_COLOR = { geoip: '#0284c7', manual: '#dc2626' } as const

/**
 * The agent location map: a Leaflet slippy map (zoom, pan) loaded only in the browser and only on
 * this page (dynamic import). Offline by default: the world-atlas land outlines as a GeoJSON layer,
 * no tile requests; with MAP_TILE_URL set, raster tiles from that server underneath. It starts at
 * `start` and keeps to about 100 km around it. In pick mode a click reports the point, but only
 * PICK_DELAY_MS after the map appeared (spec 02 section 9), so a stray early click does nothing.
 */
/** `onUnavailable`: the map could not be loaded (the caller stops inviting clicks on it). */
export function LocationPicker({
  start,
  points,
  tileUrl,
  onPick,
  onUnavailable,
}: {
  start: LatLong
  points: MapPoint[]
  tileUrl?: string | null
  onPick?: (point: LatLong) => void
  onUnavailable?: () => void
}) {
  // Leaflet and the land outlines (~550 KB of JSON to parse and draw) load once the map is near the screen
  const [element, nearViewport] = useNearViewport<HTMLDivElement>()
  const map = useRef<Leaflet.Map | null>(null)
  const leaflet = useRef<typeof Leaflet | null>(null)
  const markers = useRef<Leaflet.LayerGroup | null>(null)
  const onPickRef = useRef(onPick)
  onPickRef.current = onPick
  const onUnavailableRef = useRef(onUnavailable)
  onUnavailableRef.current = onUnavailable
  const [ready, setReady] = useState(false)
  // the map's code or land shapes did not load (network, or a newer version deployed meanwhile)
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    if (!nearViewport) return
    let cancelled = false
    let created: Leaflet.Map | null = null
    void (async () => {
      const loaded = await Promise.all([
        import('leaflet').then((m) => (m.default ?? m) as typeof Leaflet),
        import('topojson-client'),
        import('world-atlas/land-50m.json').then((m) => m.default as unknown as Topology),
        import('leaflet/dist/leaflet.css'),
      ]).catch(() => null)
      if (cancelled || !element.current) return
      if (!loaded) {
        setFailed(true)
        onUnavailableRef.current?.()
        return
      }
      const [L, { feature }, land] = loaded
      const [sw, ne] = boundsAround(start)
      const bounds = L.latLngBounds([sw.lati, sw.long], [ne.lati, ne.long])
      created = L.map(element.current, { maxBounds: bounds.pad(0.05), maxBoundsViscosity: 1, minZoom: 6, maxZoom: 16, attributionControl: Boolean(tileUrl), zoomSnap: 0.5 })
      created.fitBounds(bounds)
      created.setMinZoom(created.getZoom())
      if (tileUrl) {
        L.tileLayer(tileUrl, { maxZoom: 19, attribution: 'Map tiles: MAP_TILE_URL' }).addTo(created)
      } else {
        L.geoJSON(feature(land, land.objects.land as GeometryCollection), {
          style: { color: '#94a3b8', weight: 1, fillColor: '#e2e8f0', fillOpacity: 1 },
          interactive: false,
        }).addTo(created)
      }
      const openedAt = Date.now()
      created.on('click', (e: Leaflet.LeafletMouseEvent) => {
        if (!onPickRef.current || Date.now() - openedAt < PICK_DELAY_MS) return
        const { lat, lng } = e.latlng.wrap()
        onPickRef.current({ lati: Math.round(lat * 1e5) / 1e5, long: Math.round(lng * 1e5) / 1e5 })
      })
      leaflet.current = L
      markers.current = L.layerGroup().addTo(created)
      map.current = created
      setReady(true)
    })()
    return () => {
      cancelled = true
      created?.remove()
      map.current = null
    }
    // the map is built once per starting point and tile source
  }, [nearViewport, start.lati, start.long, tileUrl]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => {
    const L = leaflet.current
    if (!ready || !L || !markers.current) return
    markers.current.clearLayers()
    for (const p of points) {
      L.circleMarker([p.lati, p.long], { radius: 7, color: '#fff', weight: 2, fillColor: TONE_COLOR[p.tone], fillOpacity: 1 })
        .bindTooltip(p.label)
        .addTo(markers.current)
    }
  }, [ready, points])

  if (failed) {
    return (
      <div data-testid="location-map" className="flex h-72 w-full items-center justify-center rounded-md border bg-muted/40 p-6">
        <Alert type="error">The map could not be loaded. Type the coordinates, or reload the page to try again.</Alert>
      </div>
    )
  }
  return (
    <div
      ref={element}
      data-testid="location-map"
      data-ready={ready ? 'true' : 'false'}
      className="z-0 h-72 w-full overflow-hidden rounded-md border bg-sky-100"
      style={{ cursor: onPick ? 'crosshair' : undefined }}
      aria-label="Location map"
      role="application"
    />
  )
}
