// npm run db:new-migration -- <name>: writes prisma/migrations/<timestamp>_<name>/migration.sql with
// the SQL that takes the last migration's schema snapshot to the current schema.prisma.
// The offline engine cannot diff against a database when an adapter is configured, so each
// migration folder keeps the schema.prisma it was made from (docs/decisions/002-prisma-offline.md).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const name = process.argv[2]
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('Usage: npm run db:new-migration -- <snake_case_name>')
  process.exit(2)
}
const migrations = 'prisma/migrations'
const last = fs
  .readdirSync(migrations)
  .filter((d) => fs.existsSync(path.join(migrations, d, 'schema.prisma')))
  .sort()
  .at(-1)
if (!last) throw new Error('No migration folder holds a schema.prisma snapshot')
const sql = execFileSync(
  process.execPath,
  ['node_modules/prisma/build/index.js', 'migrate', 'diff', '--from-schema-datamodel', path.join(migrations, last, 'schema.prisma'), '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
  { encoding: 'utf8' },
)
if (!sql.trim() || sql.includes('This is an empty migration')) {
  console.log('schema.prisma matches the last migration: nothing to write.')
  process.exit(0)
}
const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14)
const dir = path.join(migrations, `${stamp}_${name}`)
fs.mkdirSync(dir, { recursive: true })
fs.writeFileSync(path.join(dir, 'migration.sql'), sql)
fs.copyFileSync('prisma/schema.prisma', path.join(dir, 'schema.prisma'))
console.log(`Wrote ${dir}/migration.sql`)
