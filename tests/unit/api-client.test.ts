import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, callApi } from '~/utils/api-client'

/** The browser's error codes (spec 01 section 7): 'API/{code}', else 'http/{status}', else 'axios/{code}'. */
describe('callApi error codes', () => {
  afterEach(() => vi.unstubAllGlobals())

  const codeOf = async (fetchImpl: () => Promise<Response>) => {
    vi.stubGlobal('fetch', vi.fn(fetchImpl))
    const error = await callApi('organization/list').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    return (error as ApiError).code
  }

  it('codes a server error API/{code}, an answer without one http/{status}', async () => {
    expect(await codeOf(async () => new Response(JSON.stringify({ code: 'permission-denied', message: 'No' }), { status: 403 }))).toBe('API/permission-denied')
    expect(await codeOf(async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))).toBe('http/502')
  })

  it('codes a transport failure axios/{code} as the spec says', async () => {
    expect(await codeOf(() => Promise.reject(new TypeError('Failed to fetch')))).toBe('axios/ERR_NETWORK')
    expect(await codeOf(() => Promise.reject(new DOMException('The operation was aborted.', 'AbortError')))).toBe('axios/ERR_CANCELED')
  })
})
