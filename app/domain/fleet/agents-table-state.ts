/**
 * The agents table state as it lives in the URL (spec 02 section 2, Agents list): page and limit as
 * numbers; filters, sorting, expanded and columns as base64 of JSON. Shared by the loader (which
 * filters, sorts and pages in the database) and the browser (which writes the URL). Invalid values
 * are ignored, never an error.
 */
import { z } from 'zod'

export const PAGE_SIZES = [5, 10, 25, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 25

/** Columns the database can sort by (every data column of the table). */
export const SORTABLE_COLUMNS = [
  'id',
  'connected',
  'name',
  'serial',
  'systemsCount',
  'systemsTotal',
  'systemsAssigned',
  'systemsAvailable',
  'product',
  'version',
  'lastSeen',
  'remoteConnect',
  'health',
] as const
export type SortableColumn = (typeof SORTABLE_COLUMNS)[number]

/** Faceted filters of the toolbar; `name` is the text filter. */
export const FACETS = ['product', 'version', 'connected', 'input'] as const
export type Facet = (typeof FACETS)[number]
export const CONNECTED_VALUES = ['Connected', 'Disconnected'] as const

/** Hidden unless the user shows them. */
export const HIDDEN_BY_DEFAULT = ['id', 'serial', 'systemsTotal', 'systemsAssigned', 'systemsAvailable'] as const

const sortingSchema = z.array(z.object({ id: z.enum(SORTABLE_COLUMNS), desc: z.boolean() })).max(SORTABLE_COLUMNS.length)
const filterSchema = z.union([
  z.object({ id: z.literal('name'), value: z.string().max(200) }),
  z.object({ id: z.enum(FACETS), value: z.array(z.string().max(200)).max(200) }),
])
const filtersSchema = z.array(z.unknown()).max(10)
const expandedSchema = z.record(z.string().max(64), z.boolean())
const columnsSchema = z.record(z.string().max(64), z.boolean())

export type Sorting = z.infer<typeof sortingSchema>
export type ColumnFilter = z.infer<typeof filterSchema>
export type AgentFilters = { name: string; product: string[]; version: string[]; connected: string[]; input: string[] }
export type AgentTableQuery = { page: number; limit: number; filters: AgentFilters; sorting: Sorting }

export function encodeState(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

/** Decodes a base64-JSON parameter; undefined when absent or not valid for `schema`. */
export function decodeState<T>(text: string | null, schema: z.ZodType<T>): T | undefined {
  if (!text) return undefined
  try {
    const json = new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)))
    const parsed = schema.safeParse(JSON.parse(json))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

const positiveInt = (text: string | null) => {
  const n = Number(text)
  return Number.isInteger(n) && n > 0 ? n : undefined
}

/** Column filters of the URL; entries that are not valid filters are dropped one by one. */
export function parseFilters(text: string | null): ColumnFilter[] {
  const raw = decodeState(text, filtersSchema) ?? []
  return raw.flatMap((entry) => {
    const parsed = filterSchema.safeParse(entry)
    return parsed.success ? [parsed.data] : []
  })
}

export const parseSorting = (text: string | null): Sorting => {
  const sorting = decodeState(text, sortingSchema) ?? []
  // one entry per column: a repeated id would make the ORDER BY ambiguous
  return sorting.filter((s, i) => sorting.findIndex((o) => o.id === s.id) === i)
}
export const parseExpanded = (text: string | null): Record<string, boolean> => decodeState(text, expandedSchema) ?? {}
export const parseColumns = (text: string | null): Record<string, boolean> => decodeState(text, columnsSchema) ?? {}

export function filtersToQuery(filters: ColumnFilter[]): AgentFilters {
  const result: AgentFilters = { name: '', product: [], version: [], connected: [], input: [] }
  for (const f of filters) {
    if (f.id === 'name') result.name = f.value.trim()
    else result[f.id] = f.value
  }
  return result
}

/** Everything the loader needs from the URL. */
export function parseAgentTableQuery(params: URLSearchParams): AgentTableQuery {
  const limitValue = positiveInt(params.get('limit'))
  const limit = (PAGE_SIZES as readonly number[]).includes(limitValue ?? 0) ? limitValue! : DEFAULT_PAGE_SIZE
  return {
    page: positiveInt(params.get('page')) ?? 1,
    limit,
    filters: filtersToQuery(parseFilters(params.get('filters'))),
    sorting: parseSorting(params.get('sorting')),
  }
}

/** Header texts of the data columns (table, column menu and CSV export). */
export const COLUMN_LABELS: Record<SortableColumn, string> = {
  id: 'ID',
  connected: 'Connected',
  name: 'Name',
  serial: 'Serial',
  systemsCount: 'Systems',
  systemsTotal: 'Systems Total',
  systemsAssigned: 'Systems Assigned',
  systemsAvailable: 'Systems Available',
  product: 'Product',
  version: 'Version',
  lastSeen: 'Last Seen',
  remoteConnect: 'Remote Connect',
  health: 'Health',
}

/** Visibility of every data column: the defaults overlaid with the URL's choices. */
export function visibleColumns(columns: Record<string, boolean>): SortableColumn[] {
  return SORTABLE_COLUMNS.filter((c) => columns[c] ?? !(HIDDEN_BY_DEFAULT as readonly string[]).includes(c))
}
