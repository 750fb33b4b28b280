/// <reference types="vitest/config" />
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'
import tsconfigPaths from 'vite-tsconfig-paths'

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true
  }
}

export default defineConfig({
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
    include: ['tests/**/*.test.ts', 'app/**/*.test.ts', 'broker/**/*.test.ts', 'cli/**/*.test.ts', 'simulator/**/*.test.ts', 'relay/**/*.test.ts'],
    globalSetup: ['tests/setup/global-setup.ts'],
    setupFiles: ['tests/setup/setup-test-env.ts'],
    // generous: browser flows share two cores with a production server in CI
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
})
