import { Loader2 } from 'lucide-react'
import { useState } from 'react'
import { lastSeenBucket } from '~/domain/agents/derived'
import { cn } from '~/utils/cn'
import { DateTime, TimeAgo } from '~/components/ui/date-time'
import { useTickingNow } from '~/utils/use-ticking-now'

const MODES = ['absolute', 'relative', 'bucket'] as const
export type LastSeenMode = (typeof MODES)[number]

/**
 * Last Seen: the value or 'Never'; a click cycles absolute date, relative 'N ago' and the bucket
 * label (spec 02 section 4). Without `now` the cell ticks on the shared clock (useTickingNow), so a
 * tick re-renders these cells only, not the table around them; every cell ticks together. Dates and
 * relative times render through DateTime/TimeAgo, so a page hydrates without a mismatch in any
 * time zone; the server always renders the default 'relative' mode (the others follow a click).
 */
export function LastSeen({ value, now, mode: controlled, onCycle, className }: { value: string | null; now?: number; mode?: LastSeenMode; onCycle?: () => void; className?: string }) {
  const [own, setOwn] = useState<LastSeenMode>('relative')
  const tick = useTickingNow()
  const mode = controlled ?? own
  if (!value) return <span className={cn('text-muted-foreground', className)}>Never</span>
  const bucket = lastSeenBucket(value, now ?? (tick || Date.now()))
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
      {mode === 'absolute' ? <DateTime value={value} /> : mode === 'relative' ? <TimeAgo value={value} /> : <span>{bucket}</span>}
    </button>
  )
}

export const nextLastSeenMode = (mode: LastSeenMode): LastSeenMode => MODES[(MODES.indexOf(mode) + 1) % MODES.length]
