import { useSearchParams } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { encodeState } from '~/domain/fleet/agents-table-state'

/** Writes one or more table-state parameters; empty values are removed so URLs stay short. */
export function useTableParams() {
  const [params, setParams] = useSearchParams()
  // the URL being navigated to: quick successive changes (two column toggles) build on each other
  // instead of each starting from the URL that is still showing
  const latest = useRef(params)
  useEffect(() => {
    latest.current = params
  }, [params])
  const update = (changes: Record<string, string | null> | ((prev: URLSearchParams) => Record<string, string | null>), resetPage = false) => {
    const next = new URLSearchParams(latest.current)
    for (const [key, value] of Object.entries(typeof changes === 'function' ? changes(latest.current) : changes)) {
      if (value === null || value === '') next.delete(key)
      else next.set(key, value)
    }
    if (resetPage) next.delete('page')
    latest.current = next
    setParams(next, { replace: true, preventScrollReset: true })
  }
  return { params, update }
}

/** What `update` of useTableParams takes (one table-state instance is shared by the whole list). */
export type UpdateTableParams = ReturnType<typeof useTableParams>['update']

export const encodeOrNull = (value: unknown[] | Record<string, unknown>) => (Array.isArray(value) ? (value.length ? encodeState(value) : null) : Object.keys(value).length ? encodeState(value) : null)
