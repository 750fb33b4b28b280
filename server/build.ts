import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)
const require = createRequire(import.meta.url)

const SOURCES = ['app', 'vite.config.ts', 'tailwind.config.ts', 'postcss.config.js', 'package.json']

function newestMtime(target: string): number {
  if (!fs.existsSync(target)) return 0
  const stat = fs.statSync(target)
  if (!stat.isDirectory()) return stat.mtimeMs
  return fs.readdirSync(target).reduce((max, entry) => Math.max(max, newestMtime(path.join(target, entry))), stat.mtimeMs)
}

/** True when build/ is missing or older than any source it is made from. */
export function buildIsStale(root: string, onlyWhenMissing = false): boolean {
  const built = path.join(root, 'build/server/index.js')
  if (!fs.existsSync(built)) return true
  if (onlyWhenMissing) return false
  const builtAt = fs.statSync(built).mtimeMs
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > builtAt)
}

/** Builds the Remix app (client and server bundles) with Vite. */
export async function buildApp(root: string) {
  const remixCli = path.join(path.dirname(require.resolve('@remix-run/dev/package.json')), 'dist/cli.js')
  await run(process.execPath, [remixCli, 'vite:build'], { cwd: root, env: withoutVitest({ ...process.env, NODE_ENV: 'production' }), maxBuffer: 64 * 1024 * 1024 })
}

/** Child processes started from tests must not inherit Vitest's markers (they switch the Remix plugin off). */
export function withoutVitest(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith('VITEST') && key !== 'TEST')) as NodeJS.ProcessEnv
}

/**
 * The relay's native pump (scripts/build-native.mjs, decision 109), built when missing or older than
 * its source: what the script said, empty when it was up to date. Without a compiler, or when the
 * build fails (a read-only checkout), it says so and never throws: the relay then moves large
 * downloads in JavaScript, which is no reason to stay down.
 */
export async function buildNativePump(root: string): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [path.join(root, 'scripts/build-native.mjs')], { cwd: root })
    return stdout.trim()
  } catch (error) {
    return `native pump not built: ${(error as Error).message.split('\n')[0]}; the relay moves large downloads in JavaScript`
  }
}
