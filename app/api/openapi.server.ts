import { type z } from 'zod'
import { ignoreOverride, zodToJsonSchema } from 'zod-to-json-schema'
import pkg from '../../package.json'
import { apiCalls } from './index.server'
import { projectNode } from './outputs/projects'
import { type ApiCalls } from './registry.server'

/** Schemas that refer to themselves live in components (inline they would end as `any` one level down). */
const namedSchemas: Record<string, z.ZodTypeAny> = { ProjectNode: projectNode }
const namedByDef = new Map<unknown, string>(Object.entries(namedSchemas).map(([name, schema]) => [schema._def, name]))

/** JSON Schema of a zod schema, inline; named schemas below the top become $refs to components. */
function jsonSchemaOf(schema: z.ZodTypeAny): Record<string, unknown> {
  // OpenAPI 3.1 schemas are JSON Schema 2020-12, which draft-07 output fits; the $schema key is dropped.
  const { $schema: _ignored, ...rest } = zodToJsonSchema(schema, {
    target: 'jsonSchema7',
    $refStrategy: 'none',
    override: (def, refs) => {
      const name = namedByDef.get(def)
      return name && refs.currentPath.length > 1 ? { $ref: `#/components/schemas/${name}` } : ignoreOverride
    },
  }) as Record<string, unknown>
  return rest
}

const errorSchema = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: { type: 'string', description: "e.g. 'invalid-argument', 'permission-denied', 'mvr-auth/notloggedin'" },
    message: { type: 'string' },
    issues: {
      type: 'array',
      description: 'per-field problems; an empty path is a general error',
      items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' } } },
    },
  },
} as const

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
})

/**
 * The OpenAPI 3.1 document of /client/v1, built from the same zod schema each call parses its body
 * with, so the document cannot drift from what the server accepts.
 */
export function buildOpenApiDocument(calls: ApiCalls = apiCalls) {
  const paths: Record<string, object> = {}
  for (const name of Object.keys(calls).sort()) {
    const call = calls[name]
    const schema = jsonSchemaOf(call.input)
    paths[`/client/v1/${name}`] = {
      post: {
        operationId: name.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')),
        tags: [name.startsWith('public/') ? 'public' : name.split('/')[0]],
        summary: name,
        ...(call.public ? { security: [] } : {}),
        parameters: [{ name: 'time', in: 'query', required: false, schema: { type: 'string' }, description: 'client timestamp, ignored by the server' }],
        requestBody: { required: false, content: { 'application/json': { schema } } },
        responses: {
          '200': { description: 'the answer', content: { 'application/json': { schema: jsonSchemaOf(call.output) } } },
          '400': errorResponse('invalid input: nothing changed'),
          '401': errorResponse('not signed in'),
          '403': errorResponse('permission denied or account disabled'),
          '404': errorResponse('unknown call or object'),
          '429': errorResponse('too many attempts'),
        },
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Pixelfleet client API',
      version: pkg.version,
      description:
        'Every call is POST /client/v1/{name} with a JSON object body and answers a JSON object (its schema is the 200 response; times are ISO 8601 strings). Errors answer { code, message, issues? }.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerToken: [] }, { sessionCookie: [] }],
    components: {
      securitySchemes: {
        bearerToken: { type: 'http', scheme: 'bearer', description: 'a personal API token (Settings > API Tokens, or `pixelfleet login`)' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'pf_session', description: 'the browser session of a signed-in user' },
      },
      schemas: { Error: errorSchema, ...Object.fromEntries(Object.entries(namedSchemas).map(([name, schema]) => [name, jsonSchemaOf(schema)])) },
    },
    paths,
  }
}
