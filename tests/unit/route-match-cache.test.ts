/**
 * server/route-match-cache.ts patches @remix-run/router's CommonJS build as Node loads it, so that
 * route trees are flattened and ranked once and route patterns compiled once. The patch must apply
 * to the installed version, and matching must give exactly what the unpatched library gives.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { patchRouterSource } from '../../server/route-match-cache'

const require = createRequire(import.meta.url)
const file = require.resolve('@remix-run/router')
const source = fs.readFileSync(file, 'utf8')

type Router = { matchRoutes: (routes: unknown[], location: string) => Array<{ route: { id: string }; params: Record<string, string>; pathname: string; pathnameBase: string }> | null; matchPath: (pattern: { path: string; caseSensitive?: boolean; end?: boolean }, pathname: string) => unknown }

function load(code: string): Router {
  const module = { exports: {} as Router }
  vm.runInThisContext(`(function (exports, require, module) {${code}\n})`)(module.exports, require, module)
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
})
