import { useEffect, useState } from 'react'
import { formatDateTime, timeAgo } from '~/utils/format-time'

/** Set once the app has hydrated: later mounts (client navigation) use the browser's zone at once. */
let hydrated = false

/**
 * True after hydration. The server knows neither the browser's time zone nor its clock, so the
 * first client render must repeat the server's output (else React reports a hydration mismatch
 * and renders the whole page again); the browser's values follow right after.
 */
function useHydrated() {
  const [isHydrated, setHydrated] = useState(hydrated)
  useEffect(() => {
    hydrated = true
    setHydrated(true)
  }, [])
  return isHydrated
}

type TimeValue = string | number | Date

const isoOf = (value: TimeValue) => (typeof value === 'number' ? new Date(value * 1000) : new Date(value)).toISOString()

/** An absolute date and time in the browser's zone (UTC until hydrated, as the server renders it); nothing for null. */
export function DateTime({ value, seconds, className }: { value: TimeValue | null | undefined; seconds?: boolean; className?: string }) {
  const isHydrated = useHydrated()
  if (value === null || value === undefined) return null
  return (
    <time dateTime={isoOf(value)} className={className}>
      {formatDateTime(value, { seconds, timeZone: isHydrated ? undefined : 'UTC' })}
    </time>
  )
}

/** 'N ago' by the browser's clock; the server's text stays until hydration without a mismatch warning. */
export function TimeAgo({ value, className }: { value: TimeValue; className?: string }) {
  useHydrated() // one more render after hydration, with the browser's clock
  return (
    <time dateTime={isoOf(value)} className={className} suppressHydrationWarning>
      {timeAgo(value)}
    </time>
  )
}
