import { useFetcher } from '@remix-run/react'
import { useEffect } from 'react'
import { toast } from 'sonner'
import type { ActionFailure, ActionSuccess } from '~/utils/errors.server'

type ActionResult = ActionSuccess<unknown> | ActionFailure

/** A fetcher for one intent of the login page's action; its success message becomes a toast. */
export function useIntentFetcher(key: string) {
  const fetcher = useFetcher<ActionResult>({ key })
  const result = fetcher.data as ActionResult | undefined
  useEffect(() => {
    if (fetcher.state === 'idle' && result?.ok && result.message) toast.success(result.message)
  }, [fetcher.state, result])
  const failure = result && !result.ok ? result : null
  return { fetcher, result, failure, busy: fetcher.state !== 'idle' }
}
