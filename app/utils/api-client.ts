/** Browser-side /client/v1 caller with the spec's error codes ('API/{code}', else 'http/{status}', else 'axios/{code}'). */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly issues: { path: string; message: string }[] = [],
  ) {
    super(message)
  }
}

export async function callApi<T = Record<string, unknown>>(name: string, body: object = {}): Promise<T> {
  let response: Response
  try {
    response = await fetch(`/client/v1/${name}?time=${Date.now()}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
  } catch (error) {
    throw new ApiError(`axios/${transportCode(error)}`, (error as Error).message)
  }
  let data: unknown
  try {
    data = await response.json()
  } catch {
    data = undefined
  }
  if (!response.ok) {
    const d = data as { code?: string; message?: string; issues?: { path: string; message: string }[] } | undefined
    // A disabled account is signed out at once; the login page says why (spec 01 section 8).
    if (d?.code === 'mvr-auth/disabled' && typeof window !== 'undefined') window.location.assign('/login?error=mvr-auth/disabled')
    if (d?.code) throw new ApiError(`API/${d.code}`, d.message ?? 'An unrecognized error has occurred', d.issues)
    throw new ApiError(`http/${response.status}`, response.statusText || 'An unrecognized error has occurred')
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new ApiError('API/malformed', 'Response is not an object')
  return data as T
}

/**
 * The spec names transport failures 'axios/{code}' (spec 01 section 7) after the client it was
 * written for; fetch has no codes, so a failed request gets the code axios gives the same failure:
 * ERR_CANCELED when it was aborted, ERR_NETWORK otherwise.
 */
export const transportCode = (error: unknown): 'ERR_CANCELED' | 'ERR_NETWORK' => (error instanceof Error && error.name === 'AbortError' ? 'ERR_CANCELED' : 'ERR_NETWORK')
