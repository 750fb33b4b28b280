import { useRevalidator } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'

/** A log entry: newest first by time, then by id (the server's order). */
export type LogEntry = { id: string; created: Date | string }
export type LogPage<T extends LogEntry> = { items: T[]; nextCursor: string | null }

const time = (entry: LogEntry) => new Date(entry.created).getTime()
const newestFirst = (a: LogEntry, b: LogEntry) => time(b) - time(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)

/**
 * A log with the spec's loading pattern: a live first page (the loader's snapshot, refreshed by
 * revalidation) and older pages fetched by cursor as the user scrolls. A fresh snapshot is merged
 * into what is shown when it overlaps it; when it does not (more new entries than a page since
 * the last refresh) the list restarts from the snapshot, so it never shows a gap.
 */
export function useCursorLog<T extends LogEntry>(snapshot: LogPage<T>, fetchOlder: (cursor: string) => Promise<LogPage<T>>) {
  const [log, setLog] = useState<{ items: T[]; cursor: string | null }>({ items: snapshot.items, cursor: snapshot.nextCursor })
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)

  useEffect(() => {
    setLog((shown) => {
      const overlaps = snapshot.nextCursor === null || snapshot.items.some((s) => shown.items.some((e) => e.id === s.id))
      if (!overlaps || shown.items.length === 0) return { items: snapshot.items, cursor: snapshot.nextCursor }
      const fresh = new Set(snapshot.items.map((e) => e.id))
      return { items: [...snapshot.items, ...shown.items.filter((e) => !fresh.has(e.id))].sort(newestFirst), cursor: shown.cursor }
    })
  }, [snapshot])

  const { cursor } = log
  const loadingRef = useRef(false)
  const loadMore = useCallback(async () => {
    if (!cursor || loadingRef.current) return
    loadingRef.current = true
    setLoading(true)
    setError(null)
    try {
      const page = await fetchOlder(cursor)
      setLog((shown) => {
        const known = new Set(shown.items.map((e) => e.id))
        return { items: [...shown.items, ...page.items.filter((e) => !known.has(e.id))], cursor: page.nextCursor }
      })
    } catch (e) {
      setError((e as Error).message || 'An unrecognized error has occurred')
    } finally {
      loadingRef.current = false
      setLoading(false)
    }
  }, [cursor, fetchOlder])

  // Infinite scroll: load the next page when the sentinel under the list comes into view.
  const [sentinel, setSentinel] = useState<HTMLElement | null>(null)
  useEffect(() => {
    if (!sentinel || !cursor || error) return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void loadMore(), { rootMargin: '200px' })
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [sentinel, cursor, error, loadMore])

  return { items: log.items, hasMore: cursor !== null, loading, error, loadMore, sentinelRef: setSentinel }
}

/** Re-runs the page's loaders every `intervalMs` while the tab is visible (the live first page). */
export function useLiveRevalidation(intervalMs = 5000) {
  const revalidator = useRevalidator()
  const stateRef = useRef(revalidator.state)
  stateRef.current = revalidator.state
  const { revalidate } = revalidator
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible' && stateRef.current === 'idle') revalidate()
    }, intervalMs)
    return () => clearInterval(timer)
  }, [intervalMs, revalidate])
}
