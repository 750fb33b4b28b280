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
 *    one, and convertRoutesToDataRoutes per input tree: both are pure functions of the build (the
 *    caller's manifest gets the kept one as its prototype instead of a copy);
 *  - resolveTo (every Link's target, two or three times per Link and render) and the static
 *    router's encodeLocation (a `new URL` per Link) are kept per argument: pure functions whose
 *    results are copied per call (issue #26, decision 080);
 *  - Remix's stripIndexParam / stripRoutesParam hand a loader or action the request itself when its
 *    URL has no such parameter to strip, instead of a copy with the same URL (each copy was a URL
 *    parse, a header copy and an abort signal following the original: two per loader, ~6 % of a
 *    signed-in /about; decision 094);
 * If a library's source no longer has the expected text, it is not patched (and a warning says so).
 */
const ROUTER_FILE = path.join('@remix-run', 'router', 'dist', 'router.cjs.js')
const REMIX_ROUTES_FILE = path.join('@remix-run', 'react', 'dist', 'routes.js')

const RANK_CALL = 'let branches = flattenRoutes(routes);\n  rankRouteBranches(branches);'
const COMPILE_DEF = 'function compilePath(path, caseSensitive, end) {'
const MATCH_DEF = 'function matchRoutesImpl(routes, locationArg, basename, allowPartial) {'
const CONVERT_DEF = 'function convertRoutesToDataRoutes(routes, mapRouteProperties, parentPath, manifest) {'
const RESOLVE_TO_DEF = 'function resolveTo(toArg, routePathnames, locationPathname, isPathRelative) {'

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
  // the kept routes by id, as the caller's manifest would hold them: linked, not copied (a copy of
  // ~95 ids was ~1 ms per render); callers only read routes by id or add their own
  if (manifest !== void 0) {
    if (Object.getPrototypeOf(manifest) === Object.prototype && __pfIsEmpty(manifest)) Object.setPrototypeOf(manifest, converted.manifest);
    else Object.assign(manifest, converted.manifest);
  }
  return converted.routes;
}
function __pfIsEmpty(object) {
  for (const key in object) return false;
  return true;
}
const __pfResolved = new Map();
const __pfPart = (value) => (value === void 0 ? "u" : value === null ? "n" : typeof value === "string" ? "=" + value : "?" + String(value));
function resolveTo(toArg, routePathnames, locationPathname, isPathRelative) {
  // every <Link>/<NavLink> of a render resolves its target two or three times (useResolvedPath,
  // useHref, the prefetch check), and the library builds three error texts (with JSON.stringify)
  // for every object target before checking it: a pure function of its arguments, so kept
  const to = typeof toArg === "string" ? "s" + toArg : toArg !== null && typeof toArg === "object" ? "o" + __pfPart(toArg.pathname) + "\\0" + __pfPart(toArg.search) + "\\0" + __pfPart(toArg.hash) : null;
  if (to === null || !Array.isArray(routePathnames)) return __pfResolveTo(toArg, routePathnames, locationPathname, isPathRelative);
  const key = to + "\\0" + locationPathname + "\\0" + (isPathRelative ? "1" : "0") + "\\0" + routePathnames.join("\\0");
  let resolved = __pfResolved.get(key);
  if (resolved === void 0) {
    resolved = __pfResolveTo(toArg, routePathnames, locationPathname, isPathRelative);
    if (__pfResolved.size >= 5000) __pfResolved.clear();
    __pfResolved.set(key, resolved);
  }
  return { pathname: resolved.pathname, search: resolved.search, hash: resolved.hash };
}
`

/** The router's source with the caches, or null when it does not look as expected. */
export function patchRouterSource(source: string): string | null {
  if (!source.includes(RANK_CALL) || [COMPILE_DEF, MATCH_DEF, CONVERT_DEF, RESOLVE_TO_DEF].some((def) => source.split(def).length !== 2)) return null
  return source
    .replace(RANK_CALL, 'let branches = __pfRankedBranches(routes);')
    .replace(RESOLVE_TO_DEF, RESOLVE_TO_DEF.replace('resolveTo', '__pfResolveTo'))
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

const STATIC_ROUTER_FILE = path.join('react-router-dom', 'server.js')
const ENCODE_LOCATION_DEF = 'function encodeLocation(to) {'
const ENCODE_LOCATION_PRELUDE = `
const __pfEncoded = new Map();
function encodeLocation(to) {
  // every <Link> of a render parses its target with new URL(); a pure function of the string
  if (typeof to !== "string") return __pfEncodeLocation(to);
  let encoded = __pfEncoded.get(to);
  if (encoded === void 0) {
    encoded = __pfEncodeLocation(to);
    if (__pfEncoded.size >= 5000) __pfEncoded.clear();
    __pfEncoded.set(to, encoded);
  }
  return { pathname: encoded.pathname, search: encoded.search, hash: encoded.hash };
}
`

/** React Router's static (server) router with encodeLocation kept per target, or null when it does not look as expected. */
export function patchStaticRouterSource(source: string): string | null {
  if (source.split(ENCODE_LOCATION_DEF).length !== 2) return null
  return source.replace(ENCODE_LOCATION_DEF, `${ENCODE_LOCATION_PRELUDE}${ENCODE_LOCATION_DEF.replace('encodeLocation', '__pfEncodeLocation')}`)
}

const DATA_FILE = path.join('@remix-run', 'server-runtime', 'dist', 'data.js')
const STRIP_INDEX_DEF = 'function stripIndexParam(request) {'
const STRIP_ROUTES_DEF = 'function stripRoutesParam(request) {'
const STRIP_PRELUDE = `
// the query has no such parameter (a plain substring test: a false hit only costs the copy)
const __pfMayHaveParam = (url, name) => {
  const query = url.indexOf("?");
  return query !== -1 && url.indexOf(name, query) !== -1;
};
function stripIndexParam(request) {
  return __pfMayHaveParam(request.url, "index") ? __pfStripIndexParam(request) : request;
}
function stripRoutesParam(request) {
  return __pfMayHaveParam(request.url, "_routes") ? __pfStripRoutesParam(request) : request;
}
`

/** Remix's loader and action calls without a Request copy when there is no parameter to strip, or null when the source does not look as expected. */
export function patchRemixDataSource(source: string): string | null {
  if ([STRIP_INDEX_DEF, STRIP_ROUTES_DEF].some((def) => source.split(def).length !== 2)) return null
  // the originals renamed first: the prelude defines functions of the same names
  return source
    .replace(STRIP_ROUTES_DEF, STRIP_ROUTES_DEF.replace('stripRoutesParam', '__pfStripRoutesParam'))
    .replace(STRIP_INDEX_DEF, `${STRIP_PRELUDE}${STRIP_INDEX_DEF.replace('stripIndexParam', '__pfStripIndexParam')}`)
}

type CompilingModule = { _compile(content: string, filename: string): unknown }
let state: 'off' | 'installed' | 'patched' | 'unpatched' = 'off'

const PATCHES: Array<{ file: string; patch: (source: string) => string | null; name: string }> = [
  { file: ROUTER_FILE, patch: patchRouterSource, name: '@remix-run/router' },
  { file: REMIX_ROUTES_FILE, patch: patchRemixRoutesSource, name: '@remix-run/react (routes)' },
  { file: STATIC_ROUTER_FILE, patch: patchStaticRouterSource, name: 'react-router-dom (server)' },
  { file: DATA_FILE, patch: patchRemixDataSource, name: '@remix-run/server-runtime (data)' },
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
