/**
 * Row ids as Prisma's `@default(nanoid(20))` makes them, for raw INSERTs that bypass Prisma's
 * client-side defaults: ingest's prepared statements (ingest/sql-sqlite.server.ts re-exports these)
 * and the domain's bulk writes (the offline sweep).
 */
import { randomFillSync } from 'node:crypto'

/** Random bytes fetched in bulk: every message needs two or more fresh ids. */
const ID_BYTES = 15
const idPool = Buffer.alloc(ID_BYTES * 1024)
let idOffset = idPool.length
/** The offset of ID_BYTES fresh random bytes in idPool. */
function randomOffset(): number {
  if (idOffset === idPool.length) {
    randomFillSync(idPool)
    idOffset = 0
  }
  idOffset += ID_BYTES
  return idOffset - ID_BYTES
}
/** A row id like Prisma's nanoid(20): 20 url-safe random characters. */
export function newId(): string {
  const at = randomOffset()
  return idPool.toString('base64url', at, at + ID_BYTES)
}

/** nanoid's url-safe characters in ASCII order, so that ids compare like the numbers they encode. */
const ORDERED_ALPHABET = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'
/**
 * An id of 20 url-safe characters like newId(), whose first 8 encode the millisecond `now`:
 * rows of an append-only table (agent events) then go in at the end of its primary-key index
 * instead of at a random place in it (one more dirty index page per event in every commit).
 * The other 12 characters are random (72 bits).
 */
export function newOrderedId(now = Date.now()): string {
  let id = ''
  for (let i = 0, t = now; i < 8; i++, t = Math.floor(t / 64)) id = ORDERED_ALPHABET[t % 64] + id
  const at = randomOffset()
  for (let i = 0; i < 12; i++) id += ORDERED_ALPHABET[idPool[at + i] & 63]
  return id
}
