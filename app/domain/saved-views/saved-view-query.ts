import { parseColumns, parseFilters, parseSorting } from '../fleet/agents-table-state'

/** The agents-table parameters a saved view keeps (the page and expanded rows are not part of a view). */
export const SAVED_VIEW_PARAMS = ['filters', 'sorting', 'columns'] as const

/**
 * The table-state parameters of `search` (a URL query) that decode to something, in a fixed order;
 * '' when none does. Invalid values are dropped the way the table ignores them in a URL.
 */
export function savedViewQuery(search: string): string {
  const from = new URLSearchParams(search)
  const kept = new URLSearchParams()
  const decodes = { filters: (t: string) => parseFilters(t).length > 0, sorting: (t: string) => parseSorting(t).length > 0, columns: (t: string) => Object.keys(parseColumns(t)).length > 0 }
  for (const key of SAVED_VIEW_PARAMS) {
    const value = from.get(key)
    if (value && decodes[key](value)) kept.set(key, value)
  }
  return kept.toString()
}
