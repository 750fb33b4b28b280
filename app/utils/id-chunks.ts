/**
 * Ids per statement where a list of ids is bound beside other conditions. Prisma splits a lone
 * `in` list itself, but not one combined with other filters, and SQLite takes 999 bound
 * parameters: such a query over a thousand rows failed (P2029). Two lists of this size and a few
 * other values still fit.
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
