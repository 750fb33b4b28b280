/**
 * The /client/v1 calls as the CLI's `pixelfleet api <call>` commands know them: each call's input
 * fields (one option each) and, for a list answer, the list and its columns. Built from the live
 * OpenAPI document (pure: no server code), written to cli/api-calls.generated.json by
 * `npm run cli:api-calls`; tests/cli/cli-api-coverage.test.ts fails when the file is out of date.
 */

type JsonSchema = {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  anyOf?: JsonSchema[]
  items?: JsonSchema
  enum?: unknown[]
  const?: unknown
  description?: string
}
export type OpenApiDocument = {
  paths: Record<string, { post: { requestBody: { content: { 'application/json': { schema: JsonSchema } } }; responses: Record<string, { content?: { 'application/json': { schema: JsonSchema } } }> } }>
  components: { schemas: Record<string, JsonSchema> }
}

/** How an option's text becomes the body's value. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'json'
export type ManifestField = { name: string; kind: FieldKind; required: boolean; choices?: string[]; description?: string }
export type ManifestCall = { name: string; public: boolean; fields: ManifestField[]; list?: { property: string; columns: string[] } }

const typesOf = (schema: JsonSchema): string[] => {
  if (schema.anyOf) return schema.anyOf.flatMap(typesOf)
  if (schema.const !== undefined) return [typeof schema.const]
  if (Array.isArray(schema.type)) return schema.type
  return schema.type ? [schema.type] : []
}

function kindOf(schema: JsonSchema): FieldKind {
  const types = typesOf(schema).filter((t) => t !== 'null')
  if (types.length === 1 && types[0] === 'string') return 'string'
  if (types.length >= 1 && types.every((t) => t === 'number' || t === 'integer')) return 'number'
  if (types.length === 1 && types[0] === 'boolean') return 'boolean'
  return 'json'
}

/** Fields of an object schema; a union of objects (issue/list) offers every field, required only when every variant requires it. */
function fieldsOf(schema: JsonSchema): ManifestField[] {
  const variants = schema.anyOf ?? [schema]
  const byName = new Map<string, ManifestField>()
  for (const variant of variants) {
    for (const [name, property] of Object.entries(variant.properties ?? {})) {
      if (byName.has(name)) continue
      const required = variants.every((v) => v.required?.includes(name))
      const choices = property.enum?.every((e) => typeof e === 'string') ? (property.enum as string[]) : undefined
      byName.set(name, { name, kind: kindOf(property), required, ...(choices ? { choices } : {}), ...(property.description ? { description: property.description } : {}) })
    }
  }
  return [...byName.values()]
}

const isScalar = (schema: JsonSchema) => kindOf(schema) !== 'json'

/** The answer's list: its only array-of-objects property, shown one row per item with the item's scalar fields. */
function listOf(schema: JsonSchema, components: Record<string, JsonSchema>): ManifestCall['list'] {
  const arrays = Object.entries(schema.properties ?? {}).filter(([, p]) => p.type === 'array' && p.items)
  if (arrays.length !== 1) return undefined
  const [property, array] = arrays[0]
  const ref = (array.items as { $ref?: string }).$ref
  const item = ref ? components[ref.split('/').at(-1) ?? ''] : array.items
  const columns = Object.entries(item?.properties ?? {})
    .filter(([, p]) => isScalar(p))
    .map(([name]) => name)
  return columns.length ? { property, columns } : undefined
}

/** The manifest of every documented call (sorted by name), leaving out the deliberately CLI-less ones. */
export function buildApiCallsManifest(document: OpenApiDocument, cliLess: Record<string, string>): ManifestCall[] {
  return Object.entries(document.paths)
    .map(([path, item]) => ({ name: path.replace('/client/v1/', ''), post: item.post }))
    .filter(({ name }) => !Object.hasOwn(cliLess, name))
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ name, post }) => {
      const output = post.responses['200']?.content?.['application/json'].schema ?? {}
      const list = listOf(output, document.components.schemas)
      return {
        name,
        public: Array.isArray((post as { security?: unknown[] }).security),
        fields: fieldsOf(post.requestBody.content['application/json'].schema),
        ...(list ? { list } : {}),
      }
    })
}
