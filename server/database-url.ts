import fs from 'node:fs'
import path from 'node:path'

/** The embedded default keeps its database under ./data (created on demand). */
export const DEFAULT_DATABASE_URL = 'file:./data/pixelfleet.db'

/** Resolves a `file:` URL to an absolute one and makes sure its folder exists. */
export function resolveDatabaseUrl(url: string | undefined): string {
  const value = url && url.length > 0 ? url : DEFAULT_DATABASE_URL
  if (!value.startsWith('file:')) return value
  const file = path.resolve(value.slice('file:'.length))
  fs.mkdirSync(path.dirname(file), { recursive: true })
  return `file:${file}`
}
