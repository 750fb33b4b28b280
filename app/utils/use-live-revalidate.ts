import { useRevalidator, useRouteLoaderData } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { ChangeEvent } from '~/domain/events/bus.server'
import { LIVE_REVALIDATE_MIN_MS, startLiveRevalidation } from './live-revalidate'

/** 'resync': the stream (re)opened, so anything that changed while it was closed was missed. */
type Listener = (events: ChangeEvent[] | 'resync') => void

/** One EventSource per tab, shared by every subscribed component. */
const listeners = new Set<Listener>()
let source: EventSource | null = null

function subscribe(listener: Listener, since: string | undefined) {
  listeners.add(listener)
  if (!source) {
    // With `since` (the page's render mark) the server replays the changes made after the render,
    // or sends `resync` when it cannot: a page load no longer reloads all its data at once.
    source = new EventSource(since ? `/resources/events?since=${encodeURIComponent(since)}` : '/resources/events')
    let opened = false
    // Changes during a reconnect (or, without `since`, before the first open) were not streamed.
    source.addEventListener('open', () => {
      document.documentElement.dataset.live = 'open'
      const first = !opened
      opened = true
      if (first && since) return
      for (const l of listeners) l('resync')
    })
    source.addEventListener('resync', () => {
      for (const l of listeners) l('resync')
    })
    source.addEventListener('error', () => {
      document.documentElement.dataset.live = 'closed'
    })
    source.addEventListener('change', (message) => {
      const events = JSON.parse((message as MessageEvent<string>).data) as ChangeEvent[]
      for (const l of listeners) l(events)
    })
  }
  return () => {
    listeners.delete(listener)
    if (!listeners.size && source) {
      source.close()
      source = null
    }
  }
}

/**
 * Revalidates the page's loaders when a change event about `organizationId` (and, if given, of
 * one of `kinds`) arrives over /resources/events. The server already merges events for 100 ms;
 * reloads are coalesced to one per LIVE_REVALIDATE_MIN_MS per tab (the first at once), and layouts
 * whose data the changes cannot touch are skipped (live-revalidate.ts).
 */
export function useLiveRevalidate(organizationId: string | undefined, kinds?: ChangeEvent['kind'][], onEvents?: (events: ChangeEvent[]) => void) {
  const revalidator = useRevalidator()
  const since = (useRouteLoaderData('root') as { liveSince?: string } | undefined)?.liveSince
  const sinceRef = useRef(since)
  // pending: kinds of changes not yet reloaded ('resync': everything); last: when the last reload started
  const state = useRef({ revalidator, kinds, onEvents, pending: null as ChangeEvent['kind'][] | 'resync' | null, last: 0, timer: null as ReturnType<typeof setTimeout> | null })
  state.current.revalidator = revalidator
  state.current.kinds = kinds
  state.current.onEvents = onEvents

  const flush = useRef(() => {
    const s = state.current
    if (!s.pending || s.timer || s.revalidator.state !== 'idle') return
    const wait = s.last + LIVE_REVALIDATE_MIN_MS - Date.now()
    if (wait > 0) {
      s.timer = setTimeout(() => {
        s.timer = null
        flush.current()
      }, wait)
      return
    }
    const pending = s.pending
    s.pending = null
    s.last = Date.now()
    startLiveRevalidation(pending, () => s.revalidator.revalidate())
  })

  // a revalidation in flight is followed by exactly one more when changes arrived meanwhile
  useEffect(() => {
    if (revalidator.state === 'idle') flush.current()
  }, [revalidator.state, revalidator])

  useEffect(() => {
    if (!organizationId) return
    const current = state.current
    const unsubscribe = subscribe((events) => {
      const s = current
      if (events === 'resync') s.pending = 'resync'
      else {
        const relevant = events.filter((e) => e.organizationId === organizationId && (!s.kinds || s.kinds.includes(e.kind)))
        if (!relevant.length) return
        s.onEvents?.(relevant)
        if (s.pending !== 'resync') s.pending = [...new Set([...(s.pending ?? []), ...relevant.map((e) => e.kind)])]
      }
      flush.current()
    }, sinceRef.current)
    return () => {
      unsubscribe()
      if (current.timer) clearTimeout(current.timer)
      current.timer = null
    }
  }, [organizationId])
}

/** The current time, refreshed every `intervalMs` (relative times tick every 2.5 s in the workspace). */
export function useNow(intervalMs = 2500) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(id)
  }, [intervalMs])
  return now
}
