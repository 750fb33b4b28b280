/**
 * Test files that open no database, start no portal, broker or relay, close what they listen on and
 * leave no global state behind (timers, stubs and the configuration are restored after each test).
 * They run in the `pure` project (vite.config.ts): one worker thread, modules kept from file to
 * file, without the per-file database copy, saving the ~1.6 CPU-s a file costs in a fresh fork
 * (decision 078). `npx vitest run --project pure --sequence.shuffle` shows they pass in any
 * order. A file that needs a database or a server of ours belongs in the default `suite` project;
 * when in doubt, leave it there. The PostgreSQL run (scripts/test-scaleout.mjs) leaves them out:
 * they never reach the database.
 * @type {string[]}
 */
export const PURE_FILES = [
  'tests/broker/ingest-validate.test.ts',
  'tests/cli/cli-api-coverage.test.ts',
  'tests/cli/cli-output.test.ts',
  'tests/ops/logger.test.ts',
  'tests/relay/data-reads.test.ts',
  'tests/relay/import-cycles.test.ts',
  'tests/relay/native-pump.test.ts',
  'tests/security/load-shedding.test.ts',
  'tests/simulator/models.test.ts',
  'tests/unit/process-tree.test.ts',
  'tests/simulator/offline-scenario.test.ts',
  'tests/simulator/switch-failure.test.ts',
  'tests/unit/a-prefix-redirect.test.ts',
  'tests/unit/ack-batch.test.ts',
  'tests/unit/agent-derived.test.ts',
  'tests/unit/agents-table-state.test.ts',
  'tests/unit/alarm-clears.test.ts',
  'tests/unit/alarm-windows.test.ts',
  'tests/unit/api-client.test.ts',
  'tests/unit/api-input-schemas.test.ts',
  'tests/unit/change-log.test.ts',
  'tests/unit/channel-url-guard.test.ts',
  'tests/unit/cli-dash-ids.test.ts',
  'tests/unit/compress-response.test.ts',
  'tests/unit/db-bind-limit.test.ts',
  'tests/unit/ingest-handoff.test.ts',
  'tests/unit/ingest-retry.test.ts',
  'tests/unit/jobs.test.ts',
  'tests/unit/location-bounds.test.ts',
  'tests/unit/low-priority-preloads.test.ts',
  'tests/unit/migrate-current.test.ts',
  'tests/unit/name-order.test.ts',
  'tests/unit/openapi-typed-client.test.ts',
  'tests/unit/openapi.test.ts',
  'tests/unit/plain-icon.test.ts',
  'tests/unit/puback-watchdog.test.ts',
  'tests/unit/relative-time.test.ts',
  'tests/unit/relay-origins.test.ts',
  'tests/unit/render-whole.test.ts',
  'tests/unit/request-scope.test.ts',
  'tests/unit/retired-queues.test.ts',
  'tests/unit/root-cause.test.ts',
  'tests/unit/route-match-cache.test.ts',
  'tests/unit/security-headers.test.ts',
  'tests/unit/shared-rows.test.ts',
  'tests/unit/svg-bar-chart.test.ts',
  'tests/unit/value-hash.test.ts',
]
