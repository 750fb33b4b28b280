/**
 * A fast path for validating agent requests, compiled from the zod schemas in protocol/
 * (they stay the one source of truth). zod v3 builds a context, a path array and a status object
 * per value it visits: profiles of the ingest worker showed it as the largest cost per report
 * after JSON.parse, and much of the garbage. The compiled checker walks the schema definition once
 * and then only checks and copies, producing what zod would (defaults applied, unknown keys
 * stripped, passthrough keys kept, in zod's key order).
 *
 * Anything it does not know (transforms, other checks, `__proto__` keys) is handed to zod for
 * that part; and whenever the fast path says "invalid", zod parses the whole value again, so a bad
 * payload gets exactly zod's issues and messages.
 */
import { datetimeRegex, type SafeParseReturnType, type ZodTypeAny } from 'zod'

/** Returned by a checker for an invalid value (zod then explains why). */
const INVALID: unique symbol = Symbol('invalid')
type Checker = (value: unknown) => unknown

type Check = { kind: string; value?: number; inclusive?: boolean; offset?: boolean; local?: boolean; precision?: number | null }
type Def = {
  typeName: string
  checks?: Check[]
  coerce?: boolean
  innerType?: ZodTypeAny
  defaultValue?: () => unknown
  type?: ZodTypeAny
  minLength?: { value: number } | null
  maxLength?: { value: number } | null
  exactLength?: { value: number } | null
  shape?: () => Record<string, ZodTypeAny>
  unknownKeys?: 'strip' | 'passthrough' | 'strict'
  catchall?: ZodTypeAny
  options?: ZodTypeAny[] | readonly unknown[]
  value?: unknown
  values?: readonly unknown[]
  schema?: ZodTypeAny
  effect?: { type: string; refinement?: (value: unknown, ctx: unknown) => unknown }
  keyType?: ZodTypeAny
  valueType?: ZodTypeAny
}

const defOf = (schema: ZodTypeAny) => schema._def as Def

/** The zod schema itself for a part the compiler does not cover. */
function viaZod(schema: ZodTypeAny): Checker {
  return (value) => {
    const result = schema.safeParse(value)
    return result.success ? result.data : INVALID
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function compileString(schema: ZodTypeAny, def: Def): Checker {
  const tests: ((s: string) => boolean)[] = []
  for (const check of def.checks ?? []) {
    const n = check.value ?? 0
    if (check.kind === 'min') tests.push((s) => s.length >= n)
    else if (check.kind === 'max') tests.push((s) => s.length <= n)
    else if (check.kind === 'length') tests.push((s) => s.length === n)
    else if (check.kind === 'datetime') {
      const regex = datetimeRegex(check as Parameters<typeof datetimeRegex>[0])
      tests.push((s) => regex.test(s))
    } else return viaZod(schema)
  }
  return (value) => {
    if (typeof value !== 'string') return INVALID
    for (const test of tests) if (!test(value)) return INVALID
    return value
  }
}

function compileNumber(schema: ZodTypeAny, def: Def): Checker {
  const tests: ((n: number) => boolean)[] = []
  for (const check of def.checks ?? []) {
    const n = check.value ?? 0
    if (check.kind === 'int') tests.push((v) => Number.isInteger(v))
    else if (check.kind === 'min') tests.push(check.inclusive ? (v) => v >= n : (v) => v > n)
    else if (check.kind === 'max') tests.push(check.inclusive ? (v) => v <= n : (v) => v < n)
    else if (check.kind === 'finite') tests.push((v) => Number.isFinite(v))
    else return viaZod(schema)
  }
  return (value) => {
    if (typeof value !== 'number' || Number.isNaN(value)) return INVALID
    for (const test of tests) if (!test(value)) return INVALID
    return value
  }
}

/** Keys that can be written as `value.key` in generated code (everything else takes the generic path). */
const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/

/**
 * An object's checker as generated code: each known key read and written by name (`value.id`,
 * `out.id = ...`) rather than by a computed key, so V8 keeps inline caches for them and the parsed
 * objects share shapes; with a computed key every access was a dictionary lookup (profile of the
 * ingest worker: the object checker was most of validation's ~16 %).
 */
function generatedObject(keys: string[], checks: Checker[], passthrough: boolean): Checker {
  const lines = keys.map(
    (key, i) =>
      `p = Object.hasOwn(value, '${key}'); r = c[${i}](p ? value.${key} : undefined); if (r === INVALID) return INVALID; if (r !== undefined || p) out.${key} = r;`,
  )
  const rest = passthrough ? 'for (const key of Object.keys(value)) if (!known.has(key)) out[key] = value[key];' : ''
  const source = `return function checkObject(value) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.hasOwn(value, '__proto__')) return INVALID
    const out = {}
    let p, r
    ${lines.join('\n    ')}
    ${rest}
    return out
  }`
  // The source is built from the schema's own keys (checked against PLAIN_KEY), never from input.
  return new Function('INVALID', 'c', 'known', source)(INVALID, checks, new Set(keys)) as Checker
}

function compileObject(schema: ZodTypeAny, def: Def): Checker {
  const catchall = def.catchall && defOf(def.catchall).typeName !== 'ZodNever'
  if (catchall || def.unknownKeys === 'strict') return viaZod(schema)
  const passthrough = def.unknownKeys === 'passthrough'
  const entries = Object.entries(def.shape!()).map(([key, field]) => ({ key, check: compile(field) }))
  if (entries.every((e) => PLAIN_KEY.test(e.key))) {
    return generatedObject(
      entries.map((e) => e.key),
      entries.map((e) => e.check),
      passthrough,
    )
  }
  const known = new Set(entries.map((e) => e.key))
  return (value) => {
    if (!isPlainObject(value) || Object.hasOwn(value, '__proto__')) return INVALID
    const out: Record<string, unknown> = {}
    for (const { key, check } of entries) {
      const present = Object.hasOwn(value, key)
      const result = check(present ? value[key] : undefined)
      if (result === INVALID) return INVALID
      // zod sets a key when the result is defined or the input had it
      if (result !== undefined || present) out[key] = result
    }
    if (passthrough) for (const key of Object.keys(value)) if (!known.has(key)) out[key] = value[key]
    return out
  }
}

function compileArray(def: Def): Checker {
  const element = compile(def.type!)
  const min = def.exactLength?.value ?? def.minLength?.value ?? 0
  const max = def.exactLength?.value ?? def.maxLength?.value ?? Infinity
  return (value) => {
    if (!Array.isArray(value) || value.length < min || value.length > max) return INVALID
    const out = new Array<unknown>(value.length)
    for (let i = 0; i < value.length; i++) {
      const result = element(value[i])
      if (result === INVALID) return INVALID
      out[i] = result
    }
    return out
  }
}

function compileEffects(schema: ZodTypeAny, def: Def): Checker {
  const refinement = def.effect?.type === 'refinement' ? def.effect.refinement : undefined
  if (!refinement) return viaZod(schema)
  const inner = compile(def.schema!)
  // zod's .refine() reports a failure through ctx.addIssue (and returns false); one context for
  // all calls (a refinement runs synchronously to its end), not a new one and a closure per value
  let failed = false
  const context = { addIssue: () => (failed = true), path: [] }
  return (value) => {
    const result = inner(value)
    if (result === INVALID) return INVALID
    failed = false
    const outcome = refinement(result, context)
    return failed || outcome instanceof Promise ? INVALID : result
  }
}

function compileRecord(schema: ZodTypeAny, def: Def): Checker {
  if (defOf(def.keyType!).typeName !== 'ZodString' || defOf(def.keyType!).checks?.length) return viaZod(schema)
  const element = compile(def.valueType!)
  return (value) => {
    if (!isPlainObject(value) || Object.hasOwn(value, '__proto__')) return INVALID
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(value)) {
      const result = element(value[key])
      if (result === INVALID) return INVALID
      out[key] = result
    }
    return out
  }
}

const compiled = new WeakMap<ZodTypeAny, Checker>()

/** The checker of a schema (compiled once): the parsed value as zod would return it, or INVALID. */
function compile(schema: ZodTypeAny): Checker {
  let checker = compiled.get(schema)
  if (checker) return checker
  checker = build(schema)
  compiled.set(schema, checker)
  return checker
}

function build(schema: ZodTypeAny): Checker {
  const def = defOf(schema)
  if (def.coerce) return viaZod(schema)
  switch (def.typeName) {
    case 'ZodString':
      return compileString(schema, def)
    case 'ZodNumber':
      return compileNumber(schema, def)
    case 'ZodBoolean':
      return (value) => (typeof value === 'boolean' ? value : INVALID)
    case 'ZodNull':
      return (value) => (value === null ? value : INVALID)
    case 'ZodLiteral':
      return (value) => (value === def.value ? value : INVALID)
    case 'ZodEnum': {
      const values = new Set(def.values)
      return (value) => (typeof value === 'string' && values.has(value) ? value : INVALID)
    }
    case 'ZodUnknown':
    case 'ZodAny':
      return (value) => value
    case 'ZodOptional': {
      const inner = compile(def.innerType!)
      return (value) => (value === undefined ? undefined : inner(value))
    }
    case 'ZodNullable': {
      const inner = compile(def.innerType!)
      return (value) => (value === null ? null : inner(value))
    }
    case 'ZodDefault': {
      // zod parses the default value with the inner type too
      const inner = compile(def.innerType!)
      return (value) => inner(value === undefined ? def.defaultValue!() : value)
    }
    case 'ZodArray':
      return compileArray(def)
    case 'ZodObject':
      return compileObject(schema, def)
    case 'ZodUnion': {
      const options = (def.options as ZodTypeAny[]).map(compile)
      return (value) => {
        for (const option of options) {
          const result = option(value)
          if (result !== INVALID) return result
        }
        return INVALID
      }
    }
    case 'ZodEffects':
      return compileEffects(schema, def)
    case 'ZodRecord':
      return compileRecord(schema, def)
    default:
      return viaZod(schema)
  }
}

/**
 * `schema.safeParse(value)` with the same result: the compiled fast path for valid values, zod
 * itself for anything it calls invalid (so issues and messages are zod's).
 */
export function fastSafeParse<T extends ZodTypeAny>(schema: T, value: unknown): SafeParseReturnType<unknown, T['_output']> {
  const result = compile(schema)(value)
  if (result !== INVALID) return { success: true, data: result as T['_output'] }
  return schema.safeParse(value)
}
