import Module, { createRequire } from 'node:module'
import path from 'node:path'

/**
 * React Router's `matchRoutes` (in @remix-run/router, used by Remix's server runtime, its static
 * handler and React Router's SSR) flattens and ranks the whole route tree and compiles a RegExp per
 * route pattern on every call, three or more times per request: ~16 % of the server's CPU for
 * /login (profile in docs/benchmarks.md). This patches the library's CommonJS build as Node loads
 * it (server only; the browser bundle is untouched) so that
 *  - a compiled pattern is kept per (path, caseSensitive, end): the RegExp has no `g` flag and the
 *    params list is only read, so sharing them is safe;
 *  - the ranked branches are kept per routes array (WeakMap): the server's route trees are built once
 *    per build and never changed (route discovery and lazy routes patch trees in the browser only).
 * If the library's source no longer has the expected text, nothing is patched (and a warning says so).
 */
const ROUTER_FILE = path.join('@remix-run', 'router', 'dist', 'router.cjs.js')

const RANK_CALL = 'let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);'
const COMPILE_DEF = 'function compilePath(path, caseSensitive, end) {'

const PRELUDE = `
const __pfCompiled = new Map();
const __pfBranches = new WeakMap();
function __pfRankedBranches(routes) {
  let branches = __pfBranches.get(routes);
  if (!branches) {
    branches = flattenRoutes(routes);
    rankRouteBranches(branches);
    __pfBranches.set(routes, branches);
  }
  return branches;
}
function compilePath(path, caseSensitive, end) {
  const key = (caseSensitive ? "1" : "0") + (end === void 0 || end ? "1" : "0") + path;
  let compiled = __pfCompiled.get(key);
  if (compiled === void 0) {
    compiled = __pfCompilePath(path, caseSensitive, end);
    if (__pfCompiled.size < 10000) __pfCompiled.set(key, compiled);
  }
  return compiled;
}
`

/** The router's source with both caches, or null when it does not look as expected. */
export function patchRouterSource(source: string): string | null {
  if (!source.includes(RANK_CALL) || source.split(COMPILE_DEF).length !== 2) return null
  return source.replace(RANK_CALL, 'let branches = __pfRankedBranches(routes);').replace(COMPILE_DEF, `${PRELUDE}function __pfCompilePath(path, caseSensitive, end) {`)
}

type CompilingModule = { _compile(content: string, filename: string): unknown }
let state: 'off' | 'installed' | 'patched' | 'unpatched' = 'off'

/** Installs the load hook; must run before anything requires @remix-run/router. */
export function installRouteMatchCache() {
  if (state !== 'off') return
  const require = createRequire(import.meta.url)
  const routerPath = require.resolve('@remix-run/router')
  if (require.cache[routerPath]) {
    console.warn('route-match-cache: @remix-run/router was loaded before the cache was installed; route matching is not cached')
    state = 'unpatched'
    return
  }
  state = 'installed'
  const proto = (Module as unknown as { prototype: CompilingModule }).prototype
  const compile = proto._compile
  proto._compile = function (content: string, filename: string) {
    if (filename.endsWith(ROUTER_FILE)) {
      const patched = patchRouterSource(content)
      state = patched ? 'patched' : 'unpatched'
      if (!patched) console.warn('route-match-cache: @remix-run/router changed; route matching is not cached')
      return compile.call(this, patched ?? content, filename)
    }
    return compile.call(this, content, filename)
  }
}

export const routeMatchCacheState = () => state

installRouteMatchCache()
