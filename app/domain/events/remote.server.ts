import { announceIngestChanges } from './ingest-origin.server'
import { emitChange, type ChangeEvent } from './bus.server'

/**
 * Changes made on another web node (external broker mode: they arrive through the broker's
 * `pixelfleet.events` fanout exchange). They are emitted on this node's bus like local ones, so
 * live updates and cache invalidation work unchanged; listeners that act once per change for the
 * whole cluster (forwarding to other nodes, pushing agent configs) skip them with isRemoteChange().
 */
let applyingRemote = false

export function emitRemoteChange(event: ChangeEvent) {
  applyingRemote = true
  try {
    emitChange(event)
  } finally {
    applyingRemote = false
  }
}

/**
 * Changes another node's ingest committed (pings, presence, state): live views hear them, but this
 * node's ingest caches keep their agents. Each agent's messages are committed by the node owning
 * their partition (docs/decisions/011), so what another node's ingest wrote is not cached here; a
 * node that takes a partition over drops its caches first (broker/external-partitions.ts).
 */
export function emitRemoteIngestChanges(events: ChangeEvent[]) {
  applyingRemote = true
  try {
    announceIngestChanges(events)
  } finally {
    applyingRemote = false
  }
}

/** True while listeners are being called for a change that came from another node. */
export function isRemoteChange() {
  return applyingRemote
}
