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
 * Client chunks for first loads on phones (docs/benchmarks.md, Pages on phones; decision 084).
 * Rollup's default splits every module shared by two routes into its own file (a page fetched 25-60
 * scripts of 0.3-30 KB), and each request costs a phone a round trip. What every page needs anyway
 * (the root and `_app` layouts with all they import) and the small building blocks nearly every
 * route imports (`app/components/ui/*`, `app/utils/*`, with all they import) go into two chunks:
 * libraries in `ui-vendor`, our code in `ui`. Everything else (Radix slider, switch, popover, tables,
 * charts, maps) stays with the routes that import it, not in every page's first load.
 */
const SHARED_SEEDS = /\/app\/(root\.tsx|routes\/_app\.tsx|components\/ui\/|utils\/)/
type ModuleInfo = { importedIds: readonly string[] } | null
let shellModules: Set<string> | undefined
/** Whether `id` is a seed or one of their static imports, recursively (lazy imports excluded); computed once per build. */
function inShell(id: string, getModuleInfo: (id: string) => ModuleInfo, moduleIds: IterableIterator<string>) {
  if (!shellModules) {
    shellModules = new Set()
    const queue = [...moduleIds].filter((m) => SHARED_SEEDS.test(m))
    for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
      if (shellModules.has(next)) continue
      shellModules.add(next)
      queue.push(...(getModuleInfo(next)?.importedIds ?? []))
    }
  }
  return shellModules.has(id)
}
function manualChunks(id: string, { getModuleInfo, getModuleIds }: { getModuleInfo: (id: string) => ModuleInfo; getModuleIds: () => IterableIterator<string> }): string | undefined {
  if (!inShell(id, getModuleInfo, getModuleIds())) return undefined
  if (/\/node_modules\//.test(id)) return 'ui-vendor'
  if (/\/app\/(?!routes\/|root\.tsx)/.test(id)) return 'ui'
  return undefined
}

/**
 * Packages the server build carries inside itself instead of importing from node_modules: Node's
 * ESM loader resolved and compiled their hundreds of files on every server start (lucide-react's
 * ~1,600 icon modules, recharts with redux and d3, Radix's small packages: ~1.5 of the ~2.3 CPU-s of
 * loading the build), where the bundle keeps only what the app uses (decision 101). Packages whose
 * module identity the server shares with its own code (React, Remix, Prisma, zod, prom-client) and
 * native or worker-thread ones (argon2, pino) stay external.
 */
const SSR_BUNDLED = [
  'lucide-react', 'recharts', /^@radix-ui\//, 'sonner', /^@tanstack\//, 'class-variance-authority', 'clsx', 'tailwind-merge',
  // what they import
  'victory-vendor', 'use-sync-external-store', 'tiny-invariant', 'reselect', 'react-redux', 'react-is', 'immer', 'eventemitter3', 'es-toolkit', 'decimal.js-light', '@reduxjs/toolkit', 'redux', 'redux-thunk',
  'react-remove-scroll', 'react-remove-scroll-bar', 'react-style-singleton', 'use-callback-ref', 'use-sidecar', 'get-nonce', 'aria-hidden', 'detect-node-es', 'tslib', /^@floating-ui\//, /^d3-/, 'internmap',
]

export default defineConfig(({ isSsrBuild, command }) => ({
  build: isSsrBuild ? {} : { rollupOptions: { output: { manualChunks } } },
  ssr: command === 'build' ? { noExternal: SSR_BUNDLED } : undefined,
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
    // the second names a test file that runs far too long, and where it is (a hang)
    reporters: ['default', './tests/setup/slow-file-reporter.ts'],
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
