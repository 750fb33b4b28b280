#!/usr/bin/env node
// npm run test:scaleout: the integration, isolation (security) and broker suites again, each test
// on its own fresh PostgreSQL database (tests/setup/test-postgres.ts). Needs
// PIXELFLEET_TEST_POSTGRES_URL, a superuser URL (scripts/ensure-postgres.sh prints one).
// `--if-configured` (the end of `npm test`) skips quietly when it is not set.
import { spawnSync } from 'node:child_process'

const url = process.env.PIXELFLEET_TEST_POSTGRES_URL
if (!url) {
  if (process.argv.includes('--if-configured')) process.exit(0)
  console.error('PIXELFLEET_TEST_POSTGRES_URL is not set: run `eval "$(scripts/ensure-postgres.sh --export)"` first (see docs/deployment.md).')
  process.exit(1)
}
const suites = ['tests/integration', 'tests/unit', 'tests/security', 'tests/broker', 'tests/scaleout']
const args = process.argv.slice(2).filter((a) => a !== '--if-configured')
console.log(`Running ${suites.join(', ')} on PostgreSQL (${new URL(url).host})`)
const result = spawnSync('npx', ['vitest', 'run', ...suites, ...args], {
  stdio: 'inherit',
  // the suites need no browser build of their own beyond what `npm test` made
  env: { ...process.env, PIXELFLEET_TEST_DATABASE: 'postgres' },
})
process.exit(result.status ?? 1)
