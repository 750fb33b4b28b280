/**
 * Ids per statement where a list of ids is bound beside other conditions. Prisma splits a lone
 * `in` list itself, but not one combined with other filters: such a query fails (P2029) past the
 * database's bound-parameter limit (SQLite's was taken as 999 until app/utils/db.server.ts
 * declared 32766; PostgreSQL 32767). Lists of fleet rows can exceed either, so they go by chunks,
 * which also keeps each statement short.
 */
export const ID_CHUNK = 400

export function chunked<T>(items: readonly T[], size = ID_CHUNK): T[][] {
  const chunks: T[][] = []
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size))
  return chunks
}

/** `load` once per chunk of `items`, one after the other (one connection at a time), results concatenated. */
export async function inChunks<T, R>(items: readonly T[], load: (chunk: T[]) => Promise<R[]>, size = ID_CHUNK): Promise<R[]> {
  const results: R[] = []
  for (const chunk of chunked(items, size)) results.push(...(await load(chunk)))
  return results
}
