import { useRef } from 'react'

type Shared<T> = { rows: T[]; shared: T[]; texts: Map<string, { row: T; text: string }> }

/**
 * Structural sharing for a live list: a reload answers every row as a new object, so memoized rows
 * would all re-render. This keeps the previous object of each row (by id) whose content is
 * unchanged, and the previous array when no row changed, so only changed rows render again.
 * Rows are plain JSON (loader data), so comparing their JSON text is exact.
 */
export function shareRows<T extends { id: string }>(last: Shared<T> | null, rows: T[]): Shared<T> {
  if (last && last.rows === rows) return last
  const texts = new Map<string, { row: T; text: string }>()
  let changed = !last || last.shared.length !== rows.length
  const shared = rows.map((row, i) => {
    const text = JSON.stringify(row)
    const before = last?.texts.get(row.id)
    const kept = before && before.text === text ? before.row : row
    texts.set(row.id, { row: kept, text })
    if (!changed && last!.shared[i] !== kept) changed = true
    return kept
  })
  return { rows, shared: changed || !last ? shared : last.shared, texts }
}

/** `rows` with unchanged rows (and an unchanged list) kept as the objects shown before. */
export function useSharedRows<T extends { id: string }>(rows: T[]): T[] {
  const state = useRef<Shared<T> | null>(null)
  state.current = shareRows(state.current, rows)
  return state.current.shared
}
