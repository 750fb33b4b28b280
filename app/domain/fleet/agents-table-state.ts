/**
 * The agents table state as it lives in the URL (spec 02 section 2, Agents list): page and limit as
 * numbers; filters, sorting, expanded and columns as base64 of JSON. Shared by the loader (which
 * filters, sorts and pages in the database) and the browser (which writes the URL). Invalid values
 * are ignored, never an error. Checked by hand, not with zod: the agents list's browser code imports
 * this module, and zod was ~15 KB (gzip) of that page's first-load JavaScript (docs/benchmarks.md).
 */

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

export type Sorting = { id: SortableColumn; desc: boolean }[]
export type ColumnFilter = { id: 'name'; value: string } | { id: Facet; value: string[] }
export type AgentFilters = { name: string; product: string[]; version: string[]; connected: string[]; input: string[] }
export type AgentTableQuery = { page: number; limit: number; filters: AgentFilters; sorting: Sorting }

/** A validator: the value as its type (only the known fields), or undefined when it is not one. */
type Check<T> = (value: unknown) => T | undefined

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const shortString = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max
const oneOf = <T extends string>(values: readonly T[], value: unknown): value is T => (values as readonly unknown[]).includes(value)

const checkSorting: Check<Sorting> = (value) => {
  if (!Array.isArray(value) || value.length > SORTABLE_COLUMNS.length) return undefined
  const sorting: Sorting = []
  for (const entry of value) {
    if (!isRecord(entry) || !oneOf(SORTABLE_COLUMNS, entry.id) || typeof entry.desc !== 'boolean') return undefined
    sorting.push({ id: entry.id, desc: entry.desc })
  }
  return sorting
}
const checkFilter: Check<ColumnFilter> = (entry) => {
  if (!isRecord(entry)) return undefined
  if (entry.id === 'name') return shortString(entry.value, 200) ? { id: 'name', value: entry.value } : undefined
  const values = entry.value
  if (!oneOf(FACETS, entry.id) || !Array.isArray(values) || values.length > 200 || !values.every((v) => shortString(v, 200))) return undefined
  return { id: entry.id, value: [...(values as string[])] }
}
const checkFilterList: Check<unknown[]> = (value) => (Array.isArray(value) && value.length <= 10 ? value : undefined)
/** An object of booleans under keys of at most 64 characters (expanded rows, column visibility). */
const checkFlags: Check<Record<string, boolean>> = (value) => {
  if (!isRecord(value)) return undefined
  const flags: Record<string, boolean> = {}
  for (const [key, flag] of Object.entries(value)) {
    if (key.length > 64 || typeof flag !== 'boolean') return undefined
    // never a prototype change through a crafted URL (JSON.parse makes "__proto__" an own key)
    if (key !== '__proto__') flags[key] = flag
  }
  return flags
}

export function encodeState(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

/** Decodes a base64-JSON parameter; undefined when absent or not valid for `check`. */
export function decodeState<T>(text: string | null, check: Check<T>): T | undefined {
  if (!text) return undefined
  try {
    const json = new TextDecoder().decode(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)))
    return check(JSON.parse(json))
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
  const raw = decodeState(text, checkFilterList) ?? []
  return raw.flatMap((entry) => {
    const filter = checkFilter(entry)
    return filter ? [filter] : []
  })
}

export const parseSorting = (text: string | null): Sorting => {
  const sorting = decodeState(text, checkSorting) ?? []
  // one entry per column: a repeated id would make the ORDER BY ambiguous
  return sorting.filter((s, i) => sorting.findIndex((o) => o.id === s.id) === i)
}
export const parseExpanded = (text: string | null): Record<string, boolean> => decodeState(text, checkFlags) ?? {}
export const parseColumns = (text: string | null): Record<string, boolean> => decodeState(text, checkFlags) ?? {}

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
