import { useAfterHydration } from './after-hydration'

/**
 * Rows a table sends as HTML (decision 107): about what a 1080p screen shows above the fold. The
 * server renders a long table's first rows only; the browser renders the rest right after it
 * hydrates, from the page's data (already in it: nothing more is fetched). Rendering is most of a
 * large page's server CPU, a row at a time.
 */
export const SERVER_ROWS = 20

/**
 * `rows` cut to the first `count` on the server and while the browser hydrates (so both render the
 * same), all of them on every render after; a client-side navigation renders them all at once.
 */
export function useRowsOnServer<T>(rows: readonly T[], count = SERVER_ROWS): readonly T[] {
  const hydrated = useAfterHydration()
  return hydrated || rows.length <= count ? rows : rows.slice(0, count)
}
