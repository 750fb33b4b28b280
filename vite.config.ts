/// <reference types="vitest/config" />
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'
import { PURE_FILES } from './tests/setup/pure-files.mjs'

const TEST_LIMITS = {
  // generous: browser flows share two cores with a production server in CI, and a machine at
  // load 40 took over 120 s for a test that takes 10 s quiet; a limit only matters for a hang
  testTimeout: 240_000,
  hookTimeout: 300_000,
  // expect.poll waits for a condition; its default (1 s) is a fixed short timeout on a busy machine
  expect: { poll: { timeout: 30_000, interval: 100 } },
}

/**
 * `vitest run --exclude <glob>` (test:quick): Vitest 3.2 adds a command line exclude to the root
 * project's list only, not to inline projects', so the projects below read it here themselves.
 */
const E2E_FILES = 'tests/e2e/**/*.test.ts'

const CLI_EXCLUDES = process.argv.flatMap((arg, i, all) => (arg === '--exclude' && all[i + 1] ? [all[i + 1]] : arg.startsWith('--exclude=') ? [arg.slice('--exclude='.length)] : []))


declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

/**
 * Client chunks for first loads on phones (docs/benchmarks.md, Pages on phones): Rollup's default
 * splits every shared icon and UI primitive into its own file, so a page fetched 25-60 scripts of
 * 0.3-30 KB. These libraries are needed by nearly every page; one chunk each costs a few KB more
 * on the login page and saves dozens of requests everywhere. Charts, maps and tables stay split.
 */
const SHARED_UI = /node_modules\/(@radix-ui|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|aria-hidden|get-nonce|detect-node-es|tslib|sonner|class-variance-authority|clsx|tailwind-merge|lucide-react)\//
function manualChunks(id: string): string | undefined {
  if (SHARED_UI.test(id)) return 'ui-vendor'
  if (/\/app\/components\/ui\//.test(id)) return 'ui'
  return undefined
}

export default defineConfig(({ isSsrBuild }) => ({
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks } } },
  server: { hmr: process.env.PIXELFLEET_HMR === 'off' ? false : undefined },
  plugins: [
    // Vitest runs domain and route code directly; the Remix plugin is only for the app build.
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}', '**/__*.*'],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          // The whole route manifest ships with the page: with lazy discovery a fetcher to a not-yet-discovered
          // resource route (notes panel, live updates) could surface as a 404 in the current page under load.
          v3_lazyRouteDiscovery: false,
        },
      }),
    tsconfigPaths(),
  ],
  test: {
    // once per run, for both projects (a project's own globalSetup would run again per project)
    globalSetup: ['tests/setup/global-setup.ts'],
    poolOptions: {
      forks: { maxForks: 2, minForks: 1 },
      // the `pure` project: one worker thread that keeps its modules from file to file (decision 078)
      threads: { isolate: false, maxThreads: 1, minThreads: 1 },
    },
    projects: [
      { plugins: [tsconfigPaths()], test: { ...TEST_LIMITS, name: 'pure', include: PURE_FILES, exclude: CLI_EXCLUDES, setupFiles: ['tests/setup/setup-config-only.ts'], pool: 'threads' } },
      // the browser flows: a fresh fork each, but no database of the worker's own (their portals have theirs)
      { plugins: [tsconfigPaths()], test: { ...TEST_LIMITS, name: 'e2e', include: [E2E_FILES], exclude: CLI_EXCLUDES, setupFiles: ['tests/setup/setup-config-only.ts'], pool: 'forks' } },
      {
        plugins: [tsconfigPaths()],
        test: {
          ...TEST_LIMITS,
          name: 'suite',
          include: ['tests/**/*.test.ts', 'app/**/*.test.ts', 'broker/**/*.test.ts', 'cli/**/*.test.ts', 'simulator/**/*.test.ts', 'relay/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/.git/**', ...PURE_FILES, E2E_FILES, ...CLI_EXCLUDES],
          setupFiles: ['tests/setup/setup-test-env.ts'],
          pool: 'forks',
        },
      },
    ],
  },
}))
