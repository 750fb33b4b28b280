import { describe, expect, it } from 'vitest'
import { apiCalls } from '~/api/index.server'
import { loader } from '~/routes/client.v1.openapi[.]json'

type Operation = {
  security?: unknown[]
  requestBody: { content: { 'application/json': { schema: { type?: string; properties?: Record<string, unknown>; required?: string[] } } } }
}

describe('GET /client/v1/openapi.json', () => {
  it('documents every registered call with the schema its body is parsed with', async () => {
    const response = loader()
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toContain('application/json')
    const doc = (await response.json()) as { openapi: string; paths: Record<string, { post: Operation }> }
    expect(doc.openapi).toBe('3.1.0')

    const documented = Object.keys(doc.paths).map((p) => p.replace('/client/v1/', '')).sort()
    expect(documented).toEqual(Object.keys(apiCalls).sort())

    // A public call needs no credentials; a signed-in call keeps the document-wide security.
    expect(doc.paths['/client/v1/public/auth/userCreate'].post.security).toEqual([])
    expect(doc.paths['/client/v1/organization/update'].post.security).toBeUndefined()

    const update = doc.paths['/client/v1/organization/update'].post.requestBody.content['application/json'].schema
    expect(update.type).toBe('object')
    expect(Object.keys(update.properties ?? {})).toEqual(['id', 'doc'])
    expect(update.required).toEqual(['id', 'doc'])
  })
})
