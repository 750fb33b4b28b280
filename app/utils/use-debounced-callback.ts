import { useEffect, useMemo, useRef } from 'react'

/** Calls `fn` once `delayMs` after the last call (preference saves, filters). */
export function useDebouncedCallback<A extends unknown[]>(fn: (...args: A) => void, delayMs: number) {
  const fnRef = useRef(fn)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => {
    fnRef.current = fn
  })
  useEffect(() => () => clearTimeout(timer.current), [])
  return useMemo(
    () =>
      Object.assign(
        (...args: A) => {
          clearTimeout(timer.current)
          timer.current = setTimeout(() => fnRef.current(...args), delayMs)
        },
        // drops a call still waiting (an action that supersedes it, e.g. Reset after typing)
        { cancel: () => clearTimeout(timer.current) },
      ),
    [delayMs],
  )
}
