import { Loader2 } from 'lucide-react'
import { useState } from 'react'
import { lastSeenBucket } from '~/domain/agents/derived'
import { cn } from '~/utils/cn'
import { formatDateTime, timeAgo } from '~/utils/format-time'

const MODES = ['absolute', 'relative', 'bucket'] as const
export type LastSeenMode = (typeof MODES)[number]

/**
 * Last Seen: the value or 'Never'; a click cycles absolute date, relative 'N ago' and the bucket
 * label (spec 02 section 4). `now` comes from useNow so every cell ticks together.
 */
export function LastSeen({ value, now, mode: controlled, onCycle, className }: { value: string | null; now: number; mode?: LastSeenMode; onCycle?: () => void; className?: string }) {
  const [own, setOwn] = useState<LastSeenMode>('relative')
  const mode = controlled ?? own
  if (!value) return <span className={cn('text-muted-foreground', className)}>Never</span>
  const bucket = lastSeenBucket(value, now)
  const text = mode === 'absolute' ? formatDateTime(value) : mode === 'relative' ? timeAgo(value, now) : bucket
  return (
    <button
      type="button"
      title="Click to switch between date, relative time and age group"
      className={cn('inline-flex items-center gap-1 whitespace-nowrap text-left hover:underline', className)}
      onClick={(e) => {
        e.stopPropagation()
        if (onCycle) onCycle()
        else setOwn(MODES[(MODES.indexOf(mode) + 1) % MODES.length])
      }}
    >
      {mode === 'bucket' && bucket === 'Now' ? <Loader2 className="size-3 animate-spin" aria-hidden /> : null}
      <span suppressHydrationWarning>{text}</span>
    </button>
  )
}

export const nextLastSeenMode = (mode: LastSeenMode): LastSeenMode => MODES[(MODES.indexOf(mode) + 1) % MODES.length]
