/**
 * server/route-match-cache.ts patches @remix-run/router's CommonJS build as Node loads it, so that
 * route trees are flattened and ranked once and route patterns compiled once. The patch must apply
 * to the installed version, and matching must give exactly what the unpatched library gives.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { patchRemixDataSource, patchRemixRoutesSource, patchRouterSource, patchStaticRouterSource } from '../../server/route-match-cache'

const require = createRequire(import.meta.url)
const file = require.resolve('@remix-run/router')
const source = fs.readFileSync(file, 'utf8')

type DataRoute = { id: string; path?: string; index?: boolean; hasErrorBoundary?: boolean; children?: DataRoute[] }
type Router = {
  UNSAFE_convertRoutesToDataRoutes: (routes: unknown[], mapRouteProperties: (route: unknown) => object, parentPath?: string[], manifest?: Record<string, unknown>) => DataRoute[]
  matchRoutes: (routes: unknown[], location: string) => Array<{ route: { id: string }; params: Record<string, string>; pathname: string; pathnameBase: string }> | null; matchPath: (pattern: { path: string; caseSensitive?: boolean; end?: boolean }, pathname: string) => unknown }

function load<T = Router>(code: string, requireFrom = require): T {
  const module = { exports: {} as T }
  vm.runInThisContext(`(function (exports, require, module) {${code}\n})`)(module.exports, requireFrom, module)
  return module.exports
}

const routes = [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'login', path: 'login' },
      { id: 'about', path: 'about' },
      {
        id: 'org',
        path: 'organization/:organizationId',
        children: [
          { id: 'org-index', index: true },
          { id: 'projects', path: 'projects' },
          { id: 'project', path: 'projects/:projectId', children: [{ id: 'tab', path: ':tab?' }] },
          { id: 'agents', path: 'agents', children: [{ id: 'agent', path: ':agentId' }, { id: 'agents-index', index: true }] },
        ],
      },
      { id: 'Case', path: 'CaseOnly', caseSensitive: true },
      { id: 'splat', path: 'files/*' },
      { id: 'catch', path: '*' },
    ],
  },
]

const paths = ['/', '/login', '/LOGIN', '/about/', '/organization/o1', '/organization/o1/projects', '/organization/o1/projects/p1', '/organization/o1/projects/p1/agents', '/organization/o1/agents', '/organization/o1/agents/a%20b', '/caseonly', '/CaseOnly', '/files/a/b.txt', '/nowhere/at/all']

describe('route match cache', () => {
  it('applies to the installed @remix-run/router', () => {
    expect(patchRouterSource(source)).not.toBeNull()
  })

  it('matches every path exactly as the unpatched router, also when asked again', () => {
    const original = load(source)
    const patched = load(patchRouterSource(source)!)
    const summary = (m: ReturnType<Router['matchRoutes']>) => m?.map((x) => ({ id: x.route.id, params: x.params, pathname: x.pathname, base: x.pathnameBase })) ?? null
    for (let round = 0; round < 2; round++) {
      for (const p of paths) expect(summary(patched.matchRoutes(routes, p)), p).toEqual(summary(original.matchRoutes(routes, p)))
    }
    // a different tree (Remix builds a new one per render in React Router's SSR) is matched on its own
    const other = [{ id: 'only', path: 'login' }]
    expect(summary(patched.matchRoutes(other, '/login'))).toEqual([{ id: 'only', params: {}, pathname: '/login', base: '/login' }])
    expect(patched.matchRoutes(other, '/about')).toBeNull()
    // matchPath with the same pattern but other options compiles separately
    expect(patched.matchPath({ path: '/a', end: false }, '/a/b')).not.toBeNull()
    expect(patched.matchPath({ path: '/a', end: true }, '/a/b')).toBeNull()
    expect(patched.matchPath({ path: '/A', caseSensitive: true }, '/a')).toBeNull()
    expect(patched.matchPath({ path: '/A' }, '/a')).not.toBeNull()
  })

  it('gives every caller its own match objects', () => {
    const patched = load(patchRouterSource(source)!)
    const first = patched.matchRoutes(routes, '/organization/o1/projects/p1/agents')!
    first[0].params.organizationId = 'changed'
    first[1].pathname = 'changed'
    const again = patched.matchRoutes(routes, '/organization/o1/projects/p1/agents')!
    expect(again[0].params.organizationId).toBe('o1')
    expect(again[1].pathname).toBe('/organization/o1')
    // one params object per call, shared by its matches, as the library does
    expect(again[0].params).toBe(again[again.length - 1].params)
  })

  it("converts a route tree to data routes once, filling every caller's manifest", () => {
    const original = load(source)
    const patched = load(patchRouterSource(source)!)
    const mapProps = (route: unknown) => ({ hasErrorBoundary: (route as { id: string }).id === 'org' })
    const manifests = [{}, {}] as Record<string, unknown>[]
    const first = patched.UNSAFE_convertRoutesToDataRoutes(routes, mapProps, undefined, manifests[0])
    const second = patched.UNSAFE_convertRoutesToDataRoutes(routes, mapProps, undefined, manifests[1])
    expect(second).toBe(first)
    const reference: Record<string, unknown> = {}
    expect(JSON.stringify(first)).toBe(JSON.stringify(original.UNSAFE_convertRoutesToDataRoutes(routes, mapProps, undefined, reference)))
    // every id reads as in the library's own manifest (the kept one is linked, not copied)
    for (const manifest of manifests) for (const id of Object.keys(reference)) expect((manifest[id] as { id: string }).id).toBe(id)
    // a manifest that already holds routes gets the kept ones copied beside them
    const filled: Record<string, unknown> = { other: 1 }
    patched.UNSAFE_convertRoutesToDataRoutes(routes, mapProps, undefined, filled)
    expect(Object.keys(filled).sort()).toEqual(['other', ...Object.keys(reference)].sort())
    expect(manifests[1].org).toBe(first[0].children!.find((r) => r.id === 'org'))
    // a tree with a lazy route is converted on every call (the router replaces its properties when loaded)
    const lazy = [{ id: 'lazy', path: 'x', lazy: () => Promise.resolve({}) }]
    expect(patched.UNSAFE_convertRoutesToDataRoutes(lazy, mapProps)).not.toBe(patched.UNSAFE_convertRoutesToDataRoutes(lazy, mapProps))
  })

  it("builds Remix's server routes once per manifest while the route modules stay the same", () => {
    const remixFile = require.resolve('@remix-run/react/dist/routes.js')
    const remixSource = fs.readFileSync(remixFile, 'utf8')
    expect(patchRemixRoutesSource(remixSource)).not.toBeNull()
    type Remix = { createServerRoutes: (manifest: object, modules: Record<string, object>, future: object, isSpaMode: boolean) => Array<{ id: string; children?: unknown[] }> }
    const fromRemix = createRequire(remixFile)
    const original = load<Remix>(remixSource, fromRemix)
    const patched = load<Remix>(patchRemixRoutesSource(remixSource)!, fromRemix)
    const manifest = {
      root: { id: 'root', path: '', hasLoader: true },
      about: { id: 'about', parentId: 'root', path: 'about', hasLoader: true },
      index: { id: 'index', parentId: 'root', index: true, hasLoader: false },
    }
    const modules = () => ({ root: { default: () => null }, about: { default: () => null, handle: { crumb: 'About' } }, index: { default: () => null } })
    const stable = modules()
    const first = patched.createServerRoutes(manifest, { ...stable }, {}, false)
    expect(patched.createServerRoutes(manifest, { ...stable }, {}, false)).toBe(first)
    const summary = (r: unknown) => JSON.stringify(r, (_k, v) => (typeof v === 'function' ? 'fn' : v))
    expect(summary(first)).toBe(summary(original.createServerRoutes(manifest, stable, {}, false)))
    // another module for a route (a new build in development) builds the tree again
    expect(patched.createServerRoutes(manifest, { ...stable, about: { default: () => null } }, {}, false)).not.toBe(first)
    expect(patched.createServerRoutes(manifest, modules(), {}, true)).not.toBe(first)
  })

  it('resolves link targets exactly as the unpatched router, each caller getting its own object', () => {
    type Resolver = { resolveTo: (to: unknown, routePathnames: string[], locationPathname: string, isPathRelative?: boolean) => { pathname: string; search: string; hash: string } }
    const original = load<Resolver>(source)
    const patched = load<Resolver>(patchRouterSource(source)!)
    const targets: unknown[] = ['/about', 'agents', '.', '..', '../x', '', '?sort=name', '#top', 'a/', '/a//b', { pathname: '/p', search: '?q=1' }, { search: '?only' }, { hash: '#h' }, {}, { pathname: 'undefined' }]
    const stacks: [string[], string][] = [
      [['/'], '/'],
      [['/', '/organization/o1', '/organization/o1/agents'], '/organization/o1/agents'],
      [['/', '/organization/o1'], '/organization/o1/agents/'],
    ]
    for (let round = 0; round < 2; round++) {
      for (const to of targets) {
        for (const [pathnames, location] of stacks) {
          for (const relative of [false, true]) {
            const got = patched.resolveTo(to, pathnames, location, relative)
            expect(got, JSON.stringify([to, pathnames, location, relative])).toEqual(original.resolveTo(to, pathnames, location, relative))
            got.pathname = 'changed'
          }
        }
      }
    }
    // an invalid target still throws, every time
    for (let i = 0; i < 2; i++) expect(() => patched.resolveTo({ pathname: '/a?b' }, ['/'], '/')).toThrow(/Cannot include a '\?'/)
  })

  it("encodes the static router's link targets as the unpatched one", () => {
    const serverFile = require.resolve('react-router-dom/server.js')
    const serverSource = fs.readFileSync(serverFile, 'utf8')
    expect(patchStaticRouterSource(serverSource)).not.toBeNull()
    type StaticRouter = { createStaticRouter: (routes: unknown[], context: object) => { encodeLocation: (to: unknown) => { pathname: string; search: string; hash: string } } }
    const fromServer = createRequire(serverFile)
    const original = load<StaticRouter>(serverSource, fromServer).createStaticRouter([], { matches: [] })
    const patched = load<StaticRouter>(patchStaticRouterSource(serverSource)!, fromServer).createStaticRouter([], { matches: [] })
    for (let round = 0; round < 2; round++) {
      for (const to of ['/a b ', '/x?y=1#z', 'https://example.com/p?q', '/%20ü', { pathname: '/o', search: '?s' }]) {
        const got = patched.encodeLocation(to)
        expect(got).toEqual(original.encodeLocation(to))
        got.pathname = 'changed'
      }
    }
  })

  it('hands loaders and actions the request itself when there is no parameter to strip, else the same copy as unpatched', async () => {
    const dataFile = require.resolve('@remix-run/server-runtime/dist/data.js')
    const dataSource = fs.readFileSync(dataFile, 'utf8')
    expect(patchRemixDataSource(dataSource)).not.toBeNull()
    type Data = { callRouteLoader: (args: object) => Promise<unknown>; callRouteAction: (args: object) => Promise<unknown> }
    const fromData = createRequire(dataFile)
    const original = load<Data>(dataSource, fromData)
    const patched = load<Data>(patchRemixDataSource(dataSource)!, fromData)
    const seen = async (data: Data, kind: 'loader' | 'action', request: Request) => {
      let got: Request | undefined
      const fn = ({ request: r }: { request: Request }) => ((got = r), null)
      await (kind === 'loader' ? data.callRouteLoader : data.callRouteAction)({ loadContext: {}, [kind]: fn, params: {}, request, routeId: 'r', singleFetch: true })
      return got!
    }
    for (const kind of ['loader', 'action'] as const) {
      for (const url of ['http://h/about', 'http://h/organization/o1/agents?sort=name', 'http://h/a?_routes=root,routes%2Fa', 'http://h/a?index&x=1', 'http://h/a?index=1&index=', 'http://h/a?q=index_routes']) {
        const request = new Request(url, { headers: { cookie: 'c=1' } })
        const [before, after] = [await seen(original, kind, request), await seen(patched, kind, request)]
        expect(after.url).toBe(before.url)
        expect(after.headers.get('cookie')).toBe('c=1')
        // the same object exactly when the unpatched copy had the same address
        expect(after === request).toBe(before.url === request.url && !/index|_routes/.test(new URL(url).search))
      }
    }
  })
})
