import { buildOpenApiDocument } from '~/api/openapi.server'

let cached: string | undefined

/** GET /client/v1/openapi.json: the OpenAPI 3.1 document of every /client/v1 call. */
export function loader() {
  cached ??= JSON.stringify(buildOpenApiDocument())
  return new Response(cached, { headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' } })
}
