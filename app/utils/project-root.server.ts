import path from 'node:path'

/**
 * The repository's root, from the directory of the module asking: its source folder one level down
 * (run through tsx), or the test harness's server bundle in build/node/ (scripts/bundle-server.mjs).
 */
export function projectRoot(moduleDir: string): string {
  const bundled = path.basename(moduleDir) === 'node' && path.basename(path.dirname(moduleDir)) === 'build'
  return path.resolve(moduleDir, bundled ? '../..' : '..')
}
