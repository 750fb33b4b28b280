#!/usr/bin/env node
// npm run test:scaleout: the integration, isolation (security) and broker suites again, each test
// on its own fresh PostgreSQL database (tests/setup/test-postgres.ts). Needs
// PIXELFLEET_TEST_POSTGRES_URL, a superuser URL (scripts/ensure-postgres.sh prints one).
// `--if-configured` (the end of `npm test`) skips quietly when it is not set. Other arguments go to
// Vitest; file filters among them select from the suites' files (not added to them).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PURE_FILES } from '../tests/setup/pure-files.mjs'

const root = path.resolve(import.meta.dirname, '..')
const url = process.env.PIXELFLEET_TEST_POSTGRES_URL
if (!url) {
  if (process.argv.includes('--if-configured')) process.exit(0)
  console.error('PIXELFLEET_TEST_POSTGRES_URL is not set: run `eval "$(scripts/ensure-postgres.sh --export)"` first (see docs/deployment.md).')
  process.exit(1)
}
const suites = ['tests/integration', 'tests/unit', 'tests/security', 'tests/broker', 'tests/scaleout']
// Files of those suites that never open a database: the SQLite run of `npm test` covers them, a
// second run proves nothing. Those of the `pure` project (tests/setup/pure-files.mjs, decision
// 078: its setup gives them no database at all), and the files of the `suite` project listed here.
// A file missing here only costs time, so new files run on PostgreSQL until someone lists them.
const databaseFree = [
  ...PURE_FILES,
  // sets TZ, which is process-wide: kept out of the `pure` project's shared thread
  'tests/unit/format-time.test.ts',
]
const args = process.argv.slice(2).filter((a) => a !== '--if-configured')

// Vitest options whose value is the next argument (`-t name`): that value is no file filter.
const TAKES_VALUE = new Set(['-t', '--testNamePattern', '--reporter', '--exclude', '--project', '--shard', '--retry', '--bail', '-c', '--config', '--outputFile', '--maxWorkers', '--minWorkers', '--pool', '--testTimeout', '--hookTimeout', '-r', '--root', '--dir'])
const filters = args.filter((arg, i) => !arg.startsWith('-') && !TAKES_VALUE.has(args[i - 1] ?? ''))
const options = args.filter((arg) => !filters.includes(arg))

/** The suites' test files that pass Vitest's file filters, if any (a filter matches when the path contains it). */
function filteredFiles() {
  const files = suites.flatMap((dir) => fs.readdirSync(path.join(root, dir), { recursive: true }).map((name) => path.join(dir, String(name))))
  return files
    .filter((file) => file.endsWith('.test.ts') && !databaseFree.includes(file))
    .filter((file) => !filters.length || filters.some((filter) => file.includes(path.normalize(filter).replace(/^\.\//, ''))))
}

// Vitest ORs file filters with the suites, so the suites' files are named one by one (matching
// the filters, if any), all of the `suite` project.
const selection = filteredFiles()
if (!selection.length) {
  console.log(`PostgreSQL run skipped: no file of ${suites.join(', ')} (database-free files left out) matches ${filters.join(' ')}`)
  process.exit(0)
}
console.log(
  filters.length
    ? `Running ${selection.length} file(s) matching ${filters.join(' ')} on PostgreSQL (${new URL(url).host})`
    : `Running ${suites.join(', ')} on PostgreSQL (${new URL(url).host}): ${selection.length} files, without the database-free ones`,
)
const result = spawnSync('npx', ['vitest', 'run', '--project', 'suite', ...selection, ...options], {
  cwd: root,
  stdio: 'inherit',
  // the suites need no browser build of their own beyond what `npm test` made
  env: { ...process.env, PIXELFLEET_TEST_DATABASE: 'postgres' },
})
process.exit(result.status ?? 1)
