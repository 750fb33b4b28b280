import { useSyncExternalStore } from 'react'

/**
 * The current time for relative-time cells, from one shared 2.5 s interval per tab. Only the
 * components that call this re-render on a tick: a page that called useNow itself re-rendered its
 * whole table every 2.5 s (docs/benchmarks.md, Pages on phones).
 */
export const TICK_MS = 2500

let now = 0
let timer: ReturnType<typeof setInterval> | null = null
const listeners = new Set<() => void>()

function subscribe(listener: () => void) {
  listeners.add(listener)
  if (!timer) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
      for (const l of listeners) l()
    }, TICK_MS)
  }
  return () => {
    listeners.delete(listener)
    if (!listeners.size && timer) {
      clearInterval(timer)
      timer = null
    }
  }
}

// cached between ticks (useSyncExternalStore needs a stable snapshot); subscribing refreshes it
const snapshot = () => (now ||= Date.now())
// the hydrating render must match the server's; relative texts (TimeAgo) read the clock themselves
const serverSnapshot = () => 0

/** Time of the last shared tick (ms); 0 during the server render and hydration. */
export function useTickingNow(): number {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot)
}
