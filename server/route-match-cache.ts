import Module, { createRequire } from 'node:module'
import path from 'node:path'

/**
 * Route matching costs, cached (server only; the browser bundle is untouched). React Router's
 * `matchRoutes` (in @remix-run/router, used by Remix's server runtime, its static handler and React
 * Router's SSR) flattens and ranks the whole route tree and compiles a RegExp per route pattern on
 * every call, three or more times per request: ~16 % of the server's CPU for /login (profile in
 * docs/benchmarks.md). On top, every document render rebuilt the route tree twice (Remix's
 * createServerRoutes, then React Router's convertRoutesToDataRoutes), so a cache keyed by the tree
 * missed on the render's own matching: ~12 % of a signed-in /about was route matching. This patches
 * the libraries' CommonJS builds as Node loads them so that
 *  - a compiled pattern is kept per (path, caseSensitive, end): the RegExp has no `g` flag and the
 *    params list is only read, so sharing them is safe;
 *  - the ranked branches are kept per routes array (WeakMap), and the matches of the last 1,000
 *    pathnames per routes array (each caller gets its own copies of the match objects): the
 *    server's route trees are built once per build and never changed (route discovery and lazy
 *    routes patch trees in the browser only; a tree with a lazy route is not cached);
 *  - Remix's createServerRoutes is kept per build manifest while every route module is the same
 *    one, and convertRoutesToDataRoutes per input tree: both are pure functions of the build.
 * If a library's source no longer has the expected text, it is not patched (and a warning says so).
 */
const ROUTER_FILE = path.join('@remix-run', 'router', 'dist', 'router.cjs.js')
const REMIX_ROUTES_FILE = path.join('@remix-run', 'react', 'dist', 'routes.js')

const RANK_CALL = 'let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);'
const COMPILE_DEF = 'function compilePath(path, caseSensitive, end) {'
const MATCH_DEF = 'function matchRoutesImpl(routes, locationArg, basename, allowPartial) {'
const CONVERT_DEF = 'function convertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest) {'

const PRELUDE = `
const __pfCompiled = new Map();
const __pfBranches = new WeakMap();
const __pfMatches = new WeakMap();
const __pfDataRoutes = new WeakMap();
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
function matchRoutesImpl(routes, locationArg, basename, allowPartial) {
  const pathname = (typeof locationArg === "string" ? parsePath(locationArg) : locationArg).pathname || "/";
  const key = (allowPartial ? "1" : "0") + basename + "\\0" + pathname;
  let byPath = __pfMatches.get(routes);
  if (byPath === void 0) {
    byPath = new Map();
    __pfMatches.set(routes, byPath);
  }
  let matches = byPath.get(key);
  if (matches === void 0) {
    matches = __pfMatchRoutesImpl(routes, locationArg, basename, allowPartial);
    if (byPath.size >= 1000) byPath.clear();
    byPath.set(key, matches);
  }
  if (matches === null) return null;
  // the matches of one call share one params object (matchRouteBranch); copies keep it so
  const params = matches.length > 0 ? Object.assign({}, matches[0].params) : {};
  return matches.map((match) => Object.assign({}, match, { params }));
}
function __pfHasLazy(routes) {
  return routes.some((route) => route.lazy !== void 0 || (route.children !== void 0 && __pfHasLazy(route.children)));
}
function convertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest) {
  if (parentPath !== void 0) return __pfConvertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest);
  // a kept tree had no lazy route when it was kept (the walk below costs as much as a render's matching)
  let byMapper = __pfDataRoutes.get(routes);
  let converted = byMapper === void 0 ? void 0 : byMapper.get(mapRouteProperties);
  if (converted === void 0) {
    if (__pfHasLazy(routes)) return __pfConvertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest);
    if (byMapper === void 0) {
      byMapper = new Map();
      __pfDataRoutes.set(routes, byMapper);
    }
    const built = {};
    converted = { routes: __pfConvertRoutesToDataRoutes(routes, mapRouteProperties, void 0, built), manifest: built };
    byMapper.set(mapRouteProperties, converted);
  }
  if (manifest !== void 0) Object.assign(manifest, converted.manifest);
  return converted.routes;
}
`

/** The router's source with the caches, or null when it does not look as expected. */
export function patchRouterSource(source: string): string | null {
  if (!source.includes(RANK_CALL) || [COMPILE_DEF, MATCH_DEF, CONVERT_DEF].some((def) => source.split(def).length !== 2)) return null
  return source
    .replace(RANK_CALL, 'let branches = __pfRankedBranches(routes);')
    .replace(MATCH_DEF, MATCH_DEF.replace('matchRoutesImpl', '__pfMatchRoutesImpl'))
    .replace(CONVERT_DEF, CONVERT_DEF.replace('convertRoutesToDataRoutes', '__pfConvertRoutesToDataRoutes'))
    .replace(COMPILE_DEF, `${PRELUDE}function __pfCompilePath(path, caseSensitive, end) {`)
}

const SERVER_ROUTES_DEF = 'function createServerRoutes(manifest, routeModules, future, isSpaMode, parentId = "", '

const SERVER_ROUTES_PRELUDE = `
const __pfServerRoutes = new WeakMap();
function createServerRoutes(manifest, routeModules, future, isSpaMode, ...nested) {
  if (nested.length > 0) return __pfCreateServerRoutes(manifest, routeModules, future, isSpaMode, ...nested);
  const cached = __pfServerRoutes.get(manifest);
  if (cached !== void 0 && cached.isSpaMode === isSpaMode && cached.ids.every((id) => routeModules[id] === cached.modules[id])) return cached.routes;
  const routes = __pfCreateServerRoutes(manifest, routeModules, future, isSpaMode);
  const modules = Object.assign({}, routeModules);
  __pfServerRoutes.set(manifest, { isSpaMode, ids: Object.keys(manifest), modules, routes });
  return routes;
}
`

/** Remix's routes module with createServerRoutes cached per manifest, or null when it does not look as expected. */
export function patchRemixRoutesSource(source: string): string | null {
  if (source.split(SERVER_ROUTES_DEF).length !== 2) return null
  return source.replace(SERVER_ROUTES_DEF, `${SERVER_ROUTES_PRELUDE}${SERVER_ROUTES_DEF.replace('createServerRoutes', '__pfCreateServerRoutes')}`)
}

type CompilingModule = { _compile(content: string, filename: string): unknown }
let state: 'off' | 'installed' | 'patched' | 'unpatched' = 'off'

const PATCHES: Array<{ file: string; patch: (source: string) => string | null; name: string }> = [
  { file: ROUTER_FILE, patch: patchRouterSource, name: '@remix-run/router' },
  { file: REMIX_ROUTES_FILE, patch: patchRemixRoutesSource, name: '@remix-run/react (routes)' },
]

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
    const target = PATCHES.find((p) => filename.endsWith(p.file))
    if (!target) return compile.call(this, content, filename)
    const patched = target.patch(content)
    if (target.file === ROUTER_FILE) state = patched ? 'patched' : 'unpatched'
    if (!patched) console.warn(`route-match-cache: ${target.name} changed; its route work is not cached`)
    return compile.call(this, patched ?? content, filename)
  }
}

export const routeMatchCacheState = () => state

installRouteMatchCache()
