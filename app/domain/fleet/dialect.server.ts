import { Prisma } from '@prisma/client'
import { isPostgres } from '~/utils/db.server'

/**
 * The few spots where the fleet's raw SQL differs between SQLite and PostgreSQL
 * (docs/decisions/009-postgresql-provider.md). Everything else is written once in SQL both accept:
 * quoted camelCase aliases, TRUE/FALSE, grouping by every non-aggregated table's key.
 */

/** A boolean column is true. SQLite stores 0/1; `noIndex` keeps SQLite's planner off its index (unary +). */
export function isTrue(column: string, options: { noIndex?: boolean } = {}): Prisma.Sql {
  if (isPostgres()) return Prisma.raw(column)
  return Prisma.raw(`${options.noIndex ? '+' : ''}${column} = 1`)
}

/** Case-insensitive ordering key of a text column. */
export function nocase(column: string): Prisma.Sql {
  return Prisma.raw(isPostgres() ? `LOWER(${column})` : `${column} COLLATE NOCASE`)
}

/** `column` contains `text`, ignoring ASCII case (LIKE is case-insensitive for ASCII in SQLite). */
export function containsText(column: string, text: string): Prisma.Sql {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return Prisma.sql`${Prisma.raw(column)} ${Prisma.raw(isPostgres() ? 'ILIKE' : 'LIKE')} ${pattern} ESCAPE '\\'`
}

/** A top-level key of a JSON object stored as text, as text (migration device_processor_input_index indexes this exact expression on Device.properties: keep them in step). */
export function jsonText(column: string, key: string): Prisma.Sql {
  if (!/^\w+$/.test(key)) throw new Error(`unexpected JSON key ${key}`)
  return Prisma.raw(isPostgres() ? `(${column}::jsonb ->> '${key}')` : `json_extract(${column}, '$.${key}')`)
}

/** The UTC day (YYYY-MM-DD) of a DateTime column (SQLite keeps ISO text, PostgreSQL timestamp(3) in UTC). */
export function utcDay(column: string): Prisma.Sql {
  return Prisma.raw(isPostgres() ? `to_char(${column}, 'YYYY-MM-DD')` : `substr(${column}, 1, 10)`)
}
