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

/** True while listeners are being called for a change that came from another node. */
export function isRemoteChange() {
  return applyingRemote
}
