import { z } from 'zod'

/**
 * API inputs are closed (issue #29, docs/decisions/049-closed-api-inputs.md): every object in a
 * call's input schema refuses unknown keys, so a misspelt field is a 400 naming it instead of being
 * dropped. Applied once in defineCall, so it covers the domain's schemas the calls reuse without
 * changing them for the web forms (which build new schemas, nothing is mutated).
 */
export function closed<S extends z.ZodTypeAny>(schema: S): S {
  return close(schema) as S
}

function close(schema: z.ZodTypeAny): z.ZodTypeAny {
  const def = schema._def as z.ZodTypeDef & Record<string, unknown> & { typeName: z.ZodFirstPartyTypeKind }
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodObject: {
      const object = schema as z.AnyZodObject
      const shape = Object.fromEntries(Object.entries(object.shape as z.ZodRawShape).map(([key, value]) => [key, close(value)]))
      // the rest of the definition stays: a custom message of an already strict object is kept
      return new z.ZodObject({
        ...object._def,
        unknownKeys: 'strict',
        shape: () => shape,
      })
    }
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodNullable:
    case z.ZodFirstPartyTypeKind.ZodDefault:
    case z.ZodFirstPartyTypeKind.ZodCatch:
    case z.ZodFirstPartyTypeKind.ZodReadonly:
      return rebuild(schema, {
        innerType: close(def.innerType as z.ZodTypeAny),
      })
    case z.ZodFirstPartyTypeKind.ZodBranded:
      return rebuild(schema, { type: close(def.type as z.ZodTypeAny) })
    case z.ZodFirstPartyTypeKind.ZodEffects:
      return rebuild(schema, { schema: close(def.schema as z.ZodTypeAny) })
    case z.ZodFirstPartyTypeKind.ZodPipeline:
      return rebuild(schema, {
        in: close(def.in as z.ZodTypeAny),
        out: close(def.out as z.ZodTypeAny),
      })
    case z.ZodFirstPartyTypeKind.ZodArray:
      return rebuild(schema, { type: close(def.type as z.ZodTypeAny) })
    case z.ZodFirstPartyTypeKind.ZodUnion:
      return rebuild(schema, {
        options: (def.options as z.ZodTypeAny[]).map(close),
      })
    case z.ZodFirstPartyTypeKind.ZodDiscriminatedUnion: {
      const replaced = new Map((def.options as z.ZodTypeAny[]).map((option) => [option, close(option)]))
      const optionsMap = new Map([...(def.optionsMap as Map<unknown, z.ZodTypeAny>)].map(([value, option]) => [value, replaced.get(option) ?? close(option)]))
      return rebuild(schema, { options: [...replaced.values()], optionsMap })
    }
    case z.ZodFirstPartyTypeKind.ZodTuple:
      return rebuild(schema, {
        items: (def.items as z.ZodTypeAny[]).map(close),
        rest: def.rest ? close(def.rest as z.ZodTypeAny) : null,
      })
    case z.ZodFirstPartyTypeKind.ZodRecord:
      return rebuild(schema, {
        valueType: close(def.valueType as z.ZodTypeAny),
      })
    default:
      return schema
  }
}

/** A schema of the same class with some of its definition replaced (zod schemas are immutable). */
function rebuild(schema: z.ZodTypeAny, replace: Record<string, unknown>): z.ZodTypeAny {
  const Schema = schema.constructor as new (def: unknown) => z.ZodTypeAny
  return new Schema({ ...schema._def, ...replace })
}

/** Where an input schema is open: the paths of passthrough/strip objects, unknown, any and records. */
export function openParts(schema: z.ZodTypeAny, path = '(body)'): string[] {
  const def = schema._def as Record<string, unknown> & {
    typeName: z.ZodFirstPartyTypeKind
  }
  const inner = (key: string) => def[key] as z.ZodTypeAny
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodObject: {
      const object = schema as z.AnyZodObject
      const own = def.unknownKeys === 'strict' && inner('catchall')._def.typeName === z.ZodFirstPartyTypeKind.ZodNever ? [] : [`${path}: object takes unknown keys (${String(def.unknownKeys)})`]
      return [...own, ...Object.entries(object.shape as z.ZodRawShape).flatMap(([key, value]) => openParts(value, `${path}.${key}`))]
    }
    case z.ZodFirstPartyTypeKind.ZodUnknown:
    case z.ZodFirstPartyTypeKind.ZodAny:
      return [`${path}: ${def.typeName === z.ZodFirstPartyTypeKind.ZodAny ? 'any' : 'unknown'}`]
    case z.ZodFirstPartyTypeKind.ZodRecord:
      return [`${path}: record`, ...openParts(inner('valueType'), `${path}.*`)]
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodNullable:
    case z.ZodFirstPartyTypeKind.ZodDefault:
    case z.ZodFirstPartyTypeKind.ZodCatch:
    case z.ZodFirstPartyTypeKind.ZodReadonly:
      return openParts(inner('innerType'), path)
    case z.ZodFirstPartyTypeKind.ZodBranded:
    case z.ZodFirstPartyTypeKind.ZodArray:
      return openParts(inner('type'), def.typeName === z.ZodFirstPartyTypeKind.ZodArray ? `${path}[]` : path)
    case z.ZodFirstPartyTypeKind.ZodEffects:
      return openParts(inner('schema'), path)
    case z.ZodFirstPartyTypeKind.ZodPipeline:
      // what the caller sends is the pipeline's input side
      return openParts(inner('in'), path)
    case z.ZodFirstPartyTypeKind.ZodUnion:
    case z.ZodFirstPartyTypeKind.ZodDiscriminatedUnion:
      return (def.options as z.ZodTypeAny[]).flatMap((option, i) => openParts(option, `${path}|${i}`))
    case z.ZodFirstPartyTypeKind.ZodTuple:
      return (def.items as z.ZodTypeAny[]).flatMap((item, i) => openParts(item, `${path}[${i}]`))
    case z.ZodFirstPartyTypeKind.ZodIntersection:
      return [...openParts(inner('left'), path), ...openParts(inner('right'), path)]
    case z.ZodFirstPartyTypeKind.ZodLazy:
      return [`${path}: lazy schema (not walked)`]
    default:
      return []
  }
}

/** The top-level fields a call's input takes (every variant's, for a union). */
export function inputKeys(schema: z.ZodTypeAny): string[] {
  const def = schema._def as Record<string, unknown> & { typeName: z.ZodFirstPartyTypeKind }
  switch (def.typeName) {
    case z.ZodFirstPartyTypeKind.ZodObject:
      return Object.keys((schema as z.AnyZodObject).shape as z.ZodRawShape)
    case z.ZodFirstPartyTypeKind.ZodEffects:
      return inputKeys(def.schema as z.ZodTypeAny)
    case z.ZodFirstPartyTypeKind.ZodOptional:
    case z.ZodFirstPartyTypeKind.ZodNullable:
    case z.ZodFirstPartyTypeKind.ZodDefault:
      return inputKeys(def.innerType as z.ZodTypeAny)
    case z.ZodFirstPartyTypeKind.ZodPipeline:
      return inputKeys(def.in as z.ZodTypeAny)
    case z.ZodFirstPartyTypeKind.ZodUnion:
    case z.ZodFirstPartyTypeKind.ZodDiscriminatedUnion:
      return [...new Set((def.options as z.ZodTypeAny[]).flatMap(inputKeys))]
    default:
      return []
  }
}
