import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { DEFAULT_START, MAP_DELAY_MS, parseCoordinate, type LatLong } from '~/components/fleet/location-bounds'
import { LocationPicker } from '~/components/fleet/location-picker'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import type { AgentDetailPageData as Data } from '~/utils/agent-detail-page.server'

/**
 * The agent's location: automatic (geoip) or manual, picked on the map (shown MAP_DELAY_MS after
 * mount, the spec's 'Map shows 1 s after mount') or typed as coordinates.
 */
export function LocationCard({ data, organizationId }: { data: Data; organizationId: string }) {
  const { agent } = data
  const fetcher = useFetcher<{ ok: boolean; message?: string }>()
  const [picked, setPicked] = useState<{ lati: number; long: number } | null>(null)
  const [showMap, setShowMap] = useState(false)
  const [mapUnavailable, setMapUnavailable] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setShowMap(true), MAP_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.success(fetcher.data.message ?? 'Location updated')
      setPicked(null)
    } else toast.error(fetcher.data.message ?? 'An unrecognized error has occurred')
  }, [fetcher.state, fetcher.data])
  const pendingMode = fetcher.formData?.get('useLocationMode')
  const mode = agent.location.mode
  const manual = picked ?? agent.location.manual
  const submit = (useLocationMode: 'geoip' | 'manual', point?: { lati: number; long: number } | null) =>
    fetcher.submit(
      { intent: 'location', organizationId, agentId: agent.id, useLocationMode, ...(point ? { lati: String(point.lati), long: String(point.long) } : {}) },
      { method: 'post', action: '/resources/agent-actions' },
    )
  const points = [
    ...(agent.location.geoip ? [{ ...agent.location.geoip, label: `Automatic (geoip ${agent.location.geoip.lookupIP ?? ''})`, tone: 'geoip' as const }] : []),
    ...(manual ? [{ ...manual, label: 'Manual', tone: 'manual' as const }] : []),
  ]
  const current = mode === 'manual' ? manual : agent.location.geoip
  // the picker's fixed starting point: the location in use when the page opened, or DEFAULT_START;
  // typing coordinates elsewhere moves it there
  const [start, setStart] = useState<LatLong>(() => {
    const known = current ?? agent.location.geoip
    return known ? { lati: known.lati, long: known.long } : DEFAULT_START
  })
  const pick = (point: LatLong) => {
    setPicked(point)
    setTyped({ lati: String(point.lati), long: String(point.long) })
  }
  const [typed, setTyped] = useState({ lati: manual ? String(manual.lati) : '', long: manual ? String(manual.long) : '' })
  const [typedErrors, setTypedErrors] = useState<{ lati?: string; long?: string }>({})
  const applyTyped = () => {
    const lati = parseCoordinate(typed.lati, 'lati')
    const long = parseCoordinate(typed.long, 'long')
    setTypedErrors({ lati: 'error' in lati ? lati.error : undefined, long: 'error' in long ? long.error : undefined })
    if ('value' in lati && 'value' in long) {
      const point = { lati: lati.value, long: long.value }
      setPicked(point)
      setStart(point)
    }
  }
  const modeButton = (value: 'geoip' | 'manual', label: string) => {
    const inUse = mode === value && !(value === 'manual' && picked)
    return (
      <Button
        size="sm"
        variant={inUse ? 'secondary' : 'outline'}
        disabled={!data.capabilities.canLocate || fetcher.state !== 'idle' || inUse || (value === 'manual' && !manual)}
        onClick={() => submit(value, value === 'manual' ? manual : null)}
      >
        {pendingMode === value ? 'Updating' : inUse ? 'In Use' : label}
      </Button>
    )
  }
  return (
    <Card>
      <CardHeader className="flex-row items-center justify-between">
        <CardTitle>Location</CardTitle>
        <div className="flex gap-1.5">
          {modeButton('geoip', 'Use Automatic')}
          {modeButton('manual', 'Use Manual')}
        </div>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        {showMap ? (
          <LocationPicker start={start} points={points} tileUrl={data.mapTileUrl} onPick={data.capabilities.canLocate ? pick : undefined} onUnavailable={() => setMapUnavailable(true)} />
        ) : (
          <div className="h-72 w-full animate-pulse rounded-md border bg-muted/40" />
        )}
        <p className="text-xs text-muted-foreground">
          {current ? `${mode === 'manual' ? 'Manual' : 'Automatic'}: ${current.lati.toFixed(4)}, ${current.long.toFixed(4)}` : 'No location known yet.'}
          {data.capabilities.canLocate ? (picked ? ' · New point picked: press Use Manual to save it.' : mapUnavailable ? ' · Type coordinates to pick a manual location.' : ' · Click the map or type coordinates to pick a manual location.') : null}
        </p>
        {data.capabilities.canLocate ? (
          <form
            className="flex flex-wrap items-start gap-2"
            noValidate
            onSubmit={(e) => {
              e.preventDefault()
              applyTyped()
            }}
          >
            {(['lati', 'long'] as const).map((kind) => (
              <label key={kind} className="flex w-36 flex-col gap-1 text-xs font-medium text-foreground/80">
                {kind === 'lati' ? 'Latitude' : 'Longitude'}
                <Input
                  inputMode="decimal"
                  className="h-8"
                  value={typed[kind]}
                  placeholder={kind === 'lati' ? '-90 to 90' : '-180 to 180'}
                  aria-invalid={typedErrors[kind] ? true : undefined}
                  onChange={(e) => setTyped((t) => ({ ...t, [kind]: e.target.value }))}
                />
                {typedErrors[kind] ? <span className="font-normal text-destructive">{typedErrors[kind]}</span> : null}
              </label>
            ))}
            <Button type="submit" size="sm" variant="outline" className="mt-5">
              Set Point
            </Button>
          </form>
        ) : null}
      </CardContent>
    </Card>
  )
}
