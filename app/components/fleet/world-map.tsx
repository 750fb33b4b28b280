import { geoGraticule10, geoMercator, geoPath } from 'd3-geo'
import { useMemo, useState, type MouseEvent } from 'react'
import { feature } from 'topojson-client'
import type { GeometryCollection, Topology } from 'topojson-specification'
import land110m from 'world-atlas/land-110m.json'
import { cn } from '~/utils/cn'

export type MapPoint = { lati: number; long: number; label: string; tone: 'geoip' | 'manual' }

const WIDTH = 640
const HEIGHT = 320
/** Web Mercator world size in pixels at the tile zoom used with MAP_TILE_URL (4 x 4 tiles of 256). */
const TILE_ZOOM = 3
const WORLD = 256 * 2 ** TILE_ZOOM

// the base map ships inside the world-atlas package: no network needed
const land = feature(land110m as unknown as Topology, (land110m as unknown as Topology).objects.land as GeometryCollection)

/**
 * Agent location map. Offline by default: Natural Earth land outlines drawn as SVG. With a tile
 * server (MAP_TILE_URL) the same Web Mercator projection places raster tiles underneath. In pick
 * mode a click reports the latitude and longitude under the pointer.
 */
export function WorldMap({
  points,
  center,
  tileUrl,
  onPick,
  className,
}: {
  points: MapPoint[]
  center?: { lati: number; long: number } | null
  tileUrl?: string | null
  onPick?: (point: { lati: number; long: number }) => void
  className?: string
}) {
  const [hover, setHover] = useState<{ lati: number; long: number } | null>(null)
  const projection = useMemo(() => {
    if (tileUrl) {
      // pixel-exact Web Mercator at TILE_ZOOM, centred on the point of interest
      const p = geoMercator().scale(WORLD / (2 * Math.PI)).translate([WORLD / 2, WORLD / 2])
      const [cx, cy] = p([center?.long ?? 0, center?.lati ?? 20]) ?? [WORLD / 2, WORLD / 2]
      const ty = Math.min(0, Math.max(HEIGHT - WORLD, HEIGHT / 2 - cy))
      return p.translate([WORLD / 2 + WIDTH / 2 - cx, WORLD / 2 + ty])
    }
    return geoMercator().fitExtent(
      [
        [4, 4],
        [WIDTH - 4, HEIGHT + 90],
      ],
      { type: 'Sphere' },
    )
  }, [tileUrl, center?.lati, center?.long])
  const path = geoPath(projection)
  const tiles = useMemo(() => {
    if (!tileUrl) return []
    const [ox, oy] = projection.translate().map((v) => v - WORLD / 2)
    const n = 2 ** TILE_ZOOM
    const list: { href: string; x: number; y: number }[] = []
    for (let x = 0; x < n; x++) {
      for (let y = 0; y < n; y++) {
        const px = ox + x * 256
        const py = oy + y * 256
        if (px > WIDTH || py > HEIGHT || px + 256 < 0 || py + 256 < 0) continue
        list.push({ href: tileUrl.replace('{z}', String(TILE_ZOOM)).replace('{x}', String(x)).replace('{y}', String(y)), x: px, y: py })
      }
    }
    return list
  }, [tileUrl, projection])

  const toLatLong = (e: MouseEvent<SVGSVGElement>) => {
    const rect = e.currentTarget.getBoundingClientRect()
    const x = ((e.clientX - rect.left) / rect.width) * WIDTH
    const y = ((e.clientY - rect.top) / rect.height) * HEIGHT
    const inverted = projection.invert?.([x, y])
    if (!inverted) return null
    const [long, lati] = inverted
    if (Math.abs(lati) > 85 || Math.abs(long) > 180) return null
    return { lati: Math.round(lati * 1e4) / 1e4, long: Math.round(long * 1e4) / 1e4 }
  }

  return (
    <div className={cn('relative overflow-hidden rounded-md border bg-sky-50', className)}>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={onPick ? 'Map: click to pick the location' : 'Map'}
        className={cn('block h-auto w-full', onPick && 'cursor-crosshair')}
        onClick={(e) => {
          const point = onPick && toLatLong(e)
          if (point) onPick(point)
        }}
        onMouseMove={(e) => onPick && setHover(toLatLong(e))}
        onMouseLeave={() => setHover(null)}
      >
        {tiles.map((t) => (
          <image key={t.href} href={t.href} x={t.x} y={t.y} width={256} height={256} />
        ))}
        {tileUrl ? null : (
          <>
            <path d={path(geoGraticule10()) ?? ''} fill="none" stroke="#cbd5e1" strokeWidth={0.4} />
            <path d={path(land) ?? ''} fill="#e2e8f0" stroke="#94a3b8" strokeWidth={0.5} />
          </>
        )}
        {points.map((p) => {
          const xy = projection([p.long, p.lati])
          if (!xy) return null
          return (
            <g key={`${p.tone}-${p.lati}-${p.long}`} transform={`translate(${xy[0]},${xy[1]})`}>
              <title>{p.label}</title>
              <circle r={9} fill={p.tone === 'manual' ? '#7c3aed' : '#2563eb'} opacity={0.18} />
              <circle r={4.5} fill={p.tone === 'manual' ? '#7c3aed' : '#2563eb'} stroke="white" strokeWidth={1.5} />
            </g>
          )
        })}
      </svg>
      {onPick && hover ? (
        <span className="pointer-events-none absolute bottom-1 right-1 rounded bg-card/90 px-1.5 py-0.5 font-mono text-[11px] text-muted-foreground">
          {hover.lati.toFixed(4)}, {hover.long.toFixed(4)}
        </span>
      ) : null}
    </div>
  )
}
