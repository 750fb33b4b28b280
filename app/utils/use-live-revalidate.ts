import { useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import type { ChangeEvent } from '~/domain/events/bus.server'

/** 'resync': the stream (re)opened, so anything that changed while it was closed was missed. */
type Listener = (events: ChangeEvent[] | 'resync') => void

/** One EventSource per tab, shared by every subscribed component. */
const listeners = new Set<Listener>()
let source: EventSource | null = null

function subscribe(listener: Listener) {
  listeners.add(listener)
  if (!source) {
    source = new EventSource('/resources/events')
    // Changes between the server render and this open (or during a reconnect) were not streamed.
    source.addEventListener('open', () => {
      document.documentElement.dataset.live = 'open'
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
 * a revalidation in flight is followed by exactly one more when events arrived meanwhile.
 */
export function useLiveRevalidate(organizationId: string | undefined, kinds?: ChangeEvent['kind'][], onEvents?: (events: ChangeEvent[]) => void) {
  const revalidator = useRevalidator()
  const state = useRef({ revalidator, kinds, onEvents, queued: false })
  state.current.revalidator = revalidator
  state.current.kinds = kinds
  state.current.onEvents = onEvents

  useEffect(() => {
    if (state.current.queued && revalidator.state === 'idle') {
      state.current.queued = false
      revalidator.revalidate()
    }
  }, [revalidator.state, revalidator])

  useEffect(() => {
    if (!organizationId) return
    return subscribe((events) => {
      const { kinds, revalidator, onEvents } = state.current
      if (events !== 'resync') {
        const relevant = events.filter((e) => e.organizationId === organizationId && (!kinds || kinds.includes(e.kind)))
        if (!relevant.length) return
        onEvents?.(relevant)
      }
      if (revalidator.state === 'idle') revalidator.revalidate()
      else state.current.queued = true
    })
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
