#!/usr/bin/env node
// npm run test:chaos: tests/chaos (issue #24): PostgreSQL, RabbitMQ and a node fail under a
// steady agent load; every acknowledged report must be stored. Needs RabbitMQ, nginx and
// PostgreSQL from Debian (scripts/ensure-rabbitmq.sh and scripts/ensure-postgres.sh install them);
// the suite starts its own PostgreSQL cluster and RabbitMQ node on free ports. `--quick`: the short
// profile (tests/chaos/chaos.test.ts, CHAOS_QUICK), which `npm test` runs in the background beside
// the SQLite suites when PIXELFLEET_TEST_POSTGRES_URL is set (scripts/test-all.mjs).
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'

const missing = ['/usr/lib/rabbitmq/bin/rabbitmq-server', '/usr/sbin/nginx', '/usr/lib/postgresql'].filter((p) => !fs.existsSync(p))
if (missing.length) {
  console.error(`test:chaos needs ${missing.join(', ')}: run scripts/ensure-rabbitmq.sh and scripts/ensure-postgres.sh (as root) first.`)
  process.exit(1)
}
const quick = process.argv.includes('--quick')
const result = spawnSync('npx', ['vitest', 'run', 'tests/chaos', ...process.argv.slice(2).filter((a) => a !== '--quick')], {
  stdio: 'inherit',
  // the nodes run the production build: `npm test` (or `npm run build`) made it
  // one file of many minutes: the slow-file reporter (tests/setup/slow-file-reporter.ts) speaks later
  env: { PIXELFLEET_TEST_SLOW_FILE_MIN: '35', ...process.env, PIXELFLEET_CHAOS: '1', PIXELFLEET_SKIP_BUILD: process.env.PIXELFLEET_SKIP_BUILD ?? '0', ...(quick ? { CHAOS_QUICK: '1' } : {}) },
})
process.exit(result.status ?? 1)
