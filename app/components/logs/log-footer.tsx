import { Loader2 } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { type useCursorLog, type LogEntry } from './use-cursor-log'

/**
 * The foot of a cursor-paged log (Activity, Metrics): the infinite-scroll sentinel, a
 * 'Load more (N loaded)' link while older pages exist, the last load's error, and the end marker.
 */
export function LogFooter<T extends LogEntry>({ log, noun }: { log: ReturnType<typeof useCursorLog<T>>; noun: string }) {
  const count = log.items.length
  return (
    <div ref={log.sentinelRef} className="flex items-center justify-center gap-2 border-t px-3 py-2 text-xs text-muted-foreground">
      {log.error ? <span className="text-destructive">{log.error}</span> : null}
      {log.hasMore ? (
        <Button variant="link" size="sm" onClick={() => void log.loadMore()} disabled={log.loading}>
          {log.loading ? <Loader2 className="animate-spin" /> : null}
          Load more ({count} loaded)
        </Button>
      ) : (
        <span>
          {count} {noun}(s), end of the log
        </span>
      )}
    </div>
  )
}
