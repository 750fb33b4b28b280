#!/usr/bin/env node
// The server (server/start.ts and everything of ours it imports) bundled into build/node/ with
// esbuild, so a process starts with plain `node` instead of tsx transpiling ~hundreds of .ts
// modules one by one (~4 of a test portal's ~7 CPU-s; decision 070). Packages stay external
// (node_modules as installed, Prisma's engines included). Used by the test harness; `npm start`
// keeps running the sources through tsx.
//  - start.mjs: loads route-match-cache.mjs (server/route-match-cache.ts), then server.mjs
//    (server/start.ts and the rest). The cache must patch @remix-run/router before any package
//    requires it, and a bundle's static imports of packages are all evaluated before its own code.
//  - thread.boot.mjs: the ingest worker thread (ingest/thread.server.ts), under the name
//    ingest/worker.server.ts starts it by (its boot file registers tsx, which a bundle needs not).
//  - pg-worker.mjs: copied as it is (plain JS, started by ingest/sql-pg.server.ts).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
// inside build/ (ignored by git), made after the production build: Remix empties build/ as it starts
export const BUNDLE_DIR = path.join(root, 'build/node')

/** Bundles into a fresh directory, then swaps it in file by file (a portal starting meanwhile reads whole files). */
export async function bundleServer() {
  const staging = `${BUNDLE_DIR}.${process.pid}`
  fs.rmSync(staging, { recursive: true, force: true })
  const routeMatchCache = path.join(root, 'server/route-match-cache.ts')
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: [
      { in: 'server/start.ts', out: 'server' },
      { in: 'server/route-match-cache.ts', out: 'route-match-cache' },
      { in: 'ingest/thread.server.ts', out: 'thread.boot' },
    ],
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        // packages stay external; `~/` is ours (tsconfig paths; esbuild's `packages: 'external'` takes it for one)
        name: 'packages-external',
        setup(build) {
          build.onResolve({ filter: /^[^./~]/ }, (args) => (args.kind === 'entry-point' ? undefined : { path: args.path, external: true }))
        },
      },
      {
        name: 'route-match-cache-first',
        setup(build) {
          // (resolved by hand: build.resolve would run this hook again)
          build.onResolve({ filter: /route-match-cache$/ }, (args) =>
            args.kind !== 'entry-point' && path.resolve(args.resolveDir, `${args.path}.ts`) === routeMatchCache
              ? { path: './route-match-cache.mjs', external: true }
              : undefined,
          )
        },
      },
    ],
  })
  fs.copyFileSync(path.join(root, 'ingest/pg-worker.mjs'), path.join(staging, 'pg-worker.mjs'))
  fs.writeFileSync(path.join(staging, 'start.mjs'), "// made by scripts/bundle-server.mjs\nimport './route-match-cache.mjs'\nawait import('./server.mjs')\n")
  fs.mkdirSync(BUNDLE_DIR, { recursive: true })
  for (const file of fs.readdirSync(staging)) fs.renameSync(path.join(staging, file), path.join(BUNDLE_DIR, file))
  fs.rmSync(staging, { recursive: true, force: true })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleServer()
