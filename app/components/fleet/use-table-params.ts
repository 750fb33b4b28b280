import { useSearchParams } from '@remix-run/react'
import { useCallback, useEffect, useRef } from 'react'
import { encodeState } from '~/domain/fleet/agents-table-state'

/** Writes one or more table-state parameters; empty values are removed so URLs stay short. */
export function useTableParams() {
  const [params, setParams] = useSearchParams()
  // the URL being navigated to: quick successive changes (two column toggles) build on each other
  // instead of each starting from the URL that is still showing
  const latest = useRef(params)
  const setter = useRef(setParams)
  useEffect(() => {
    latest.current = params
    setter.current = setParams
  }, [params, setParams])
  // stable for the page's life, so the memoized header, rows and pager skip live re-renders
  const update = useCallback((changes: Record<string, string | null> | ((prev: URLSearchParams) => Record<string, string | null>), resetPage = false) => {
    const next = new URLSearchParams(latest.current)
    for (const [key, value] of Object.entries(typeof changes === 'function' ? changes(latest.current) : changes)) {
      if (value === null || value === '') next.delete(key)
      else next.set(key, value)
    }
    if (resetPage) next.delete('page')
    latest.current = next
    setter.current(next, { replace: true, preventScrollReset: true })
  }, [])
  return { params, update }
}

/** What `update` of useTableParams takes (one table-state instance is shared by the whole list). */
export type UpdateTableParams = ReturnType<typeof useTableParams>['update']

export const encodeOrNull = (value: unknown[] | Record<string, unknown>) => (Array.isArray(value) ? (value.length ? encodeState(value) : null) : Object.keys(value).length ? encodeState(value) : null)
