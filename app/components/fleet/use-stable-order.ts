import { useEffect, useMemo, useRef, useState } from 'react'

/** Live Sort re-sorts at most once per second while updates keep arriving (spec 02 section 9). */
export const LIVE_SORT_DEBOUNCE_MS = 1000

/**
 * Row order under live updates: a new URL (page, sort, filter) shows the server's order at once;
 * a live refresh of the same URL keeps the rows where they are (values still update), unless
 * Live Sort is on, in which case the server's order is taken 1000 ms after the last refresh.
 */
export function useStableOrder<T extends { id: string }>(rows: T[], urlKey: string, liveSort: boolean): T[] {
  const [order, setOrder] = useState(() => rows.map((r) => r.id))
  const shownKey = useRef(urlKey)
  useEffect(() => {
    const ids = rows.map((r) => r.id)
    if (shownKey.current !== urlKey) {
      shownKey.current = urlKey
      setOrder(ids)
      return
    }
    if (liveSort) {
      const timer = setTimeout(() => setOrder(ids), LIVE_SORT_DEBOUNCE_MS)
      return () => clearTimeout(timer)
    }
  }, [rows, urlKey, liveSort])
  return useMemo(() => {
    const byId = new Map(rows.map((r) => [r.id, r]))
    const kept = order.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []))
    const known = new Set(order)
    return [...kept, ...rows.filter((r) => !known.has(r.id))]
  }, [rows, order])
}
