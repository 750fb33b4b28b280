import { formatDateTime, timeAgo } from '~/utils/format-time'
import { useAfterHydration } from './after-hydration'

type TimeValue = string | number | Date

const isoOf = (value: TimeValue) => (typeof value === 'number' ? new Date(value * 1000) : new Date(value)).toISOString()

/**
 * An absolute date and time in the browser's zone (UTC until hydrated, as the server renders it:
 * the server knows neither the browser's zone nor its clock, so the first client render repeats
 * the server's output and the browser's values follow right after); nothing for null.
 */
export function DateTime({ value, seconds, className }: { value: TimeValue | null | undefined; seconds?: boolean; className?: string }) {
  const isHydrated = useAfterHydration()
  if (value === null || value === undefined) return null
  return (
    <time dateTime={isoOf(value)} className={className}>
      {formatDateTime(value, { seconds, timeZone: isHydrated ? undefined : 'UTC' })}
    </time>
  )
}

/** 'N ago' by the browser's clock; the server's text stays until hydration without a mismatch warning. */
export function TimeAgo({ value, className }: { value: TimeValue; className?: string }) {
  useAfterHydration() // one more render after hydration, with the browser's clock
  return (
    <time dateTime={isoOf(value)} className={className} suppressHydrationWarning>
      {timeAgo(value)}
    </time>
  )
}
