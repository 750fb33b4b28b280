// Prisma 6's query compiler (the Rust-free client, a wasm module on the calling thread) compiles
// every query anew: 0.3-2 ms of CPU each, about a third of a page's server CPU (decision 105).
// Queries of one shape differ only in their values, so this caches one plan per shape: the
// values are lifted out of the query, the plan is compiled once with stand-ins in their place, and
// each later query of the shape gets that plan with its own values put back. Prisma 7.4 does the
// same inside the client (prisma/orm#29038); this is for 6.19, wrapped around the generated
// clients' compiler class (installPlanCache).
//
// A shape is cached only when it is proven safe on its first use: the plan compiled with stand-ins,
// its stand-ins replaced by the real values, must equal the plan compiled from the real query.
// That fails, and the shape stays uncached, wherever the compiler does more than copy a value into
// the plan (a `contains` pattern, a value it validates or parses), and wherever the plan is not
// plain JSON. Only reads are cached: a write's plan may carry values made while compiling.
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'

type Compiler = { compile(query: string): unknown }
type JsonQuery = { modelName?: string; action: string; query: unknown }

/** Reads only: a write's plan may hold generated values (ids, timestamps) that must not be reused. */
const CACHED_ACTIONS = new Set(['findMany', 'findFirst', 'findFirstOrThrow', 'findUnique', 'findUniqueOrThrow', 'count', 'aggregate', 'groupBy'])
/** Strings under these keys choose the query's form (sort order, grouping, case mode): part of the shape. */
const SHAPE_KEYS = new Set(['orderBy', 'by', 'distinct', 'mode', 'sort', 'nulls', 'relationLoadStrategy', '$type'])
const MAX_SHAPES = 2000
/** marks a compiler class already wrapped (a module loaded twice, a second install) */
const WRAPPED = Symbol.for('pixelfleet.planCache')

// Stand-ins no real value can equal: random per process and JSON-safe (no escapes). A DateTime
// value's stand-in must be a date: a random second of the 13th century, the value's number its
// milliseconds (so up to 1,000 values per query).
const TOKEN = randomBytes(9).toString('base64url')
const standIn = (n: number) => `pfq${n}-${TOKEN}`
const DATE_SECOND = Date.UTC(1200, 0, 1) + Math.floor(Math.random() * 3e9) * 1000
const dateStandIn = (n: number) => {
  if (n >= 1000) throw new Error('too many values for date stand-ins')
  return new Date(DATE_SECOND + n).toISOString()
}
const DATE_PREFIX = new Date(DATE_SECOND).toISOString().slice(0, -4)
const STAND_IN_JSON = new RegExp(`"(?:pfq(\\d+)-${TOKEN}|${DATE_PREFIX.replace(/[.]/g, '\\.')}(\\d{3})Z)"`, 'g')

type Entry = { plan: string } | { uncacheable: true }
const shapes = new Map<string, Entry>()
export const planCacheStats = { hits: 0, misses: 0, uncacheable: 0, verified: 0 }
/** Tests compile every query twice and compare: a plan put together wrongly fails loudly. */
let verifyEveryHit = false

const isDateTime = (node: object): node is { $type: 'DateTime'; value: string } => (node as { $type?: unknown }).$type === 'DateTime' && typeof (node as { value?: unknown }).value === 'string'

/** The shape of a query (its values replaced by `?`) and those values in order. */
function shapeOf(node: unknown, keep: boolean, values: string[]): string {
  if (typeof node === 'string') {
    if (keep) return JSON.stringify(node)
    values.push(node)
    return '?'
  }
  if (node === null || typeof node !== 'object') return String(node)
  if (Array.isArray(node)) return `[${node.map((item) => shapeOf(item, keep, values)).join(',')}]`
  if (!keep && isDateTime(node)) {
    values.push(node.value)
    return '{D?}'
  }
  // other typed values ({ $type: 'Decimal', value }...) stay whole: they are parsed, not copied
  const typed = keep || '$type' in node
  let out = '{'
  for (const [key, value] of Object.entries(node)) out += `${JSON.stringify(key)}:${shapeOf(value, typed || SHAPE_KEYS.has(key), values)},`
  return `${out}}`
}

/** The query with each value of shapeOf's list replaced by its stand-in (same walk, same order). */
function withStandIns(node: unknown, keep: boolean, next: { n: number }): unknown {
  if (typeof node === 'string') return keep ? node : standIn(next.n++)
  if (node === null || typeof node !== 'object') return node
  if (Array.isArray(node)) return node.map((item) => withStandIns(item, keep, next))
  if (!keep && isDateTime(node)) return { ...node, value: dateStandIn(next.n++) }
  const typed = keep || '$type' in node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) out[key] = withStandIns(value, typed || SHAPE_KEYS.has(key), next)
  return out
}

/** The plan's JSON, or null when it holds anything JSON would not carry back unchanged. */
function plainJson(plan: unknown): string | null {
  let plain = true
  const json = JSON.stringify(plan, function (this: Record<string, unknown>, key, converted: unknown) {
    // the holder's own value: a Date (or anything with toJSON) arrives here already a string
    const value = key === '' ? plan : this[key]
    if (value === undefined || typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') plain = false
    else if (typeof value === 'number' && !Number.isFinite(value)) plain = false
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const proto = Object.getPrototypeOf(value)
      if (proto !== Object.prototype && proto !== null) plain = false
    }
    return converted
  })
  return plain ? json : null
}

const fill = (plan: string, values: string[]) => plan.replace(STAND_IN_JSON, (_, n: string | undefined, ms: string | undefined) => JSON.stringify(values[Number(n ?? ms)]))

function remember(key: string, entry: Entry) {
  if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!)
  shapes.set(key, entry)
}

/** Compiles `json` (the query `query` as Prisma serialized it) through the shape cache. */
export function compileCached(compiler: Compiler, json: string, query: JsonQuery): unknown {
  if (!CACHED_ACTIONS.has(query.action) || !query.modelName) return compiler.compile(json)
  const values: string[] = []
  const key = `${query.modelName}.${query.action}:${shapeOf(query.query, false, values)}`
  const entry = shapes.get(key)
  if (entry && 'plan' in entry) {
    // most recently used last: the oldest shape is the one dropped when the cache is full
    shapes.delete(key)
    shapes.set(key, entry)
    planCacheStats.hits++
    const filled = fill(entry.plan, values)
    if (verifyEveryHit) {
      const real = plainJson(compiler.compile(json))
      if (real !== filled) throw new Error(`prisma plan cache: the cached plan of ${key} differs from the compiled one:\n${filled}\n${real}`)
      planCacheStats.verified++
    }
    return JSON.parse(filled)
  }
  const real = compiler.compile(json)
  if (entry) {
    planCacheStats.uncacheable++
    return real
  }
  planCacheStats.misses++
  remember(key, proveShape(compiler, query, values, real) ?? { uncacheable: true })
  return real
}

/** The shape's plan with stand-ins, if filling it with this query's values gives the real plan. */
function proveShape(compiler: Compiler, query: JsonQuery, values: string[], real: unknown): Entry | null {
  if (!values.length) {
    const plan = plainJson(real)
    return plan === null ? null : { plan }
  }
  let template: string | null
  try {
    template = plainJson(compiler.compile(JSON.stringify({ ...query, query: withStandIns(query.query, false, { n: 0 }) })))
  } catch {
    return null // a stand-in where the compiler wants a particular string (it validates or parses it)
  }
  const realJson = plainJson(real)
  if (template === null || realJson === null || fill(template, values) !== realJson) return null
  return { plan: template }
}

/**
 * Makes both generated clients (SQLite's and PostgreSQL's, each with its own compiler module)
 * compile through the cache. Once per process; `verifyEveryHit` is for tests.
 */
export function installPlanCache(options: { enabled: boolean; verifyEveryHit?: boolean }) {
  // PRISMA_PLAN_CACHE=off: the way back to Prisma's own compiling, should a plan ever be in doubt
  if (!options.enabled) return
  verifyEveryHit = options.verifyEveryHit ?? false
  const require = createRequire(createRequire(import.meta.url).resolve('@prisma/client'))
  for (const client of ['.prisma/client', '.prisma/client-pg']) {
    const { QueryCompiler } = require(`${client}/query_compiler_bg.js`) as { QueryCompiler: { prototype: Compiler & { [WRAPPED]?: true } } }
    const proto = QueryCompiler.prototype
    if (proto[WRAPPED]) continue
    const compile = proto.compile
    proto.compile = function (this: Compiler, json: string) {
      const compiler = { compile: (query: string) => compile.call(this, query) }
      return compileCached(compiler, json, JSON.parse(json) as JsonQuery)
    }
    proto[WRAPPED] = true
  }
}
