import { useCallback, useEffect, useRef, useState } from 'react'

export type TokenPage<T> = { items: T[]; nextPageToken: string | null }

/**
 * A list loaded page by page with `{ items, nextPageToken }` calls (admin users and agents).
 * Paging stops when a page is shorter than its size or has no next token (spec 01 section 9).
 * `restart` reloads from the first page (a new filter); answers of superseded requests are dropped.
 */
export function usePageTokenList<T>(first: TokenPage<T>, pageSize: number, fetchPage: (pageToken: string | null) => Promise<TokenPage<T>>) {
  const [items, setItems] = useState<T[]>(first.items)
  const [token, setToken] = useState<string | null>(first.items.length < pageSize ? null : first.nextPageToken)
  const [loading, setLoading] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const generation = useRef(0)
  const busy = useRef(false)

  const load = useCallback(
    async (pageToken: string | null, replace: boolean) => {
      const mine = replace ? ++generation.current : generation.current
      busy.current = true
      setLoading(true)
      setError(null)
      try {
        const page = await fetchPage(pageToken)
        if (mine !== generation.current) return
        setItems((shown) => (replace ? page.items : [...shown, ...page.items]))
        setToken(page.items.length < pageSize ? null : page.nextPageToken)
      } catch (e) {
        if (mine === generation.current) setError((e as Error).message || 'An unrecognized error has occurred')
      } finally {
        if (mine === generation.current) {
          busy.current = false
          setLoading(false)
        }
      }
    },
    [fetchPage, pageSize],
  )

  const loadMore = useCallback(() => {
    if (token && !busy.current) void load(token, false)
  }, [token, load])
  const restart = useCallback(() => void load(null, true), [load])

  // Infinite scroll: the next page loads when the sentinel under the table comes into view.
  const [sentinel, setSentinel] = useState<HTMLElement | null>(null)
  useEffect(() => {
    if (!sentinel || !token || error) return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadMore(), { rootMargin: '200px' })
    observer.observe(sentinel)
    return () => observer.disconnect()
  }, [sentinel, token, error, loadMore])

  return { items, setItems, hasMore: token !== null, loading, error, loadMore, restart, sentinelRef: setSentinel }
}
