import { useRevalidator } from '@remix-run/react'
import { useCallback, useState } from 'react'
import { toast } from 'sonner'
import { ApiError, callApi } from './api-client'

type RunOptions = {
  /** identifies the running request (busy state of one button or row) */
  key?: string
  /** toast shown on success */
  success?: string
  /** return true when the error was handled (a dialog), otherwise it is shown as an error toast */
  onError?: (error: ApiError) => boolean | void
  /** title of the error toast (the server message becomes its description) */
  errorTitle?: string
}

/**
 * Runs a /client/v1 call from a screen: tracks which request is running, toasts success or the
 * server's message, and revalidates the page's loaders afterwards so tables show the change.
 */
export function useApiMutation() {
  const { revalidate } = useRevalidator()
  const [pending, setPending] = useState<string[]>([])

  const run = useCallback(
    async <T = Record<string, unknown>>(name: string, body: object, options: RunOptions = {}): Promise<T | undefined> => {
      const key = options.key ?? name
      setPending((p) => [...p, key])
      try {
        const result = await callApi<T>(name, body)
        if (options.success) toast.success(options.success)
        revalidate()
        return result
      } catch (e) {
        const error = e instanceof ApiError ? e : new ApiError('unknown', 'An unrecognized error has occurred')
        if (!options.onError?.(error)) {
          const message = error.message || 'An unrecognized error has occurred'
          if (options.errorTitle) toast.error(options.errorTitle, { description: message })
          else toast.error(message)
        }
        return undefined
      } finally {
        setPending((p) => {
          const i = p.indexOf(key)
          return i < 0 ? p : [...p.slice(0, i), ...p.slice(i + 1)]
        })
      }
    },
    [revalidate],
  )

  return { run, isPending: (key: string) => pending.includes(key), anyPending: pending.length > 0 }
}
