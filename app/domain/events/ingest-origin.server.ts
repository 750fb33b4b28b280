import { emitChange, type ChangeEvent } from './bus.server'

/**
 * Ingest's own change events (pings, presence, state reports) are marked while emitted (emit is
 * synchronous) so listeners can tell them from changes a person made: caches of what ingest wrote
 * keep their agents, and read caches drop only what a report moves. Ingest (ingest/) announces
 * through here; the web domain only asks.
 */
let emittingOwnChanges = false
export const isIngestChange = () => emittingOwnChanges

/** Emits change events ingest made (here or, posted back, in the ingest worker) as ingest's own. */
export function announceIngestChanges(changes: Iterable<ChangeEvent>) {
  emittingOwnChanges = true
  try {
    for (const change of changes) emitChange(change)
  } finally {
    emittingOwnChanges = false
  }
}
