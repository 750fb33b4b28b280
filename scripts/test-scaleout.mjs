#!/usr/bin/env node
// npm run test:scaleout: the integration, isolation (security) and broker suites again, each test
// on its own fresh PostgreSQL database (tests/setup/test-postgres.ts). Needs
// PIXELFLEET_TEST_POSTGRES_URL, a superuser URL (scripts/ensure-postgres.sh prints one).
// `--if-configured` (the end of `npm test`) skips quietly when it is not set. Other arguments go to
// Vitest; file filters among them select from the suites' files (not added to them).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const url = process.env.PIXELFLEET_TEST_POSTGRES_URL
if (!url) {
  if (process.argv.includes('--if-configured')) process.exit(0)
  console.error('PIXELFLEET_TEST_POSTGRES_URL is not set: run `eval "$(scripts/ensure-postgres.sh --export)"` first (see docs/deployment.md).')
  process.exit(1)
}
const suites = ['tests/integration', 'tests/unit', 'tests/security', 'tests/broker', 'tests/scaleout']
// Files of those suites that never open a database (pure functions, express middleware, schemas)
// or are about SQLite itself: the SQLite run of `npm test` covers them, a second run proves nothing.
// A file missing here only costs time, so new files run on PostgreSQL until someone lists them.
const databaseFree = [
  'tests/unit/a-prefix-redirect.test.ts',
  'tests/unit/agent-derived.test.ts',
  'tests/unit/alarm-clears.test.ts',
  'tests/unit/alarm-windows.test.ts',
  'tests/unit/api-client.test.ts',
  'tests/unit/api-input-schemas.test.ts',
  'tests/unit/change-log.test.ts',
  'tests/unit/channel-url-guard.test.ts',
  'tests/unit/cli-dash-ids.test.ts',
  'tests/unit/compress-response.test.ts',
  'tests/unit/db-bind-limit.test.ts',
  'tests/unit/ingest-retry.test.ts',
  'tests/unit/location-bounds.test.ts',
  'tests/unit/low-priority-preloads.test.ts',
  'tests/unit/migrate-current.test.ts',
  'tests/unit/openapi-typed-client.test.ts',
  'tests/unit/openapi.test.ts',
  'tests/unit/relative-time.test.ts',
  'tests/unit/relay-origins.test.ts',
  'tests/unit/root-cause.test.ts',
  'tests/unit/route-match-cache.test.ts',
  'tests/unit/security-headers.test.ts',
  'tests/unit/svg-bar-chart.test.ts',
  'tests/unit/value-hash.test.ts',
  'tests/security/load-shedding.test.ts',
]
const args = process.argv.slice(2).filter((a) => a !== '--if-configured')

// Vitest options whose value is the next argument (`-t name`): that value is no file filter.
const TAKES_VALUE = new Set(['-t', '--testNamePattern', '--reporter', '--exclude', '--project', '--shard', '--retry', '--bail', '-c', '--config', '--outputFile', '--maxWorkers', '--minWorkers', '--pool', '--testTimeout', '--hookTimeout', '-r', '--root', '--dir'])
const filters = args.filter((arg, i) => !arg.startsWith('-') && !TAKES_VALUE.has(args[i - 1] ?? ''))
const options = args.filter((arg) => !filters.includes(arg))

/** The suites' test files that pass Vitest's file filters (a filter matches when the path contains it). */
function filteredFiles() {
  const files = suites.flatMap((dir) => fs.readdirSync(path.join(root, dir), { recursive: true }).map((name) => path.join(dir, String(name))))
  return files
    .filter((file) => file.endsWith('.test.ts') && !databaseFree.includes(file))
    .filter((file) => filters.some((filter) => file.includes(path.normalize(filter).replace(/^\.\//, ''))))
}

// Vitest ORs file filters with the suites; so with filters (`npm test -- tests/unit/foo`) the
// matching files of the suites are named one by one instead.
let selection = [...suites, ...databaseFree.flatMap((file) => ['--exclude', file])]
if (filters.length) {
  selection = filteredFiles()
  if (!selection.length) {
    console.log(`PostgreSQL run skipped: no file of ${suites.join(', ')} (database-free files left out) matches ${filters.join(' ')}`)
    process.exit(0)
  }
}
console.log(
  filters.length
    ? `Running ${selection.length} file(s) matching ${filters.join(' ')} on PostgreSQL (${new URL(url).host})`
    : `Running ${suites.join(', ')} on PostgreSQL (${new URL(url).host}), without the ${databaseFree.length} database-free files`,
)
const result = spawnSync('npx', ['vitest', 'run', ...selection, ...options], {
  cwd: root,
  stdio: 'inherit',
  // the suites need no browser build of their own beyond what `npm test` made
  env: { ...process.env, PIXELFLEET_TEST_DATABASE: 'postgres' },
})
process.exit(result.status ?? 1)
